import type {
  Room as RoomMessage,
  RoomFavorite as RoomFavoriteMessage,
  RoomRef as RoomRefMessage,
  RoomRole as RoomRoleMessage,
  RoomSettings as RoomSettingsMessage,
} from '@spinroom/contracts/room/v1/room_service';
import { badRequest } from '@spinroom/platform';
import type { RoomFavorite, RoomRef } from '../domain/room-store.js';
import type { Room, RoomSettings } from '../domain/room.js';
import type { RoomRole } from '../domain/room-roles.js';
import type { RoomView } from '../domain/rooms.js';

export function toRoomRef(ref: RoomRefMessage | undefined): RoomRef {
  if (ref?.uuid) return { uuid: ref.uuid };
  if (ref?.slug) return { slug: ref.slug };
  if (ref?.id) return { id: ref.id };
  throw badRequest('room is required');
}

export function toRoleMessage(role: RoomRole): RoomRoleMessage {
  return {
    id: role.id,
    roomId: role.roomId,
    userUuid: role.userUuid,
    role: role.role,
    expirationTime: role.expirationTime ?? undefined,
    createdAt: role.createdAt,
    updatedAt: role.updatedAt,
  };
}

export function toRoomMessage(view: RoomView): RoomMessage {
  const { room } = view;
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
    isPasswordProtected: room.passwordHash !== null,
    isGuestPasswordProtected: room.guestPasswordHash !== null,
    type: room.type,
    design: room.design,
    isLive: room.isLive,
    liveAudio: room.liveAudio,
    promoted: room.promoted,
    promotedProviders: room.promotedProviders,
    posterUrl: room.posterUrl ?? undefined,
    externalUrl: room.externalUrl ?? undefined,
    hasChat: room.hasChat,
    unlisted: room.unlisted,
    discordGuildId: room.discordGuildId ?? undefined,
    pinnedMessagesJson: JSON.stringify(room.pinnedMessages),
    stage: {
      maxSongLengthSeconds: room.maxSongLengthSeconds,
      repeatWindowMinutes: room.repeatWindowMinutes,
      afkLimitMinutes: room.afkLimitMinutes,
      waitlistEnabled: room.waitlistEnabled,
    },
    createdAt: room.createdAt,
    updatedAt: room.updatedAt,
    roomRoles: view.roles.map(toRoleMessage),
    usersInRoomUuids: view.usersInRoom,
    ownerUuid: view.ownerUuid,
  };
}

/** A bare room (favourite listings) without roles or presence. */
export function toBareRoomMessage(room: Room): RoomMessage {
  return toRoomMessage({ room, roles: [], ownerUuid: '', usersInRoom: [] });
}

export function toFavoriteMessage(favorite: RoomFavorite, room: Room): RoomFavoriteMessage {
  return {
    id: favorite.id,
    userUuid: favorite.userUuid,
    roomUuid: room.uuid,
    createdAt: favorite.createdAt,
    room: toBareRoomMessage(room),
  };
}

/** Proto settings to the domain's: unset fields stay undefined; an empty string clears a password. */
export function toRoomSettings(message: RoomSettingsMessage | undefined): RoomSettings {
  const m = message ?? ({} as Partial<RoomSettingsMessage>);
  const settings: RoomSettings = {
    name: m.name,
    slug: m.slug,
    description: m.description,
    vibe: m.vibe,
    djType: m.djType,
    musicProviderKeys: m.setMusicProviderKeys ? m.musicProviderKeys : undefined,
    numberOfDjs: m.numberOfDjs,
    songsPerDj: m.songsPerDj,
    roomSize: m.roomSize,
    entryFee: m.entryFee,
    freeEntries: m.freeEntries,
    password: m.password === undefined ? undefined : m.password || null,
    guestPassword: m.guestPassword === undefined ? undefined : m.guestPassword || null,
    type: m.type,
    design: m.design,
    isLive: m.isLive,
    liveAudio: m.liveAudio,
    promoted: m.promoted,
    promotedProviders: m.setPromotedProviders ? m.promotedProviders : undefined,
    posterUrl: m.posterUrl,
    externalUrl: m.externalUrl,
    hasChat: m.hasChat,
    unlisted: m.unlisted,
    discordGuildId: m.discordGuildId,
    pinnedMessages: m.pinnedMessagesJson === undefined ? undefined : parsePinned(m.pinnedMessagesJson),
    maxSongLengthSeconds: m.maxSongLengthSeconds,
    repeatWindowMinutes: m.repeatWindowMinutes,
    afkLimitMinutes: m.afkLimitMinutes,
    waitlistEnabled: m.waitlistEnabled,
  };
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) as RoomSettings;
}

function parsePinned(json: string): unknown[] {
  try {
    const value: unknown = JSON.parse(json);
    if (Array.isArray(value)) return value;
  } catch {
    // fall through
  }
  throw badRequest('pinnedMessages must be a list');
}
