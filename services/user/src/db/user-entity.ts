import { defineEntity, p } from '@mikro-orm/postgresql';
import type { Role } from '@spinroom/platform';
import type { ProfileSong, UserKind } from '../domain/user.js';

/** `user_account`: an account with its profile (one row per user, guest or bot). */
export const UserEntity = defineEntity({
  name: 'User',
  tableName: 'user_account',
  properties: {
    id: p.integer().primary().autoincrement(),
    uuid: p.uuid().unique(),
    kind: p.string().$type<UserKind>(),
    email: p.string().nullable().unique(),
    passwordHash: p.string().nullable(),
    roles: p.array().$type<Role[]>(),
    capabilities: p.array(),
    badges: p.array(),
    nickname: p.string(),
    color: p.string(),
    avatarId: p.string(),
    discord: p.string().nullable(),
    discordNickname: p.string().nullable(),
    /** The linked Discord account's id (providers area: Discord sign-in). */
    discordId: p.string().nullable().unique(),
    firstName: p.string().nullable(),
    lastName: p.string().nullable(),
    pronoun: p.string().nullable(),
    displayPronouns: p.boolean(),
    songOfTheWeek: p.string().nullable(),
    song: p.json<ProfileSong>().nullable(),
    coverPicture: p.string().nullable(),
    facebook: p.string().nullable(),
    instagram: p.string().nullable(),
    twitter: p.string().nullable(),
    snapchat: p.string().nullable(),
    tiktok: p.string().nullable(),
    priceForGig: p.string().nullable(),
    zodiac: p.string().nullable(),
    bannedAt: p.datetime().nullable(),
    bannedUntil: p.datetime().nullable(),
    deactivationRequestedAt: p.datetime().nullable(),
    deactivatedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
