import { badRequest, conflict, forbidden, notFound } from '@spinroom/platform/core';
import { isUuid, requireMember, requireUserUuid, type Actor, type Page, type Paged } from './actors.js';
import type { BlockStore } from './blocks.js';

export type InvitationStatus = 'PENDING' | 'ACCEPTED' | 'REJECTED';

export interface FriendInvitation {
  id: string;
  fromUuid: string;
  toUuid: string;
  status: InvitationStatus;
  createdAt: Date;
  answeredAt: Date | null;
}

/** A friendship as one of the two sees it: `userUuid` is that one, `friendUuid` the other. */
export interface Friend {
  id: string;
  userUuid: string;
  friendUuid: string;
  createdAt: Date;
}

export type InviteOutcome = FriendInvitation | 'friends' | 'pending';

export interface FriendStore {
  /** Inserts a pending invitation with its social.friend-invitation-sent event, unless the two are friends or one is pending between them. */
  invite(fromUuid: string, toUuid: string, now: Date): Promise<InviteOutcome>;
  findInvitation(id: string): Promise<FriendInvitation | undefined>;
  received(userUuid: string, page: Page): Promise<Paged<FriendInvitation>>;
  sent(userUuid: string, page: Page): Promise<Paged<FriendInvitation>>;
  deleteInvitation(id: string): Promise<boolean>;
  /**
   * Answers a pending invitation (with its social.friend-invitation-answered
   * event; accepted, the friendship too), in one transaction; undefined when
   * it is no longer pending.
   */
  answer(id: string, accept: boolean, now: Date): Promise<{ invitation: FriendInvitation; friend?: Friend } | undefined>;
  /** The viewer's friendship, by the friend's uuid or the friendship's id. */
  findFriend(viewerUuid: string, idOrUser: string): Promise<Friend | undefined>;
  deleteFriend(viewerUuid: string, idOrUser: string): Promise<boolean>;
  friendsOf(userUuid: string, page: Page): Promise<Paged<Friend>>;
}

const INVITATION_NOT_FOUND = 'Friend invitation not found';
const FRIEND_NOT_FOUND = 'Friend not found';
/** The refusal between blocked users: it does not say who blocked whom. */
export const BLOCKED_INVITATION = 'You cannot invite this user';

/**
 * Friends: a user invites another; the recipient accepts (they become
 * friends, both ways) or rejects. Between blocked users nothing is sent or
 * accepted.
 */
export class Friends {
  constructor(
    private readonly store: FriendStore,
    private readonly blocks: Pick<BlockStore, 'between'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async invite(actor: Actor, userUuid: string): Promise<FriendInvitation> {
    requireMember(actor);
    const to = requireUserUuid(userUuid);
    if (to === actor.userUuid) throw badRequest('You cannot invite yourself');
    const pair = await this.blocks.between(actor.userUuid, to);
    if (pair.userBlockedOther || pair.otherBlockedUser) throw forbidden(BLOCKED_INVITATION);
    const outcome = await this.store.invite(actor.userUuid, to, this.now());
    if (outcome === 'friends') throw conflict('You are already friends');
    if (outcome === 'pending') throw conflict('A friend invitation between you is already pending');
    return outcome;
  }

  /** One invitation the caller sent or received. */
  async get(actor: Actor, id: string): Promise<FriendInvitation> {
    const invitation = isUuid(id) ? await this.store.findInvitation(id.toLowerCase()) : undefined;
    if (!invitation || (invitation.fromUuid !== actor.userUuid && invitation.toUuid !== actor.userUuid)) {
      throw notFound(INVITATION_NOT_FOUND);
    }
    return invitation;
  }

  received(actor: Actor, page: Page) {
    return this.store.received(actor.userUuid, page);
  }

  sent(actor: Actor, page: Page) {
    return this.store.sent(actor.userUuid, page);
  }

  /** The sender withdraws it, or the recipient dismisses it. */
  async deleteInvitation(actor: Actor, id: string): Promise<void> {
    const invitation = await this.get(actor, id);
    if (!(await this.store.deleteInvitation(invitation.id))) throw notFound(INVITATION_NOT_FOUND);
  }

  /** The recipient answers a pending invitation: ACCEPTED or REJECTED. */
  async answer(actor: Actor, id: string, status: string): Promise<{ invitation: FriendInvitation; friend?: Friend }> {
    if (status !== 'ACCEPTED' && status !== 'REJECTED') throw badRequest('status must be ACCEPTED or REJECTED');
    const invitation = await this.get(actor, id);
    if (invitation.toUuid !== actor.userUuid) throw forbidden('Only the invited user can answer a friend invitation');
    if (invitation.status !== 'PENDING') throw conflict('This friend invitation was already answered');
    if (status === 'ACCEPTED') {
      const pair = await this.blocks.between(invitation.toUuid, invitation.fromUuid);
      if (pair.userBlockedOther || pair.otherBlockedUser) throw forbidden(BLOCKED_INVITATION);
    }
    const answered = await this.store.answer(invitation.id, status === 'ACCEPTED', this.now());
    if (!answered) throw conflict('This friend invitation was already answered');
    return answered;
  }

  async friend(actor: Actor, idOrUser: string): Promise<Friend> {
    const friend = isUuid(idOrUser) ? await this.store.findFriend(actor.userUuid, idOrUser.toLowerCase()) : undefined;
    if (!friend) throw notFound(FRIEND_NOT_FOUND);
    return friend;
  }

  async unfriend(actor: Actor, idOrUser: string): Promise<void> {
    if (!isUuid(idOrUser) || !(await this.store.deleteFriend(actor.userUuid, idOrUser.toLowerCase()))) throw notFound(FRIEND_NOT_FOUND);
  }

  friends(userUuid: string, page: Page): Promise<Paged<Friend>> {
    if (!isUuid(userUuid)) return Promise.resolve({ items: [], total: 0 });
    return this.store.friendsOf(userUuid.toLowerCase(), page);
  }
}
