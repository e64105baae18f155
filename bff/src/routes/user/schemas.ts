import { z } from 'zod';
import '../../http/route.js'; // extends zod with .openapi()

export const AccessGrantSchema = z.object({ accessToken: z.string(), userUuid: z.uuid() }).openapi('AccessGrant');

export const ProfileSongSchema = z
  .object({
    id: z.string(),
    isrc: z.string(),
    genre: z.string(),
    duration: z.number().int().min(0),
    trackUrl: z.string(),
    trackName: z.string(),
    artistName: z.string(),
    musicProvider: z.string(),
  })
  .openapi('ProfileSong');

const nullableText = z.string().max(255).nullable();

/** The original's full profile; other users see the same shape (`OtherUserProfileResDto`). */
export const UserProfileSchema = z
  .object({
    id: z.number().int(),
    uuid: z.uuid(),
    color: z.string(),
    avatarId: z.string(),
    badges: z.array(z.string()),
    createdAt: z.string(),
    nickname: z.string(),
    discord: z.string().nullable(),
    discordNickname: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    pronoun: z.string().nullable(),
    displayPronouns: z.boolean(),
    songOfTheWeek: z.string().nullable(),
    song: ProfileSongSchema.nullable(),
    coverPicture: z.string().nullable(),
    facebook: z.string().nullable(),
    instagram: z.string().nullable(),
    twitter: z.string().nullable(),
    snapchat: z.string().nullable(),
    tiktok: z.string().nullable(),
    priceForGig: z.string().nullable(),
    zodiac: z.string().nullable(),
  })
  .openapi('UserProfile');

/** A partial update: set fields replace the stored ones, null or "" clears a text field. */
export const ProfileUpdateSchema = z
  .object({
    nickname: z.string(),
    avatarId: z.string(),
    color: z.string(),
    discord: nullableText,
    discordNickname: nullableText,
    firstName: nullableText,
    lastName: nullableText,
    pronoun: nullableText,
    displayPronouns: z.boolean(),
    songOfTheWeek: nullableText,
    song: ProfileSongSchema.nullable(),
    coverPicture: nullableText,
    facebook: nullableText,
    instagram: nullableText,
    twitter: nullableText,
    snapchat: nullableText,
    tiktok: nullableText,
    priceForGig: nullableText,
    zodiac: nullableText,
  })
  .partial()
  .openapi('ProfileUpdate');

export const CredentialsSchema = z
  .object({
    // Presence and the exact messages are the user service's rules (spec 000).
    email: z.string().max(320).optional(),
    password: z.string().max(1024).optional(),
  })
  .openapi('Credentials');

export const SignUpSchema = CredentialsSchema.extend({ nickname: z.string().max(64).optional() }).openapi('SignUp');
