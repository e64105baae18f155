import { badRequest, notFound } from '@spinroom/platform/core';
import { isUuid, requireMember, requireSelfOrPrivileged, requireUserUuid, type Actor, type Page, type Paged } from './actors.js';

export interface Block {
  id: string;
  blockerUuid: string;
  blockedUuid: string;
  createdAt: Date;
}

export interface BlockStore {
  /** Blocks (idempotent) and, in the same transaction, ends the pair's pending invitations and friendship. */
  block(blockerUuid: string, blockedUuid: string, now: Date): Promise<{ block: Block; created: boolean }>;
  list(blockerUuid: string, page: Page): Promise<Paged<Block>>;
  /** One of the blocker's blocks, by its id or the blocked user's uuid. */
  find(blockerUuid: string, idOrUser: string): Promise<Block | undefined>;
  remove(blockerUuid: string, idOrUser: string): Promise<boolean>;
  between(userUuid: string, otherUuid: string): Promise<{ userBlockedOther: boolean; otherBlockedUser: boolean }>;
  of(userUuid: string): Promise<{ blocked: string[]; blockedBy: string[] }>;
}

const BLOCK_NOT_FOUND = 'Blocked user not found';

/**
 * Blocks: a user blocks another; from then on friend invitations between
 * them are refused (Friends), their pending invitations and their friendship
 * end with the block, and the chat and room services ask AreBlocked and
 * ListBlocks to hide one from the other.
 */
export class Blocks {
  constructor(
    private readonly store: BlockStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async block(actor: Actor, userUuid: string): Promise<{ block: Block; created: boolean }> {
    requireMember(actor);
    const blocked = requireUserUuid(userUuid);
    if (blocked === actor.userUuid) throw badRequest('You cannot block yourself');
    return this.store.block(actor.userUuid, blocked, this.now());
  }

  list(actor: Actor, page: Page): Promise<Paged<Block>> {
    return this.store.list(actor.userUuid, page);
  }

  async get(actor: Actor, idOrUser: string): Promise<Block> {
    const block = isUuid(idOrUser) ? await this.store.find(actor.userUuid, idOrUser.toLowerCase()) : undefined;
    if (!block) throw notFound(BLOCK_NOT_FOUND);
    return block;
  }

  async unblock(actor: Actor, idOrUser: string): Promise<void> {
    if (!isUuid(idOrUser) || !(await this.store.remove(actor.userUuid, idOrUser.toLowerCase()))) throw notFound(BLOCK_NOT_FOUND);
  }

  /** Whether either of two users blocked the other: services, and either of the two. */
  async between(actor: Actor, userUuid: string, otherUuid: string) {
    if (actor.userUuid !== otherUuid) requireSelfOrPrivileged(actor, userUuid);
    if (!isUuid(userUuid) || !isUuid(otherUuid)) return { blocked: false, userBlockedOther: false, otherBlockedUser: false };
    const pair = await this.store.between(userUuid.toLowerCase(), otherUuid.toLowerCase());
    return { blocked: pair.userBlockedOther || pair.otherBlockedUser, ...pair };
  }

  /** Whom a user blocked and who blocked them: services, admins and the user themself. */
  async of(actor: Actor, userUuid: string): Promise<{ blocked: string[]; blockedBy: string[] }> {
    requireSelfOrPrivileged(actor, userUuid);
    if (!isUuid(userUuid)) return { blocked: [], blockedBy: [] };
    return this.store.of(userUuid.toLowerCase());
  }
}
