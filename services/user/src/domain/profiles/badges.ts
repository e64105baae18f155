import { badRequest } from '@spinroom/platform';

/** The badges a profile may show (spec 000): admins set them, services add and remove them. */
export const BADGES = ['VERIFIED', 'PLATINUM', 'DOUBLE_PLATINUM', 'JQBX', 'STAFF'] as const;
export type Badge = (typeof BADGES)[number];

/** The badges asked for, each known and once, in the list's order. */
export function checkBadges(badges: readonly string[]): Badge[] {
  const unknown = badges.filter((badge) => !(BADGES as readonly string[]).includes(badge));
  if (unknown.length > 0) throw badRequest(`badges must each be one of ${BADGES.join(', ')}`);
  return BADGES.filter((badge) => badges.includes(badge));
}

export function addBadges(current: readonly string[], added: readonly string[]): Badge[] {
  const wanted = new Set([...current, ...checkBadges(added)]);
  return BADGES.filter((badge) => wanted.has(badge));
}

export function removeBadges(current: readonly string[], removed: readonly string[]): Badge[] {
  const gone = new Set(checkBadges(removed));
  return BADGES.filter((badge) => current.includes(badge) && !gone.has(badge));
}
