import type { RoomServiceServer } from '@spinroom/contracts/room/v1/room_service';
import { songToJson } from '@spinroom/contracts/songs';
import { oneTimeAnimations } from '@spinroom/contracts/vocabulary';
import { badRequest, requireService, type createUnaryFactory } from '@spinroom/platform';
import { z } from 'zod';
import { requireGlobalRole } from '../domain/room-roles.js';
import type { LiveRooms } from '../live-rooms/live-rooms.js';
import type { LiveRoomCalls } from './room-service.js';

const Uuid = z.uuid();

/** An action's optional user uuid: absent, or a uuid. */
function optionalUuid(value: string | undefined, field: string): string | undefined {
  if (value !== undefined && !Uuid.safeParse(value).success) throw badRequest(`${field}: must be a uuid`);
  return value;
}

function required<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw badRequest(`${field}: is required`);
  return value;
}

/** gRPC handlers of RoomService's live-room calls: the feed's joins and actions, and the BFF's connection bookkeeping. */
/** The room service's API version (spec 001 section 9). */
export const ROOM_SERVICE_VERSION = '1.4.2';
const startedAt = new Date();

export function liveRoomHandlers(deps: {
  live: LiveRooms;
  /** Seconds listened in every room (the audit service's play-tracking totals). */
  listened: () => Promise<number>;
  unary: ReturnType<typeof createUnaryFactory>;
}): Pick<RoomServiceServer, LiveRoomCalls> {
  const { live, listened, unary } = deps;
  return {
    getRoomServiceInfo: unary(async (_req, ctx) => {
      requireGlobalRole(ctx.caller.role);
      const [liveRooms, playedSeconds] = await Promise.all([live.liveRoomCount(), listened()]);
      return { version: ROOM_SERVICE_VERSION, startedAt, liveRooms, playedSeconds };
    }),
    joinLiveRoom: unary(async (req, ctx) => {
      const caller = ctx.caller;
      if (!Uuid.safeParse(req.roomUuid).success) throw badRequest('room_uuid must be a uuid');
      if (!req.connectionId || req.connectionId.length > 64) throw badRequest('connection_id is required');
      const joined = await live.join(caller, req.roomUuid, {
        password: req.password || undefined,
        connectionId: req.connectionId,
        versionOnly: req.versionOnly,
      });
      return { roomUuid: joined.roomUuid, version: joined.version, stateJson: joined.stateJson, allUserDataJson: joined.allUserDataJson };
    }),
    getLiveRoomJoinState: unary(async (req, ctx) => {
      requireService(ctx.caller);
      if (!Uuid.safeParse(req.roomUuid).success) throw badRequest('room_uuid must be a uuid');
      if (req.minVersion < 0) throw badRequest('min_version must not be negative');
      const state = await live.joinState(req.roomUuid, req.minVersion);
      return { roomUuid: state.roomUuid, version: state.version, stateJson: state.stateJson, allUserDataJson: state.allUserDataJson };
    }),
    performLiveAction: unary(async (req, ctx) => {
      const caller = ctx.caller;
      if (!Uuid.safeParse(req.roomUuid).success) throw badRequest('room_uuid must be a uuid');
      const room = req.roomUuid;
      // The action arrives typed (live_room.proto's oneof); the BFF validated its params' shapes.
      const action = required(req.action, 'action');
      const run = async (): Promise<number> => {
        switch (action.$case) {
          case 'addDj':
            return live.addDj(caller, room, action.value.song && songToJson(action.value.song));
          case 'removeDj':
            return live.removeDj(caller, room, optionalUuid(action.value.djUuid, 'djUuid'));
          case 'updateNextSong':
            return live.updateNextSong(caller, room, songToJson(required(action.value.song, 'song')));
          case 'skipSong':
            return live.skipSong(caller, room);
          case 'voteOnSong':
            return live.voteOnSong(caller, room, required(action.value.songVotes, 'songVotes'));
          case 'playOneTimeAnimation': {
            const animation = oneTimeAnimations.nameOf(action.value.animation);
            const { emoji } = action.value;
            if (animation === undefined) throw badRequest('animation: must be jump or emoji');
            await live.playOneTimeAnimation(caller, room, animation, emoji);
            return 0;
          }
          case 'joinWaitlist':
            return live.joinWaitlist(caller, room);
          case 'leaveWaitlist':
            return live.leaveWaitlist(caller, room, optionalUuid(action.value.targetUserUuid, 'targetUserUuid'));
          case 'moveInWaitlist': {
            const { targetUserUuid, position } = action.value;
            return live.moveInWaitlist(caller, room, required(optionalUuid(targetUserUuid, 'targetUserUuid'), 'targetUserUuid'), position);
          }
          case 'leaveAfterSong':
            return live.leaveAfterSong(caller, room, action.value.enabled);
        }
      };
      return { version: await run() };
    }),
    leaveLiveRoom: unary(async (req, ctx) => {
      requireService(ctx.caller);
      const closed = [
        ...(req.connectionId ? [{ roomUuid: req.roomUuid, connectionId: req.connectionId, left: false }] : []),
        ...req.connections.slice(0, 5000),
      ];
      for (const c of closed) {
        if (!Uuid.safeParse(c.roomUuid).success) throw badRequest('room_uuid must be a uuid');
      }
      await Promise.all(closed.map((c) => live.disconnect(c.roomUuid, c.connectionId, c.left)));
      return {};
    }),
    keepConnectionsAlive: unary(async (req, ctx) => {
      requireService(ctx.caller);
      await live.keepAlive(req.connections.slice(0, 5000));
      return {};
    }),
  };
}
