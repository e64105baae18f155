import type { Caller } from '@spinroom/platform';
import { canDj, highestRole, type RoomRole } from '../domain/room-roles.js';
import type { RoomView, Rooms } from '../domain/rooms.js';
import type { StageRules } from '../domain/live/state.js';
import type { RoomAccess, RoomDirectory } from './live-rooms.js';

const iso = (date: Date) => date.toISOString();

function roleDto(role: RoomRole) {
  return {
    id: role.id, roomId: role.roomId, userUuid: role.userUuid, role: role.role,
    expirationTime: role.expirationTime ? iso(role.expirationTime) : null, createdAt: iso(role.createdAt), updatedAt: iso(role.updatedAt),
  };
}

/** The room as the feed's `settings` carries it: the original's `RoomDto` (as the REST paths answer it). */
export function roomDto(view: RoomView): Record<string, unknown> {
  const { room } = view;
  return {
    id: room.id, uuid: room.uuid, slug: room.slug, name: room.name, description: room.description, vibe: room.vibe,
    djType: room.djType, musicProviderKeys: room.musicProviderKeys, numberOfDjs: room.numberOfDjs, songsPerDj: room.songsPerDj,
    roomSize: room.roomSize, entryFee: room.entryFee, freeEntries: room.freeEntries, type: room.type, design: room.design,
    isLive: room.isLive, liveAudio: room.liveAudio, promoted: room.promoted, posterUrl: room.posterUrl, externalUrl: room.externalUrl,
    hasChat: room.hasChat, unlisted: room.unlisted, pinnedMessages: room.pinnedMessages,
    isPasswordProtected: room.passwordHash !== null, isGuestPasswordProtected: room.guestPasswordHash !== null,
    maxSongLengthSeconds: room.maxSongLengthSeconds, repeatWindowMinutes: room.repeatWindowMinutes,
    afkLimitMinutes: room.afkLimitMinutes, waitlistEnabled: room.waitlistEnabled,
    ownerUuid: view.ownerUuid, roomRoles: view.roles.map(roleDto),
    createdAt: iso(room.createdAt), updatedAt: iso(room.updatedAt),
  };
}

function stageRules(view: RoomView): StageRules {
  const { room } = view;
  return {
    numberOfDjs: room.numberOfDjs, songsPerDj: room.songsPerDj, roomSize: room.roomSize, maxSongLengthSeconds: room.maxSongLengthSeconds,
    repeatWindowMinutes: room.repeatWindowMinutes, afkLimitMinutes: room.afkLimitMinutes, waitlistEnabled: room.waitlistEnabled,
  };
}

/** The live rooms' view of the room records (domain/rooms.ts). */
export function roomDirectory(rooms: () => Rooms): RoomDirectory {
  const access = async (roomUuid: string, user: Pick<Caller, 'userUuid' | 'role'>): Promise<RoomAccess> => {
    const found = await rooms().access(user, roomUuid, user.userUuid, user.role);
    return { settings: roomDto(found.view), rules: stageRules(found.view), highestRole: found.highestRole ?? undefined, canDj: found.canDj };
  };
  return {
    async enter(caller, roomUuid, password) {
      const view = await rooms().join(caller, { uuid: roomUuid }, password);
      // The view carries the room's unexpired roles: what the caller may do follows without reading them again.
      if (view.room.djType === 'VERIFIED_ONLY') return access(roomUuid, caller);
      const mine = view.roles.filter((r) => r.userUuid === caller.userUuid);
      return { settings: roomDto(view), rules: stageRules(view), highestRole: highestRole(mine) ?? undefined, canDj: canDj(view.room, mine, caller.role) };
    },
    access,
  };
}
