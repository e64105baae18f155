import { forbidden, isAdminRole, isGlobalRole, type Caller } from '@spinroom/platform';

/** Who may read the audit: the global token roles (superUser, admin, globalModerator, staff) and other services. */
export function requireStaff(caller: Caller): void {
  if (caller.kind === 'service') return;
  if (!isGlobalRole(caller.role)) throw forbidden();
}

/** Who may write moderation actions and try error reporting: superUser and admin. */
export function requireAdmin(caller: Caller): void {
  if (!isAdminRole(caller.role)) throw forbidden();
}

/** A user's own actions, or staff. */
export function isStaffOrSelf(caller: Caller, userUuid: string): boolean {
  return caller.kind === 'service' || isGlobalRole(caller.role) || (caller.kind !== 'guest' && caller.userUuid === userUuid);
}
