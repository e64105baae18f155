import { badRequest, forbidden } from '@spinroom/platform';
import type { ProfileFields, ProfileSong, User } from './user.js';

export const DEFAULT_COLOR = '#8A2BE2'; // the spec's default purple
export const DEFAULT_AVATAR_ID = 'default';
export const GUEST_PROFILE = { avatarId: 'ghost', color: '#FFFFFF' } as const;
export const NICKNAME_MAX_LENGTH = 32;

export type ProfilePatch = Partial<Omit<ProfileFields, 'song'>> & { song?: ProfileSong | null };

const TEXT_FIELDS = [
  'discord',
  'discordNickname',
  'firstName',
  'lastName',
  'pronoun',
  'songOfTheWeek',
  'coverPicture',
  'facebook',
  'instagram',
  'twitter',
  'snapchat',
  'tiktok',
  'priceForGig',
  'zodiac',
] as const satisfies readonly (keyof ProfileFields)[];

/** The nickname a new account gets when none is given: the email's local part, tidied. */
export function defaultNickname(email: string): string {
  const local = email
    .split('@')[0]!
    .replace(/[^A-Za-z0-9_.-]/g, '')
    .slice(0, NICKNAME_MAX_LENGTH);
  return local.length > 0 ? local : 'user';
}

export function guestNickname(guestNumber: number): string {
  return `ghost-${guestNumber}`;
}

export function checkNickname(nickname: string): string {
  const trimmed = nickname.trim();
  if (trimmed.length < 1 || trimmed.length > NICKNAME_MAX_LENGTH) {
    throw badRequest(`Nickname must be between 1 and ${NICKNAME_MAX_LENGTH} characters`);
  }
  return trimmed;
}

/** `#a1b2c3` or `a1b2c3` (bots send it without `#`), stored as `#A1B2C3`. */
export function normalizeColor(color: string): string {
  const match = color.trim().match(/^#?([0-9a-fA-F]{6})$/);
  if (!match) throw badRequest('Color must be a hex colour like #A1B2C3');
  return `#${match[1]!.toUpperCase()}`;
}

export function checkAvatarId(avatarId: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(avatarId)) throw badRequest('avatarId must be an avatar slug');
  return avatarId;
}

/**
 * Applies a partial profile update to a user, by the profile rules. Guests keep
 * their ghost profile. Empty text clears a field.
 */
export function applyProfilePatch(user: User, patch: ProfilePatch): User {
  if (user.kind === 'guest') throw forbidden('Guests cannot edit a profile');
  const next: User = { ...user };
  if (patch.nickname !== undefined) next.nickname = checkNickname(patch.nickname);
  if (patch.color !== undefined) next.color = normalizeColor(patch.color);
  if (patch.avatarId !== undefined) next.avatarId = checkAvatarId(patch.avatarId);
  if (patch.displayPronouns !== undefined) next.displayPronouns = patch.displayPronouns;
  if (patch.song !== undefined) next.song = patch.song;
  for (const field of TEXT_FIELDS) {
    const value = patch[field];
    if (value === undefined) continue;
    if (value !== null && value.length > 255) throw badRequest(`${field} must be at most 255 characters`);
    next[field] = value === null || value.trim() === '' ? null : value.trim();
  }
  return next;
}
