import { RoomRef, RoomSettings, type Room, type RoomFavorite, type RoomRole } from '@spinroom/contracts/room/v1/room_service';
import type { z } from 'zod';
import { isUuid } from '@spinroom/platform/core';
import { present } from '../../http/upstream.js';
import type { RoomFavoriteSchema, RoomRoleSchema, RoomSchema, RoomSettingsBody } from './schemas.js';

const iso = (date: Date | undefined) => (date ?? new Date(0)).toISOString();

export function roleJson(role: RoomRole): z.infer<typeof RoomRoleSchema> {
  return {
    id: role.id,
    roomId: role.roomId,
    userUuid: role.userUuid,
    role: role.role as z.infer<typeof RoomRoleSchema>['role'],
    expirationTime: role.expirationTime ? role.expirationTime.toISOString() : null,
    createdAt: iso(role.createdAt),
    updatedAt: iso(role.updatedAt),
  };
}

/** The room as the original's clients read it (RoomDto). */
export function roomJson(room: Room | undefined): z.infer<typeof RoomSchema> {
  const r = present(room);
  const stage = r.stage ?? { maxSongLengthSeconds: 0, repeatWindowMinutes: 0, afkLimitMinutes: 0, waitlistEnabled: true };
  return {
    id: r.id,
    uuid: r.uuid,
    slug: r.slug,
    name: r.name,
    description: r.description,
    vibe: r.vibe,
    djType: r.djType as z.infer<typeof RoomSchema>['djType'],
    musicProviderKeys: r.musicProviderKeys,
    numberOfDjs: r.numberOfDjs,
    songsPerDj: r.songsPerDj,
    roomSize: r.roomSize,
    entryFee: r.entryFee,
    freeEntries: r.freeEntries,
    type: r.type as 'PUBLIC' | 'PRIVATE',
    design: r.design as z.infer<typeof RoomSchema>['design'],
    isLive: r.isLive,
    liveAudio: r.liveAudio,
    promoted: r.promoted,
    promotedProviders: r.promotedProviders,
    posterUrl: r.posterUrl ?? null,
    externalUrl: r.externalUrl ?? null,
    hasChat: r.hasChat,
    unlisted: r.unlisted,
    discordGuildId: r.discordGuildId ?? null,
    pinnedMessages: JSON.parse(r.pinnedMessagesJson || '[]') as unknown[],
    isPasswordProtected: r.isPasswordProtected,
    isGuestPasswordProtected: r.isGuestPasswordProtected,
    maxSongLengthSeconds: stage.maxSongLengthSeconds,
    repeatWindowMinutes: stage.repeatWindowMinutes,
    afkLimitMinutes: stage.afkLimitMinutes,
    waitlistEnabled: stage.waitlistEnabled,
    ownerUuid: r.ownerUuid,
    usersInRoomUuids: r.usersInRoomUuids,
    numberOfUsersInRoom: r.usersInRoomUuids.length,
    roomRoles: r.roomRoles.map(roleJson),
    song: null,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

export function favoriteJson(favorite: RoomFavorite): z.infer<typeof RoomFavoriteSchema> {
  return { id: favorite.id, userUuid: favorite.userUuid, roomUuid: favorite.roomUuid, createdAt: iso(favorite.createdAt), room: roomJson(favorite.room) };
}

/** A slug or a uuid from a path: both name a room. */
export function roomRef(slugOrUuid: string): RoomRef {
  return isUuid(slugOrUuid)
    ? RoomRef.fromPartial({ uuid: slugOrUuid })
    : RoomRef.fromPartial({ slug: slugOrUuid });
}

/** A JSON settings body as the service's RoomSettings; null and '' clear a nullable field. */
export function settingsMessage(body: RoomSettingsBody): RoomSettings {
  const { musicProviderKeys, promotedProviders, pinnedMessages, password, guestPassword, posterUrl, externalUrl, discordGuildId, ...rest } = body;
  return RoomSettings.fromPartial({
    ...rest,
    ...(musicProviderKeys !== undefined ? { musicProviderKeys, setMusicProviderKeys: true } : {}),
    ...(promotedProviders !== undefined ? { promotedProviders, setPromotedProviders: true } : {}),
    ...(pinnedMessages !== undefined ? { pinnedMessagesJson: JSON.stringify(pinnedMessages) } : {}),
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
