import type { LiveRoomPort } from '../domain/live-room-port.js';
import type { LiveRooms } from './live-rooms.js';
import type { PgPlayLog } from './play-log.js';

/**
 * What the room records ask of the live rooms (presence, the state, plays)
 * and tell them (kicks, changes). The two know each other (the live rooms read
 * the records through the directory), so the records are built first and reach
 * the live rooms, built just after, through `live()`.
 */
export function liveRoomPort(live: () => LiveRooms, plays: PgPlayLog): LiveRoomPort {
  return {
    presence: async (roomUuid) => {
      const room = (await live().snapshot(roomUuid))?.room;
      return {
        userUuids: room?.server.members.map((m) => m.uuid) ?? [],
        song: room?.client.nowPlaying?.song ?? null,
        djUuids: room?.client.djs.map((dj) => dj.uuid) ?? [],
      };
    },
    noDancefloorUserUuids: async (roomUuid) => {
      const room = (await live().snapshot(roomUuid))?.room;
      const floor = new Set(room?.client.floorUsers.map((u) => u.uuid));
      return (room?.server.members ?? []).map((m) => m.uuid).filter((uuid) => !floor.has(uuid));
    },
    roomState: async (roomUuid) => ({ ...((await live().snapshot(roomUuid))?.room.client ?? {}) }),
    playedSeconds: (roomUuid) => plays.playedSeconds(roomUuid),
    onKicked: (kick) => live().kick(kick.roomUuid, kick.userUuid, kick.reason ?? 'kicked'),
    onChanged: async (change) => {
      if (change.deleted) return live().reset(change.roomUuid, true);
      if (!change.userUuids) return live().refresh(change.roomUuid);
      for (const userUuid of change.userUuids) await live().refresh(change.roomUuid, userUuid);
    },
  };
}
