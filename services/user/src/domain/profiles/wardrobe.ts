import { badRequest, forbidden } from '@spinroom/platform';
import { checkAvatarId, DEFAULT_AVATAR_ID, type ProfilePatch } from '../profiles.js';
import type { User } from '../user.js';

/** What the avatar catalogue (the points service) says of an avatar for one user. */
export type AvatarFit = 'unknown' | 'wearable' | 'not-wearable';

/** The avatars a user may wear: public ones, those assigned to them, subscriber ones while subscribed. */
export interface Wardrobe {
  fit(avatarId: string, userUuid: string): Promise<AvatarFit>;
}

export const AVATAR_NOT_WEARABLE = 'You may not wear this avatar';
export const unknownAvatar = (avatarId: string) => `There is no avatar ${avatarId}`;

/** Without a catalogue nothing is known but the avatar every account starts with. */
export const NO_CATALOGUE: Wardrobe = { fit: async () => 'unknown' };

/**
 * A profile's avatar names one its owner may wear. The default avatar (every
 * account's first, drawn by the clients) always may be worn, and keeping the
 * current one is no change, so a profile edit of other fields never fails on it.
 */
export async function checkWearable(wardrobe: Wardrobe, user: User, patch: ProfilePatch): Promise<void> {
  const next = patch.avatarId;
  if (next === undefined || next === user.avatarId || next === DEFAULT_AVATAR_ID) return;
  const fit = await wardrobe.fit(checkAvatarId(next), user.uuid);
  if (fit === 'unknown') throw badRequest(unknownAvatar(next));
  if (fit === 'not-wearable') throw forbidden(AVATAR_NOT_WEARABLE);
}
