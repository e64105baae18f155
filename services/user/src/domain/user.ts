import { STAFF_ROLES_BY_RANK, type Role } from '@spinroom/platform';
import type { Standing } from './moderation/standing.js';

export type UserKind = 'user' | 'guest' | 'bot';

/** A song shown on a profile (the original's `song` object). */
export interface ProfileSong {
  id: string;
  isrc: string;
  genre: string;
  duration: number;
  trackUrl: string;
  trackName: string;
  artistName: string;
  musicProvider: string;
}

/** Fields a person edits on their profile; null when never filled in. */
export interface ProfileFields {
  nickname: string;
  color: string;
  avatarId: string;
  discord?: string | null;
  discordNickname?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  pronoun?: string | null;
  displayPronouns: boolean;
  songOfTheWeek?: string | null;
  song?: ProfileSong | null;
  coverPicture?: string | null;
  facebook?: string | null;
  instagram?: string | null;
  twitter?: string | null;
  snapchat?: string | null;
  tiktok?: string | null;
  priceForGig?: string | null;
  zodiac?: string | null;
}

/** An account: a signed-up user, a bot, or a guest (no email, no password). */
export interface User extends ProfileFields, Standing {
  id: number;
  uuid: string;
  kind: UserKind;
  email?: string | null;
  passwordHash?: string | null;
  roles: Role[];
  capabilities: string[];
  badges: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** The role a token carries: the most privileged of the account's roles. */
export function tokenRole(user: Pick<User, 'kind' | 'roles'>): Role {
  if (user.kind === 'guest') return 'guest';
  if (user.kind === 'bot') return 'bot';
  return STAFF_ROLES_BY_RANK.find((role) => user.roles.includes(role)) ?? 'user';
}
