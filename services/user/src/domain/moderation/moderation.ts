import { randomUUID } from 'node:crypto';
import {
  ERROR_CODES,
  badRequest,
  forbidden,
  isContentModeratorRole,
  isUuid,
  notFound,
  STAFF_ROLES_BY_RANK,
  type OutboxEntry,
  type Role,
} from '@spinroom/platform';
import type { ModerationActionTypeName, ModerationRoleName } from '@spinroom/contracts/moderation';
import { PROFILE_NOT_FOUND } from '../accounts.js';
import { tokenRole, type UserKind } from '../user.js';
import { isBanned, isCapability, isGrantableRole, outranks, type Standing } from './standing.js';

/** An account as moderation sees it. */
export interface ModeratedAccount extends Standing {
  uuid: string;
  kind: UserKind;
  email: string | null;
  nickname: string;
  roles: Role[];
  capabilities: string[];
  bannedAt: Date | null;
  bannedUntil: Date | null;
  deactivationRequestedAt: Date | null;
  deactivatedAt: Date | null;
}

export type AccountPatch = Partial<
  Pick<ModeratedAccount, 'roles' | 'capabilities' | 'bannedAt' | 'bannedUntil' | 'deactivationRequestedAt' | 'deactivatedAt'>
>;

/** What an act changes on an account, and the event announcing it. */
export interface AccountChange {
  patch: AccountPatch;
  event?: OutboxEntry;
}

export interface ModerationComment {
  id: string;
  userUuid: string;
  authorUuid: string;
  comment: string;
  createdAt: Date;
}

export interface DeactivateRequest {
  userUuid: string;
  nickname: string;
  email: string;
  requestedAt: Date;
}

/** Spec 002's moderation action types, and the user service's own acts beyond them. */
export type ModerationActionType = Extract<
  ModerationActionTypeName,
  | 'globalKick'
  | 'globalBan'
  | 'temporaryBan'
  | 'globalUnBan'
  | 'grantRole'
  | 'grantCapability'
  | 'removeCapability'
  | 'cancelDeactivation'
  | 'deactivate'
  | 'reactivate'
>;

export interface ModerationEvent {
  actionType: ModerationActionType;
  actorUuid: string;
  actorTokenRole: Role;
  targetUuid: string;
  previousRole: ModerationRoleName | null;
  role: ModerationRoleName | null;
  expirationTime: Date | null;
}

/** Where moderation keeps its records. The database implementation lives in db/. */
export interface ModerationStore {
  findAccount(uuid: string): Promise<ModeratedAccount | null>;
  /**
   * Locks the account, lets `decide` derive the change from it (it may throw
   * to change nothing), writes the change and its event in one transaction.
   * null when there is no such account.
   */
  changeAccount(uuid: string, decide: (account: ModeratedAccount) => AccountChange): Promise<ModeratedAccount | null>;
  listDeactivateRequests(): Promise<DeactivateRequest[]>;
  addComment(comment: ModerationComment): Promise<void>;
  listComments(userUuid: string | null): Promise<ModerationComment[]>;
  findComment(id: string): Promise<ModerationComment | null>;
}

export interface Actor {
  userUuid: string;
  role: Role;
}

export const NOT_BANNED = 'This user is not banned';
export const ROLE_HELD = 'This user has already this role';
export const CAPABILITY_NOT_HELD = 'This user does not have this capability';
export const OUTRANKED = 'You cannot moderate a user ranked at or above your role';
export const NO_DEACTIVATION_REQUEST = 'This user has not requested deactivation';
export const NOT_DEACTIVATED = 'This user is not deactivated';
export const COMMENT_NOT_FOUND = 'Moderation comment not found';

/** The longest moderation comment kept. */
export const MAX_COMMENT_LENGTH = 2000;

/**
 * Kicks, bans, roles, capabilities, comments and deactivation. Moderators are
 * CONTENT_MODERATOR_ROLES; each act on an account is announced with the change
 * (`announce` builds the outbox entry), and acts that take an account off the
 * platform end its sessions once the change is committed.
 */
export class Moderation {
  constructor(
    private readonly store: ModerationStore,
    private readonly announce: (event: ModerationEvent) => OutboxEntry,
    private readonly endSessions: (userUuid: string) => Promise<void>,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Ends the account's sessions; it may sign in again. */
  async kick(actor: Actor, targetUuid: string): Promise<ModeratedAccount> {
    const account = await this.act(actor, targetUuid, (target) => ({
      patch: {},
      event: this.event(actor, target, 'globalKick', { role: { room: 'kicked' } }),
    }));
    await this.endSessions(account.uuid);
    return account;
  }

  /** A ban with no end: sessions end now, logins are refused until an unban. */
  async ban(actor: Actor, targetUuid: string): Promise<ModeratedAccount> {
    const account = await this.act(actor, targetUuid, (target) => ({
      patch: { bannedAt: this.clock(), bannedUntil: null },
      event: this.event(actor, target, 'globalBan', { role: { room: 'banned' } }),
    }));
    await this.endSessions(account.uuid);
    return account;
  }

  /** A ban that ends by itself at `endsAt` (logins compare it with the clock). */
  async temporaryBan(actor: Actor, targetUuid: string, endsAt: Date): Promise<ModeratedAccount> {
    if (Number.isNaN(endsAt.getTime()) || endsAt <= this.clock()) throw badRequest('The ban must end in the future');
    const account = await this.act(actor, targetUuid, (target) => ({
      patch: { bannedAt: this.clock(), bannedUntil: endsAt },
      event: this.event(actor, target, 'temporaryBan', { role: { room: 'banned' }, expirationTime: endsAt }),
    }));
    await this.endSessions(account.uuid);
    return account;
  }

  async unban(actor: Actor, targetUuid: string): Promise<ModeratedAccount> {
    return this.act(actor, targetUuid, (target) => {
      if (!isBanned(target, this.clock())) throw badRequest(NOT_BANNED);
      return {
        patch: { bannedAt: null, bannedUntil: null },
        event: this.event(actor, target, 'globalUnBan', { previousRole: { room: 'banned' } }),
      };
    });
  }

  /** A staff role ranked below the actor's own; the account's next token carries it. */
  async addRole(actor: Actor, targetUuid: string, role: string): Promise<ModeratedAccount> {
    this.requireModerator(actor);
    if (!isGrantableRole(role)) throw badRequest(`role must be one of: ${STAFF_ROLES_BY_RANK.join(', ')}`);
    if (!outranks(actor.role, role)) throw forbidden('You can only grant roles ranked below your own');
    return this.act(actor, targetUuid, (target) => {
      if (target.kind !== 'user') throw badRequest('Only user accounts hold roles');
      if (target.roles.includes(role)) throw forbidden(ROLE_HELD);
      return {
        patch: { roles: [...target.roles, role] },
        event: this.event(actor, target, 'grantRole', { previousRole: { user: tokenRole(target) }, role: { user: role } }),
      };
    });
  }

  async grantCapability(actor: Actor, targetUuid: string, capability: string): Promise<ModeratedAccount> {
    this.requireModerator(actor);
    if (!isCapability(capability)) throw badRequest('capability must be one of: uploadMusic, promoteRoom');
    return this.act(actor, targetUuid, (target) => {
      if (target.capabilities.includes(capability)) throw forbidden(ROLE_HELD);
      return {
        patch: { capabilities: [...target.capabilities, capability] },
        event: this.event(actor, target, 'grantCapability', { role: { capability } }),
      };
    });
  }

  async removeCapability(actor: Actor, targetUuid: string, capability: string): Promise<ModeratedAccount> {
    this.requireModerator(actor);
    if (!isCapability(capability)) throw badRequest('capability must be one of: uploadMusic, promoteRoom');
    return this.act(actor, targetUuid, (target) => {
      if (!target.capabilities.includes(capability)) throw notFound(CAPABILITY_NOT_HELD);
      return {
        patch: { capabilities: target.capabilities.filter((c) => c !== capability) },
        event: this.event(actor, target, 'removeCapability', { previousRole: { capability } }),
      };
    });
  }

  /** The caller asks for their own account's deactivation (asking again keeps the first request). */
  async requestDeactivate(caller: { userUuid: string; kind: string }): Promise<ModeratedAccount> {
    if (caller.kind !== 'user') throw forbidden('Only signed-in users can request deactivation');
    const account = await this.store.changeAccount(caller.userUuid, (account) => ({
      patch: { deactivationRequestedAt: account.deactivationRequestedAt ?? this.clock() },
    }));
    if (!account) throw notFound(PROFILE_NOT_FOUND, ERROR_CODES.userProfileNotFound);
    return account;
  }

  async listDeactivateRequests(actor: Actor): Promise<DeactivateRequest[]> {
    this.requireModerator(actor);
    return this.store.listDeactivateRequests();
  }

  async cancelRequestedDeactivate(actor: Actor, targetUuid: string): Promise<ModeratedAccount> {
    return this.act(actor, targetUuid, (target) => {
      if (!target.deactivationRequestedAt || target.deactivatedAt) throw badRequest(NO_DEACTIVATION_REQUEST);
      return { patch: { deactivationRequestedAt: null }, event: this.event(actor, target, 'cancelDeactivation', {}) };
    });
  }

  /** Takes the account off the platform: sessions end now, logins are refused until a reactivation. */
  async deactivate(actor: Actor, targetUuid: string): Promise<ModeratedAccount> {
    const account = await this.act(actor, targetUuid, (target) => ({
      patch: { deactivatedAt: target.deactivatedAt ?? this.clock() },
      event: this.event(actor, target, 'deactivate', {}),
    }));
    await this.endSessions(account.uuid);
    return account;
  }

  async reactivate(actor: Actor, targetUuid: string): Promise<ModeratedAccount> {
    return this.act(actor, targetUuid, (target) => {
      if (!target.deactivatedAt) throw badRequest(NOT_DEACTIVATED);
      return { patch: { deactivatedAt: null, deactivationRequestedAt: null }, event: this.event(actor, target, 'reactivate', {}) };
    });
  }

  async addComment(actor: Actor, userUuid: string, text: string): Promise<ModerationComment> {
    this.requireModerator(actor);
    const comment = text.trim();
    if (!comment) throw badRequest('comment should not be empty');
    if (comment.length > MAX_COMMENT_LENGTH) throw badRequest(`comment must be at most ${MAX_COMMENT_LENGTH} characters`);
    if (!isUuid(userUuid) || !(await this.store.findAccount(userUuid))) throw notFound(PROFILE_NOT_FOUND, ERROR_CODES.userProfileNotFound);
    const record = { id: randomUUID(), userUuid, authorUuid: actor.userUuid, comment, createdAt: this.clock() };
    await this.store.addComment(record);
    return record;
  }

  async listComments(actor: Actor, userUuid: string | null): Promise<ModerationComment[]> {
    this.requireModerator(actor);
    if (userUuid !== null && !isUuid(userUuid)) throw badRequest('userUuid must be a UUID');
    return this.store.listComments(userUuid);
  }

  async comment(actor: Actor, id: string): Promise<ModerationComment> {
    this.requireModerator(actor);
    const comment = isUuid(id) ? await this.store.findComment(id) : null;
    if (!comment) throw notFound(COMMENT_NOT_FOUND);
    return comment;
  }

  private requireModerator(actor: Actor): void {
    if (!isContentModeratorRole(actor.role)) throw forbidden();
  }

  /** A moderator's act on an account ranked below them, applied with its event. */
  private async act(actor: Actor, targetUuid: string, decide: (target: ModeratedAccount) => AccountChange): Promise<ModeratedAccount> {
    this.requireModerator(actor);
    if (!isUuid(targetUuid)) throw notFound(PROFILE_NOT_FOUND, ERROR_CODES.userProfileNotFound);
    const account = await this.store.changeAccount(targetUuid, (target) => {
      if (!outranks(actor.role, tokenRole(target))) throw forbidden(OUTRANKED);
      return decide(target);
    });
    if (!account) throw notFound(PROFILE_NOT_FOUND, ERROR_CODES.userProfileNotFound);
    return account;
  }

  private event(
    actor: Actor,
    target: ModeratedAccount,
    actionType: ModerationActionType,
    details: { previousRole?: ModerationRoleName; role?: ModerationRoleName; expirationTime?: Date },
  ): OutboxEntry {
    return this.announce({
      actionType,
      actorUuid: actor.userUuid,
      actorTokenRole: actor.role,
      targetUuid: target.uuid,
      previousRole: details.previousRole ?? null,
      role: details.role ?? null,
      expirationTime: details.expirationTime ?? null,
    });
  }
}
