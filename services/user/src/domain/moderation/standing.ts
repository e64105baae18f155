import { USER_CAPABILITIES, type UserCapabilityName } from '@spinroom/contracts/vocabulary';
import { STAFF_ROLES_BY_RANK, type Role } from '@spinroom/platform';

/** What moderation keeps on an account, beside its roles and capabilities. */
export interface Standing {
  /** Set by a ban; a permanent ban has no end. */
  bannedAt?: Date | string | null;
  /** The end of a temporary ban. */
  bannedUntil?: Date | string | null;
  deactivationRequestedAt?: Date | string | null;
  deactivatedAt?: Date | string | null;
}

/** Capabilities granted per user (spec 000), listed once in the vocabulary (UserCapability). */
export const CAPABILITIES = USER_CAPABILITIES;
export type Capability = UserCapabilityName;

export function isCapability(value: string): value is Capability {
  return (CAPABILITIES as readonly string[]).includes(value);
}

export const BANNED = 'This account is banned';
export const DEACTIVATED = 'This account is deactivated';

const at = (value: Date | string | null | undefined): Date | null => (value ? new Date(value) : null);

/** Banned now: a ban with no end, or one whose end is still ahead (a temporary ban ends by itself, checked on read). */
export function isBanned(standing: Standing, now: Date): boolean {
  if (!standing.bannedAt) return false;
  const until = at(standing.bannedUntil);
  return until === null || until > now;
}

/** Why this account may not get a token now, or null when it may. */
export function accessRefusal(standing: Standing, now: Date): string | null {
  if (at(standing.deactivatedAt)) return DEACTIVATED;
  if (!isBanned(standing, now)) return null;
  const until = at(standing.bannedUntil);
  return until ? `${BANNED} until ${until.toISOString()}` : BANNED;
}

/** A staff role's rank (0 is highest); every other role ranks below all staff. */
function rank(role: Role): number {
  const index = STAFF_ROLES_BY_RANK.indexOf(role);
  return index === -1 ? STAFF_ROLES_BY_RANK.length : index;
}

/** A moderator acts only on accounts, and grants only roles, ranked strictly below their own role. */
export function outranks(actorRole: Role, other: Role): boolean {
  return rank(actorRole) < rank(other);
}

/** The roles add-role grants: staff roles (never user, bot, guest or service, which are kinds, not grants). */
export function isGrantableRole(role: string): role is Role {
  return (STAFF_ROLES_BY_RANK as readonly string[]).includes(role);
}
