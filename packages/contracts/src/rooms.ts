import type { Room, RoomRole } from './gen/spinroom/room/v1/room_service.js';

/**
 * The original's `RoomDto` and `UserRoles` as JSON, built once from the Room
 * message: the REST paths answer it and the room feed carries it as the room's
 * `settings`, so the two cannot drift apart.
 */
export type RoomRoleJson = {
  id: number;
  roomId: number;
  userUuid: string;
  role: string;
  expirationTime: string | null;
  createdAt: string;
  updatedAt: string;
};

export type RoomJson = {
  id: number;
  uuid: string;
  slug: string;
  name: string;
  description: string;
  vibe: string;
  djType: string;
  musicProviderKeys: string[];
  numberOfDjs: number;
  songsPerDj: number;
  roomSize: number;
  entryFee: number;
  freeEntries: number;
  type: string;
  design: string;
  isLive: boolean;
  liveAudio: boolean;
  promoted: boolean;
  promotedProviders: string[];
  posterUrl: string | null;
  externalUrl: string | null;
  hasChat: boolean;
  unlisted: boolean;
  discordGuildId: string | null;
  pinnedMessages: unknown[];
  isPasswordProtected: boolean;
  isGuestPasswordProtected: boolean;
  maxSongLengthSeconds: number;
  repeatWindowMinutes: number;
  afkLimitMinutes: number;
  waitlistEnabled: boolean;
  ownerUuid: string;
  usersInRoomUuids: string[];
  numberOfUsersInRoom: number;
  roomRoles: RoomRoleJson[];
  /** The current song is the live state's (`nowPlaying`); the room record has none. */
  song: null;
  createdAt: string;
  updatedAt: string;
};

const iso = (date: Date | undefined) => (date ?? new Date(0)).toISOString();

export function roomRoleToJson(role: RoomRole): RoomRoleJson {
  return {
    id: role.id,
    roomId: role.roomId,
    userUuid: role.userUuid,
    role: role.role,
    expirationTime: role.expirationTime ? role.expirationTime.toISOString() : null,
    createdAt: iso(role.createdAt),
    updatedAt: iso(role.updatedAt),
  };
}

export function roomToJson(room: Room): RoomJson {
  const stage = room.stage ?? { maxSongLengthSeconds: 0, repeatWindowMinutes: 0, afkLimitMinutes: 0, waitlistEnabled: true };
  return {
    id: room.id,
    uuid: room.uuid,
    slug: room.slug,
    name: room.name,
    description: room.description,
    vibe: room.vibe,
    djType: room.djType,
    musicProviderKeys: room.musicProviderKeys,
    numberOfDjs: room.numberOfDjs,
    songsPerDj: room.songsPerDj,
    roomSize: room.roomSize,
    entryFee: room.entryFee,
    freeEntries: room.freeEntries,
    type: room.type,
    design: room.design,
    isLive: room.isLive,
    liveAudio: room.liveAudio,
    promoted: room.promoted,
    promotedProviders: room.promotedProviders,
    posterUrl: room.posterUrl ?? null,
    externalUrl: room.externalUrl ?? null,
    hasChat: room.hasChat,
    unlisted: room.unlisted,
    discordGuildId: room.discordGuildId ?? null,
    pinnedMessages: JSON.parse(room.pinnedMessagesJson || '[]') as unknown[],
    isPasswordProtected: room.isPasswordProtected,
    isGuestPasswordProtected: room.isGuestPasswordProtected,
    maxSongLengthSeconds: stage.maxSongLengthSeconds,
    repeatWindowMinutes: stage.repeatWindowMinutes,
    afkLimitMinutes: stage.afkLimitMinutes,
    waitlistEnabled: stage.waitlistEnabled,
    ownerUuid: room.ownerUuid,
    usersInRoomUuids: room.usersInRoomUuids,
    numberOfUsersInRoom: room.usersInRoomUuids.length,
    roomRoles: room.roomRoles.map(roomRoleToJson),
    song: null,
    createdAt: iso(room.createdAt),
    updatedAt: iso(room.updatedAt),
  };
}
