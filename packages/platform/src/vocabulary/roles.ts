import { ROOM_ROLES, USER_ROLES, type RoomRoleName, type UserRoleName } from '@spinroom/contracts/vocabulary';

/**
 * The words every service uses for who may do what. Each set is named for
 * what it allows; where two sets differ, the difference is the rule.
 */

/**
 * Roles of spec 000, plus guest: the `role` claim of an access token. `service` marks another Spinroom service calling on
 * no user's request (see ServiceTokenSource). Listed once, as the proto enum UserRole (room_vocabulary.proto).
 */
export const ROLES = USER_ROLES;
export type Role = UserRoleName;

/** The staff roles a user account holds, highest first: the token carries the first one the user has (else `user`). */
export const STAFF_ROLES_BY_RANK: readonly Role[] = ['superUser', 'admin', 'globalModerator', 'moderator', 'staff', 'promoter'];

/** Token roles above every room's owner: they may act in any room, read any room and use the admin paths. */
export const GLOBAL_ROLES: readonly Role[] = ['superUser', 'admin', 'globalModerator', 'staff'];

/** Token roles that may run catalogue-wide jobs (rewriting every song's links). */
export const ADMIN_ROLES: readonly Role[] = ['superUser', 'admin'];

/** Token roles that may edit, withdraw and delete anyone's uploads. */
export const CONTENT_MODERATOR_ROLES: readonly Role[] = ['superUser', 'admin', 'globalModerator', 'moderator'];

const within =
  (set: readonly string[]) =>
  (role: string | undefined): boolean =>
    role !== undefined && set.includes(role);

export const isGlobalRole = within(GLOBAL_ROLES);
export const isAdminRole = within(ADMIN_ROLES);
export const isContentModeratorRole = within(CONTENT_MODERATOR_ROLES);

/** Roles a user may hold in a room: listed once, as the proto enum RoomUserRole (room_vocabulary.proto). */
export { ROOM_ROLES, type RoomRoleName };

/** The room roles that restrict (the others rank or invite). */
export const RESTRICTIVE_ROLES: readonly RoomRoleName[] = ['banned', 'kicked', 'chatDisabled', 'djDisabled'];

/** The room's staff (spec 002): they moderate the room, under the global roles. */
export const ROOM_STAFF_ROLES: readonly RoomRoleName[] = ['owner', 'coOwner', 'moderator'];

/** The room roles that rank or invite, highest first. */
export const RANKED_ROLES: readonly RoomRoleName[] = ['owner', 'coOwner', 'moderator', 'dj'];

export function isRoomRole(value: string): value is RoomRoleName {
  return (ROOM_ROLES as readonly string[]).includes(value);
}
