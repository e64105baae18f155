import {
  DJ_TYPES,
  MUSIC_PROVIDERS,
  ROOM_DESIGNS as DESIGNS,
  ROOM_MUSIC_PROVIDERS as PROVIDERS,
  ROOM_TYPES,
  type MusicProviderName,
} from '@spinroom/contracts/vocabulary';
import { ROOM_ROLES } from '@spinroom/platform/core';
import { z } from 'zod';
import '../../http/route.js'; // extends zod with .openapi()
import { LimitOffsetDefaults } from '../../http/paging.js';
import { MinimalCrateSongSchema } from '../playlist/schemas.js';

/** The original's UserRoles. */
export const RoomRoleSchema = z
  .object({
    id: z.number().int(),
    roomId: z.number().int(),
    userUuid: z.string(),
    role: z.enum(ROOM_ROLES),
    expirationTime: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('UserRoles');

/** `{message: {message, userName, avatarId, color, userUuid, date, reactions, pinnedByName, pinnedByUUID}}` (ORIGINAL-API.md). */
export const PinnedMessageSchema = z
  .object({
    message: z.object({
      message: z.string().max(5_000).optional(),
      userName: z.string().max(255).optional(),
      avatarId: z.string().max(255).optional(),
      color: z.string().max(32).optional(),
      userUuid: z.string().max(64).optional(),
      date: z.union([z.string(), z.number()]).optional(),
      reactions: z.unknown().optional(),
      pinnedByName: z.string().max(255).optional(),
      pinnedByUUID: z.string().max(64).optional(),
    }),
  })
  .openapi('PinnedMessage');

/** The original's RoomDto, plus Spinroom's stage settings and `ownerUuid`. */
export const RoomSchema = z
  .object({
    id: z.number().int(),
    uuid: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    vibe: z.string(),
    djType: z.enum(DJ_TYPES),
    musicProviderKeys: z.array(z.enum(MUSIC_PROVIDERS)),
    numberOfDjs: z.number().int(),
    songsPerDj: z.number().int().openapi({ description: '0 = unlimited' }),
    roomSize: z.number().int(),
    entryFee: z.number().int(),
    freeEntries: z.number().int(),
    type: z.enum(ROOM_TYPES),
    design: z.enum(DESIGNS),
    isLive: z.boolean(),
    liveAudio: z.boolean(),
    promoted: z.boolean(),
    promotedProviders: z.array(z.enum(MUSIC_PROVIDERS)),
    posterUrl: z.string().nullable(),
    externalUrl: z.string().nullable(),
    hasChat: z.boolean(),
    unlisted: z.boolean(),
    discordGuildId: z.string().nullable(),
    pinnedMessages: z.array(PinnedMessageSchema),
    isPasswordProtected: z.boolean(),
    isGuestPasswordProtected: z.boolean(),
    maxSongLengthSeconds: z.number().int().openapi({ description: '0 = no limit' }),
    repeatWindowMinutes: z.number().int().openapi({ description: '0 = repeats allowed' }),
    afkLimitMinutes: z.number().int().openapi({ description: '0 = off' }),
    waitlistEnabled: z.boolean(),
    ownerUuid: z.string(),
    usersInRoomUuids: z.array(z.string()),
    numberOfUsersInRoom: z.number().int(),
    roomRoles: z.array(RoomRoleSchema),
    numberOfActiveDjs: z.number().int().openapi({ description: 'DJs on the stage now' }),
    djUuids: z.array(z.string()).openapi({
      description: "Spinroom's: the DJs on the stage in turn order, the first playing; empty for callers who may not see inside",
    }),
    song: MinimalCrateSongSchema.nullable().openapi({
      description: "The song playing now (the live state's nowPlaying.song); null while none plays or when the caller may not see inside",
    }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('RoomDto');

export const HttpUrlSchema = z.url({ protocol: /^https?$/ }).max(2_048);
export const GuildIdSchema = z.string().regex(/^\d{1,32}$/, 'must be a Discord snowflake (digits)');
const clearable = <T extends z.ZodType>(schema: T) => z.union([schema, z.literal(''), z.null()]);

/** Settings any room path may change (who may change which: the room service decides). */
export const RoomSettingsFields = {
  name: z.string().trim().min(1).max(100),
  slug: z.string().min(1).max(64).openapi({ description: 'Lower-cased; derived from the name when not given' }),
  description: z.string().max(2_000),
  vibe: z.string().max(100),
  djType: z.enum(DJ_TYPES),
  musicProviderKeys: z.array(z.enum(PROVIDERS)).max(PROVIDERS.length),
  numberOfDjs: z.number().int().min(1).max(10),
  songsPerDj: z.number().int().min(0).max(100),
  roomSize: z.number().int().min(1).max(10_000),
  entryFee: z.number().int().min(0).max(1_000_000),
  freeEntries: z.number().int().min(0).max(1_000_000),
  password: clearable(z.string().min(4).max(128)).openapi({ description: "'' or null removes the password" }),
  guestPassword: clearable(z.string().min(4).max(128)),
  type: z.enum(ROOM_TYPES),
  design: z.enum(DESIGNS),
  isLive: z.boolean(),
  liveAudio: z.boolean(),
  posterUrl: clearable(HttpUrlSchema),
  externalUrl: clearable(HttpUrlSchema),
  hasChat: z.boolean(),
  unlisted: z.boolean(),
  discordGuildId: clearable(GuildIdSchema),
  pinnedMessages: z.array(PinnedMessageSchema).max(20),
  maxSongLengthSeconds: z.number().int().min(0).max(3_600),
  repeatWindowMinutes: z.number().int().min(0).max(10_080),
  afkLimitMinutes: z.number().int().min(0).max(1_440),
  waitlistEnabled: z.boolean(),
};

export const UpdateRoomSchema = z.object(RoomSettingsFields).partial().openapi('UpdateRoom');
export const CreateRoomSchema = UpdateRoomSchema.extend({ name: RoomSettingsFields.name }).openapi('CreateRoom');
export const PromoteRoomSchema = z
  .object({ promoted: z.boolean(), promotedProviders: z.array(z.enum(PROVIDERS)).max(PROVIDERS.length).optional() })
  .openapi('PromoteRoom');

export type RoomSettingsBody = z.infer<typeof UpdateRoomSchema> & { promoted?: boolean; promotedProviders?: MusicProviderName[] };

export const SlugParams = z.object({ slug: z.string().min(1).max(64) });
export const PageQuerySchema = LimitOffsetDefaults;
export const RoomPageSchema = z.object({ rooms: z.array(RoomSchema), total: z.number().int() }).openapi('RoomPage');
export const RoomListSchema = z.array(RoomSchema);
export const UserUuidSchema = z.uuid();
export const EmptySchema = z.object({});

export const RoomFavoriteSchema = z
  .object({ id: z.number().int(), userUuid: z.string(), roomUuid: z.string(), createdAt: z.string(), room: RoomSchema })
  .openapi('RoomFavorite');
