import type { PinnedMessage, Room, RoomRole } from './gen/spinroom/room/v1/room_service.js';
import { songToJson, type MinimalCrateSongJson } from './songs.js';
import {
  djTypes,
  musicProviders,
  roomDesigns,
  roomTypes,
  roomUserRoles,
  type DjTypeName,
  type MusicProviderName,
  type RoomDesignName,
  type RoomRoleName,
  type RoomTypeName,
  type Vocabulary,
} from './vocabulary.js';

/**
 * The original's `RoomDto` and `UserRoles` as JSON, built once from the Room
 * message: the REST paths answer it and the room feed carries it as the room's
 * `settings`, so the two cannot drift apart.
 */
export type RoomRoleJson = {
  id: number;
  roomId: number;
  userUuid: string;
  role: RoomRoleName;
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
  djType: DjTypeName;
  musicProviderKeys: MusicProviderName[];
  numberOfDjs: number;
  songsPerDj: number;
  roomSize: number;
  entryFee: number;
  freeEntries: number;
  type: RoomTypeName;
  design: RoomDesignName;
  isLive: boolean;
  liveAudio: boolean;
  promoted: boolean;
  promotedProviders: MusicProviderName[];
  posterUrl: string | null;
  externalUrl: string | null;
  hasChat: boolean;
  unlisted: boolean;
  discordGuildId: string | null;
  pinnedMessages: PinnedMessageJson[];
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
  /** The song playing now (the live state's `nowPlaying.song`); null while none plays. */
  song: MinimalCrateSongJson | null;
  /** The original's count of DJs on the stage. */
  numberOfActiveDjs: number;
  /** Spinroom's: the DJs on the stage in turn order, the first playing (the lobby names them). */
  djUuids: string[];
  createdAt: string;
  updatedAt: string;
};

/** A pinned chat message as the original's clients send and read it (`pinnedByUUID` spelled so). */
export type PinnedMessageJson = {
  message: {
    message?: string;
    userName?: string;
    avatarId?: string;
    color?: string;
    userUuid?: string;
    /** ISO 8601 text or epoch milliseconds, as the client wrote it. */
    date?: string | number;
    reactions?: unknown;
    pinnedByName?: string;
    pinnedByUUID?: string;
  };
};

/** A pinned message in its JSON shape; fields the client left out stay out. */
export function pinnedMessageToJson(pinned: PinnedMessage): PinnedMessageJson {
  const m = pinned.message ?? {};
  const json: PinnedMessageJson['message'] = {};
  if (m.message !== undefined) json.message = m.message;
  if (m.userName !== undefined) json.userName = m.userName;
  if (m.avatarId !== undefined) json.avatarId = m.avatarId;
  if (m.color !== undefined) json.color = m.color;
  if (m.userUuid !== undefined) json.userUuid = m.userUuid;
  if (m.date !== undefined) json.date = m.date.value;
  if (m.reactions !== undefined) json.reactions = m.reactions;
  if (m.pinnedByName !== undefined) json.pinnedByName = m.pinnedByName;
  if (m.pinnedByUuid !== undefined) json.pinnedByUUID = m.pinnedByUuid;
  return { message: json };
}

/** The typed message for a pinned message in its JSON shape. */
export function pinnedMessageFromJson(pinned: PinnedMessageJson): PinnedMessage {
  const { pinnedByUUID, date, ...rest } = pinned.message;
  return {
    message: {
      ...rest,
      ...(pinnedByUUID !== undefined ? { pinnedByUuid: pinnedByUUID } : {}),
      ...(typeof date === 'string' ? { date: { $case: 'dateText', value: date } } : {}),
      ...(typeof date === 'number' ? { date: { $case: 'dateMillis', value: date } } : {}),
    },
  };
}

/** A room's enum as its word; a value outside the vocabulary is a broken contract, not a client's mistake. */
function word<V extends number, N extends string>(vocabulary: Vocabulary<V, N>, value: V, field: string): N {
  const name = vocabulary.nameOf(value);
  if (name === undefined) throw new Error(`${field} ${value} is not one of ${vocabulary.names.join(', ')}`);
  return name;
}

const iso = (date: Date | undefined) => (date ?? new Date(0)).toISOString();

export function roomRoleToJson(role: RoomRole): RoomRoleJson {
  return {
    id: role.id,
    roomId: role.roomId,
    userUuid: role.userUuid,
    role: word(roomUserRoles, role.role, 'role'),
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
    djType: word(djTypes, room.djType, 'djType'),
    musicProviderKeys: room.musicProviderKeys.map((p) => word(musicProviders, p, 'musicProviderKeys')),
    numberOfDjs: room.numberOfDjs,
    songsPerDj: room.songsPerDj,
    roomSize: room.roomSize,
    entryFee: room.entryFee,
    freeEntries: room.freeEntries,
    type: word(roomTypes, room.type, 'type'),
    design: word(roomDesigns, room.design, 'design'),
    isLive: room.isLive,
    liveAudio: room.liveAudio,
    promoted: room.promoted,
    promotedProviders: room.promotedProviders.map((p) => word(musicProviders, p, 'promotedProviders')),
    posterUrl: room.posterUrl ?? null,
    externalUrl: room.externalUrl ?? null,
    hasChat: room.hasChat,
    unlisted: room.unlisted,
    discordGuildId: room.discordGuildId ?? null,
    pinnedMessages: room.pinnedMessages.map(pinnedMessageToJson),
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
    song: room.song ? songToJson(room.song) : null,
    numberOfActiveDjs: room.djUuids.length,
    djUuids: room.djUuids,
    createdAt: iso(room.createdAt),
    updatedAt: iso(room.updatedAt),
  };
}
