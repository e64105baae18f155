import { forbidden, isGlobalRole, RANKED_ROLES, RESTRICTIVE_ROLES, type RoomRoleName } from '@spinroom/platform';
import type { DjTypeName as DjType } from '@spinroom/contracts/vocabulary';

/**
 * Room user roles and who may do what in a room. Plain functions over a
 * user's *active* roles (expired ones filtered out first with activeRoles), so
 * the live engine and the chat service apply exactly the same rules.
 *
 * The ladder: global token roles (superUser, admin, globalModerator, staff)
 * > owner > coOwner > moderator > everyone. dj is an invitation, not a rank;
 * banned, kicked, chatDisabled and djDisabled are restrictions.
 */
// The role words are the platform's, one list for every service; the rules over them are the room's.
export { GLOBAL_ROLES, RANKED_ROLES, RESTRICTIVE_ROLES, ROOM_ROLES, isGlobalRole, isRoomRole, type RoomRoleName } from '@spinroom/platform';

/** A role entry as stored (the original's UserRoles). */
export interface RoomRole {
  id: number;
  roomId: number;
  userUuid: string;
  role: RoomRoleName;
  /** null: never expires. */
  expirationTime: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** How much say a caller has in a room. */
export type Authority = 'everyone' | 'moderator' | 'coOwner' | 'owner' | 'global';
const RANK: Record<Authority, number> = { everyone: 0, moderator: 1, coOwner: 2, owner: 3, global: 4 };

/** Admin paths: a 403 unless the token's role is a global one. */
export function requireGlobalRole(tokenRole: string | undefined): void {
  if (!isGlobalRole(tokenRole)) throw forbidden('Only administrators can do this');
}

/** A role counts until its expiration time; an expired role is ignored everywhere. */
export function isActive(role: Pick<RoomRole, 'expirationTime'>, now: Date = new Date()): boolean {
  return role.expirationTime === null || role.expirationTime.getTime() > now.getTime();
}

export function activeRoles<R extends Pick<RoomRole, 'expirationTime'>>(roles: readonly R[], now: Date = new Date()): R[] {
  return roles.filter((r) => isActive(r, now));
}

/** owner, coOwner, moderator or dj (the feed's `highestRole`), or null. Pass active roles. */
export function highestRole(roles: ReadonlyArray<Pick<RoomRole, 'role'>>): 'owner' | 'coOwner' | 'moderator' | 'dj' | null {
  const held = new Set(roles.map((r) => r.role));
  return (RANKED_ROLES.find((r) => held.has(r)) as 'owner' | 'coOwner' | 'moderator' | 'dj' | undefined) ?? null;
}

/** The caller's authority in a room from their active roles and token role. */
export function authorityOf(roles: ReadonlyArray<Pick<RoomRole, 'role'>>, tokenRole?: string): Authority {
  if (isGlobalRole(tokenRole)) return 'global';
  const top = highestRole(roles);
  return top === null || top === 'dj' ? 'everyone' : top;
}

export function outranks(actor: Authority, target: Authority): boolean {
  return RANK[actor] > RANK[target];
}

export function atLeast(actor: Authority, needed: Authority): boolean {
  return RANK[actor] >= RANK[needed];
}

/** The least authority that may grant or remove a role; owner changes go through changeOwner. */
export function authorityToGrant(role: RoomRoleName): Authority {
  if (role === 'owner' || role === 'coOwner') return 'owner';
  if (role === 'moderator') return 'coOwner';
  return 'moderator';
}

export function hasRole(roles: ReadonlyArray<Pick<RoomRole, 'role'>>, role: RoomRoleName): boolean {
  return roles.some((r) => r.role === role);
}

/** Pass active roles. */
export function isBanned(roles: ReadonlyArray<Pick<RoomRole, 'role'>>): boolean {
  return hasRole(roles, 'banned');
}

/**
 * Whether a user may take a DJ seat. Never when banned or djDisabled; always
 * for global roles and the owner; otherwise by the room's djType:
 * EVERYONE: anyone but guests; INVITE_ONLY: dj, moderator or coOwner holders;
 * PRO_PLAN_OWNER: the owner only (there are no subscriptions yet, so the
 * owner's plan is not checked); VERIFIED_ONLY: users whose profile badges
 * include VERIFIED, or those invited (dj, moderator, coOwner).
 */
export function canDj(
  room: { djType: DjType },
  activeRolesOfUser: ReadonlyArray<Pick<RoomRole, 'role'>>,
  tokenRole: string | undefined,
  badges: readonly string[] = [],
): boolean {
  if (hasRole(activeRolesOfUser, 'banned') || hasRole(activeRolesOfUser, 'djDisabled')) return false;
  if (isGlobalRole(tokenRole) || hasRole(activeRolesOfUser, 'owner')) return true;
  if (tokenRole === 'guest') return false;
  const invited = ['dj', 'moderator', 'coOwner'].some((r) => hasRole(activeRolesOfUser, r as RoomRoleName));
  switch (room.djType) {
    case 'EVERYONE':
      return true;
    case 'INVITE_ONLY':
      return invited;
    case 'PRO_PLAN_OWNER':
      return false;
    case 'VERIFIED_ONLY':
      return invited || badges.includes('VERIFIED');
  }
}

export const ROLE_MESSAGES = {
  notAllowed: (role: RoomRoleName) => `You are not allowed to change the ${role} role in this room`,
  outranked: 'You cannot moderate a user at or above your own role',
  self: 'You cannot restrict yourself',
  ownerRole: 'Use change-owner to give the room a new owner',
  changeOwner: 'Only the owner can hand the room to someone else',
} as const;

/**
 * Throws 403 unless `actor` (with `actorUuid`) may grant `role` to the target.
 * Restrictions need an actor above the target; a moderator grants dj and
 * restrictions, a coOwner also moderator, the owner also coOwner.
 */
export function checkGrant(actor: Authority, actorUuid: string, role: RoomRoleName, target: Authority, targetUuid: string): void {
  if (role === 'owner') throw forbidden(ROLE_MESSAGES.ownerRole);
  if (!atLeast(actor, authorityToGrant(role))) throw forbidden(ROLE_MESSAGES.notAllowed(role));
  if (RESTRICTIVE_ROLES.includes(role)) {
    if (actorUuid === targetUuid) throw forbidden(ROLE_MESSAGES.self);
    if (!outranks(actor, target)) throw forbidden(ROLE_MESSAGES.outranked);
  }
}

/** Throws 403 unless `actor` may remove `role` from the target; anyone may give up their own dj/moderator/coOwner role. */
export function checkRemoval(actor: Authority, actorUuid: string, role: RoomRoleName, target: Authority, targetUuid: string): void {
  if (role === 'owner') throw forbidden(ROLE_MESSAGES.ownerRole);
  const ownPositiveRole = actorUuid === targetUuid && !RESTRICTIVE_ROLES.includes(role);
  if (ownPositiveRole) return;
  if (!atLeast(actor, authorityToGrant(role))) throw forbidden(ROLE_MESSAGES.notAllowed(role));
  if (!outranks(actor, target) && !(role === 'dj' || RESTRICTIVE_ROLES.includes(role))) throw forbidden(ROLE_MESSAGES.outranked);
  if (RESTRICTIVE_ROLES.includes(role) && actorUuid === targetUuid) throw forbidden(ROLE_MESSAGES.self);
}

export function checkChangeOwner(actor: Authority): void {
  if (!atLeast(actor, 'owner')) throw forbidden(ROLE_MESSAGES.changeOwner);
}

/** The moderation action type of spec 002 for a grant. */
export function grantActionType(role: RoomRoleName, expirationTime: Date | null): 'banUser' | 'temporaryBan' | 'kickUser' | 'grantRole' {
  if (role === 'banned') return expirationTime ? 'temporaryBan' : 'banUser';
  if (role === 'kicked') return 'kickUser';
  return 'grantRole';
}
