import type { UserProfile } from './gen/spinroom/user/v1/user_service.js';

/**
 * A profile as JSON, built once from the UserProfile message: the REST
 * profile paths answer it and the room feed carries it as a user's
 * `userProfile` (the original's `OtherUserProfileResDto`, which other users see
 * too). Every field is present; an unset text is null, never "".
 */
export type UserProfileJson = {
  id: number;
  uuid: string;
  color: string;
  avatarId: string;
  badges: string[];
  createdAt: string;
  nickname: string;
  discord: string | null;
  discordNickname: string | null;
  firstName: string | null;
  lastName: string | null;
  pronoun: string | null;
  displayPronouns: boolean;
  songOfTheWeek: string | null;
  song: NonNullable<UserProfile['song']> | null;
  coverPicture: string | null;
  facebook: string | null;
  instagram: string | null;
  twitter: string | null;
  snapchat: string | null;
  tiktok: string | null;
  priceForGig: string | null;
  zodiac: string | null;
};

export function profileToJson(profile: UserProfile): UserProfileJson {
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
