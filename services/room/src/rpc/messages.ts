import type {
  Room as RoomMessage,
  RoomFavorite as RoomFavoriteMessage,
  RoomRef as RoomRefMessage,
  RoomRole as RoomRoleMessage,
  RoomSettings as RoomSettingsMessage,
} from '@spinroom/contracts/room/v1/room_service';
import { pinnedMessageFromJson, pinnedMessageToJson } from '@spinroom/contracts/rooms';
import { songFromJson } from '@spinroom/contracts/songs';
import { djTypes, musicProviders, roomDesigns, roomTypes, roomUserRoles, type Vocabulary } from '@spinroom/contracts/vocabulary';
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
    role: roomUserRoles.valueOf(role.role),
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
    djType: djTypes.valueOf(room.djType),
    musicProviderKeys: providerValues(room.musicProviderKeys),
    numberOfDjs: room.numberOfDjs,
    songsPerDj: room.songsPerDj,
    roomSize: room.roomSize,
    entryFee: room.entryFee,
    freeEntries: room.freeEntries,
    isPasswordProtected: room.passwordHash !== null,
    isGuestPasswordProtected: room.guestPasswordHash !== null,
    type: roomTypes.valueOf(room.type),
    design: roomDesigns.valueOf(room.design),
    isLive: room.isLive,
    liveAudio: room.liveAudio,
    promoted: room.promoted,
    promotedProviders: providerValues(room.promotedProviders),
    posterUrl: room.posterUrl ?? undefined,
    externalUrl: room.externalUrl ?? undefined,
    hasChat: room.hasChat,
    unlisted: room.unlisted,
    discordGuildId: room.discordGuildId ?? undefined,
    pinnedMessages: room.pinnedMessages.map(pinnedMessageFromJson),
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
    song: view.song ? songFromJson(view.song) : undefined,
    djUuids: view.djUuids,
  };
}

/** A bare room (favourite listings) without roles or presence. */
export function toBareRoomMessage(room: Room): RoomMessage {
  return toRoomMessage({ room, roles: [], ownerUuid: '', usersInRoom: [], song: null, djUuids: [] });
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
    djType: m.djType === undefined ? undefined : word(djTypes, m.djType, 'djType'),
    musicProviderKeys: m.setMusicProviderKeys ? providerNames(m.musicProviderKeys ?? [], 'musicProviderKeys') : undefined,
    numberOfDjs: m.numberOfDjs,
    songsPerDj: m.songsPerDj,
    roomSize: m.roomSize,
    entryFee: m.entryFee,
    freeEntries: m.freeEntries,
    password: m.password === undefined ? undefined : m.password || null,
    guestPassword: m.guestPassword === undefined ? undefined : m.guestPassword || null,
    type: m.type === undefined ? undefined : word(roomTypes, m.type, 'type'),
    design: m.design === undefined ? undefined : word(roomDesigns, m.design, 'design'),
    isLive: m.isLive,
    liveAudio: m.liveAudio,
    promoted: m.promoted,
    promotedProviders: m.setPromotedProviders ? providerNames(m.promotedProviders ?? [], 'promotedProviders') : undefined,
    posterUrl: m.posterUrl,
    externalUrl: m.externalUrl,
    hasChat: m.hasChat,
    unlisted: m.unlisted,
    discordGuildId: m.discordGuildId,
    pinnedMessages: m.setPinnedMessages ? (m.pinnedMessages ?? []).map(pinnedMessageToJson) : undefined,
    maxSongLengthSeconds: m.maxSongLengthSeconds,
    repeatWindowMinutes: m.repeatWindowMinutes,
    afkLimitMinutes: m.afkLimitMinutes,
    waitlistEnabled: m.waitlistEnabled,
  };
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
}

/** An enum's word; 400 naming the field when the caller sent UNSPECIFIED or a value this service does not know. */
export function word<V extends number, N extends string>(vocabulary: Vocabulary<V, N>, value: V, field: string): N {
  const name = vocabulary.nameOf(value);
  if (name === undefined) throw badRequest(`${field} must be one of ${vocabulary.names.join(', ')}`);
  return name;
}

function providerNames(values: number[], field: string): string[] {
  return values.map((value) => word(musicProviders, value, field));
}

/** Stored provider keys are the room's words (checked on the way in). */
function providerValues(names: string[]): number[] {
  return names.map((name) => musicProviders.parse(name) ?? 0);
}
