import { RoomRef, RoomSettings, type Room, type RoomFavorite, type RoomRole } from '@spinroom/contracts/room/v1/room_service';
import { pinnedMessageFromJson, roomRoleToJson, roomToJson } from '@spinroom/contracts/rooms';
import { djTypes, musicProviders, roomDesigns, roomTypes } from '@spinroom/contracts/vocabulary';
import type { z } from 'zod';
import { isUuid } from '@spinroom/platform/core';
import { present } from '../../http/upstream.js';
import type { RoomFavoriteSchema, RoomRoleSchema, RoomSchema, RoomSettingsBody } from './schemas.js';

const iso = (date: Date | undefined) => (date ?? new Date(0)).toISOString();

/** The original's UserRoles: the one mapping (contracts/rooms), typed as the documented schema. */
export function roleJson(role: RoomRole): z.infer<typeof RoomRoleSchema> {
  return roomRoleToJson(role);
}

/** The room as the original's clients read it (RoomDto): the one mapping (contracts/rooms), which the room feed carries too. */
export function roomJson(room: Room | undefined): z.infer<typeof RoomSchema> {
  return roomToJson(present(room));
}

export function favoriteJson(favorite: RoomFavorite): z.infer<typeof RoomFavoriteSchema> {
  return {
    id: favorite.id,
    userUuid: favorite.userUuid,
    roomUuid: favorite.roomUuid,
    createdAt: iso(favorite.createdAt),
    room: roomJson(favorite.room),
  };
}

/** A slug or a uuid from a path: both name a room. */
export function roomRef(slugOrUuid: string): RoomRef {
  return isUuid(slugOrUuid) ? RoomRef.fromPartial({ uuid: slugOrUuid }) : RoomRef.fromPartial({ slug: slugOrUuid });
}

/** A JSON settings body as the service's RoomSettings; null and '' clear a nullable field. */
export function settingsMessage(body: RoomSettingsBody): RoomSettings {
  const {
    djType,
    type,
    design,
    musicProviderKeys,
    promotedProviders,
    pinnedMessages,
    password,
    guestPassword,
    posterUrl,
    externalUrl,
    discordGuildId,
    ...rest
  } = body;
  return RoomSettings.fromPartial({
    ...rest,
    djType: djType && djTypes.valueOf(djType),
    type: type && roomTypes.valueOf(type),
    design: design && roomDesigns.valueOf(design),
    ...(musicProviderKeys !== undefined
      ? { musicProviderKeys: musicProviderKeys.map(musicProviders.valueOf), setMusicProviderKeys: true }
      : {}),
    ...(promotedProviders !== undefined
      ? { promotedProviders: promotedProviders.map(musicProviders.valueOf), setPromotedProviders: true }
      : {}),
    ...(pinnedMessages !== undefined ? { pinnedMessages: pinnedMessages.map(pinnedMessageFromJson), setPinnedMessages: true } : {}),
    password: clear(password),
    guestPassword: clear(guestPassword),
    posterUrl: clear(posterUrl),
    externalUrl: clear(externalUrl),
    discordGuildId: clear(discordGuildId),
  });
}

function clear(value: string | null | undefined): string | undefined {
  return value === undefined ? undefined : (value ?? '');
}
