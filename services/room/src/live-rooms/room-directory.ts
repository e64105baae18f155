import { roomToJson, type RoomJson } from '@spinroom/contracts/rooms';
import type { Caller } from '@spinroom/platform';
import { canDj, highestRole } from '../domain/room-roles.js';
import { toRoomMessage } from '../rpc/messages.js';
import type { RoomView, Rooms } from '../domain/rooms.js';
import type { StageRules } from '../domain/live/state.js';
import type { RoomFee } from '../domain/entry-fees.js';
import type { RoomAccess, RoomDirectory } from './live-rooms.js';

/**
 * The room as the feed's `settings` carries it: the original's `RoomDto`, mapped as the REST paths map it,
 * with `song` null and no DJs: the state's `nowPlaying` and `djs` carry them, which a copy in the settings would outlive.
 */
export function roomDto(view: RoomView): RoomJson {
  return roomToJson(toRoomMessage({ ...view, song: null, djUuids: [] }));
}

function feeOf(view: RoomView): RoomFee {
  return { entryFee: view.room.entryFee, freeEntries: view.room.freeEntries, ownerUuid: view.ownerUuid || null };
}

function stageRules(view: RoomView): StageRules {
  const { room } = view;
  return {
    numberOfDjs: room.numberOfDjs,
    songsPerDj: room.songsPerDj,
    roomSize: room.roomSize,
    maxSongLengthSeconds: room.maxSongLengthSeconds,
    repeatWindowMinutes: room.repeatWindowMinutes,
    afkLimitMinutes: room.afkLimitMinutes,
    waitlistEnabled: room.waitlistEnabled,
  };
}

/** The live rooms' view of the room records (domain/rooms.ts). */
export function roomDirectory(rooms: Rooms): RoomDirectory {
  // The live engine is part of this service: it reads the room by the internal path, posing as nobody.
  const access = async (roomUuid: string, user?: Pick<Caller, 'userUuid' | 'role'>): Promise<RoomAccess> => {
    const found = await rooms.standing(roomUuid, user);
    return {
      settings: roomDto(found.view),
      rules: stageRules(found.view),
      highestRole: found.highestRole ?? undefined,
      canDj: found.canDj,
      fee: feeOf(found.view),
    };
  };
  return {
    async enter(caller, roomUuid, password) {
      // Who is there is left out: the settings it would go into are used only to open a room not live yet (nobody there).
      const view = await rooms.join(caller, { uuid: roomUuid }, password, { presence: false });
      // The view carries the room's unexpired roles: what the caller may do follows without reading them again.
      if (view.room.djType === 'VERIFIED_ONLY') return access(roomUuid, caller);
      const mine = view.roles.filter((r) => r.userUuid === caller.userUuid);
      return {
        settings: roomDto(view),
        rules: stageRules(view),
        highestRole: highestRole(mine) ?? undefined,
        canDj: canDj(view.room, mine, caller.role),
        fee: feeOf(view),
      };
    },
    access,
    room: (roomUuid) => access(roomUuid),
  };
}
