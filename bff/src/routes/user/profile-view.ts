import type { UserProfile } from '@spinroom/contracts/user/v1/user_service';
import type { z } from 'zod';
import type { UserProfileSchema } from './schemas.js';

/** A profile as REST clients read it: every field present, null when unset. */
export function toProfileJson(profile: UserProfile): z.infer<typeof UserProfileSchema> {
  const orNull = <T>(value: T | undefined) => value ?? null;
  return {
    id: profile.id,
    uuid: profile.uuid,
    color: profile.color,
    avatarId: profile.avatarId,
    badges: profile.badges,
    createdAt: (profile.createdAt ?? new Date(0)).toISOString(),
    nickname: profile.nickname,
    discord: orNull(profile.discord),
    discordNickname: orNull(profile.discordNickname),
    firstName: orNull(profile.firstName),
    lastName: orNull(profile.lastName),
    pronoun: orNull(profile.pronoun),
    displayPronouns: profile.displayPronouns,
    songOfTheWeek: orNull(profile.songOfTheWeek),
    song: orNull(profile.song),
    coverPicture: orNull(profile.coverPicture),
    facebook: orNull(profile.facebook),
    instagram: orNull(profile.instagram),
    twitter: orNull(profile.twitter),
    snapchat: orNull(profile.snapchat),
    tiktok: orNull(profile.tiktok),
    priceForGig: orNull(profile.priceForGig),
    zodiac: orNull(profile.zodiac),
  };
}
