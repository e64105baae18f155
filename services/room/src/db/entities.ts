import { defineEntity, p } from '@mikro-orm/postgresql';
import type { Design, DjType, PinnedMessage, RoomType } from '../domain/room.js';
import type { RoomRoleName } from '../domain/room-roles.js';

/** `room`: the original's RoomDto fields plus the stage settings. */
export const RoomEntity = defineEntity({
  name: 'Room',
  tableName: 'room',
  properties: {
    id: p.integer().primary().autoincrement(),
    uuid: p.uuid().unique(),
    slug: p.string().unique(),
    name: p.string(),
    description: p.text(),
    vibe: p.string(),
    djType: p.string().$type<DjType>(),
    musicProviderKeys: p.json<string[]>(),
    numberOfDjs: p.integer(),
    songsPerDj: p.integer(),
    roomSize: p.integer(),
    entryFee: p.integer(),
    freeEntries: p.integer(),
    passwordHash: p.string().nullable(),
    guestPasswordHash: p.string().nullable(),
    type: p.string().$type<RoomType>(),
    design: p.string().$type<Design>(),
    isLive: p.boolean(),
    liveAudio: p.boolean(),
    promoted: p.boolean(),
    promotedProviders: p.json<string[]>(),
    posterUrl: p.string().nullable(),
    externalUrl: p.string().nullable(),
    hasChat: p.boolean(),
    unlisted: p.boolean(),
    discordGuildId: p.string().nullable(),
    pinnedMessages: p.json<PinnedMessage[]>(),
    maxSongLengthSeconds: p.integer(),
    repeatWindowMinutes: p.integer(),
    afkLimitMinutes: p.integer(),
    waitlistEnabled: p.boolean(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

/** `room_user_role`: one row per (room, user, role); expired rows are ignored everywhere. */
export const RoomUserRoleEntity = defineEntity({
  name: 'RoomUserRole',
  tableName: 'room_user_role',
  properties: {
    id: p.integer().primary().autoincrement(),
    roomId: p.integer(),
    userUuid: p.uuid(),
    role: p.string().$type<RoomRoleName>(),
    expirationTime: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

/** `room_favorite`: a user's favourite rooms. */
export const RoomFavoriteEntity = defineEntity({
  name: 'RoomFavorite',
  tableName: 'room_favorite',
  properties: {
    id: p.integer().primary().autoincrement(),
    userUuid: p.uuid(),
    roomId: p.integer(),
    createdAt: p.datetime(),
  },
});

/** `recent_room`: the rooms a user joined, most recent first, capped per user. */
export const RecentRoomEntity = defineEntity({
  name: 'RecentRoom',
  tableName: 'recent_room',
  properties: {
    userUuid: p.uuid().primary(),
    roomId: p.integer().primary(),
    visitedAt: p.datetime(),
  },
});
