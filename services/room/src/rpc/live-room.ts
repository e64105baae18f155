import type { RoomServiceServer } from '@spinroom/contracts/room/v1/room_service';
import { badRequest, requireService, type createUnaryFactory } from '@spinroom/platform';
import { z } from 'zod';
import type { MinimalCrateSong } from '../domain/live/state.js';
import { requireGlobalRole } from '../domain/room-roles.js';
import type { LiveRooms } from '../live/live-rooms.js';
import type { PgPlayLog } from '../live/play-log.js';
import type { LiveRoomCalls } from './room-service.js';

const Uuid = z.uuid();
const ProviderMap = z.record(z.string().max(32), z.string().max(2048));

/** `MinimalCrateSongResDTO` as clients send it (extra catalogue fields kept, unknown ones dropped). */
const Song = z.object({
  songId: z.string().max(64).optional(),
  songShortId: z.string().max(32).optional(),
  crateSongUuid: z.string().max(64).optional(),
  artistName: z.string().max(512),
  trackName: z.string().max(512),
  genre: z.string().max(255).nullable().default(null),
  duration: z.number().int().min(0).max(24 * 3600),
  isrc: z.string().max(16).nullable().default(null),
  explicit: z.boolean().optional(),
  musicProviders: ProviderMap,
  thumbnails: ProviderMap.default({}),
  links: ProviderMap.optional(),
  previews: ProviderMap.optional(),
  streamUrls: ProviderMap.optional(),
  playbackToken: z.string().max(2048).nullable().default(null),
  status: z.string().max(32).optional(),
  position: z.number().int().optional(),
});

const ACTION_PARAMS = {
  addDj: z.object({ song: Song.optional() }),
  removeDj: z.object({ djUuid: Uuid.optional() }),
  updateNextSong: z.object({ song: Song }),
  skipSong: z.object({}),
  voteOnSong: z.object({ songVotes: z.object({ like: z.boolean().optional(), star: z.boolean().optional() }) }),
  playOneTimeAnimation: z.object({ animation: z.enum(['jump', 'emoji']), emoji: z.string().min(1).max(16).optional() }),
  joinWaitlist: z.object({}),
  leaveWaitlist: z.object({ targetUserUuid: Uuid.optional() }),
  moveInWaitlist: z.object({ targetUserUuid: Uuid, position: z.number().int().min(0) }),
  leaveAfterSong: z.object({ enabled: z.boolean().default(true) }),
} as const;

type ActionName = keyof typeof ACTION_PARAMS;

function parseParams<A extends ActionName>(action: A, json: string): z.infer<(typeof ACTION_PARAMS)[A]> {
  let raw: unknown;
  try {
    raw = json ? JSON.parse(json) : {};
  } catch {
    throw badRequest('params must be a JSON object');
  }
  const parsed = ACTION_PARAMS[action].safeParse(raw);
  if (!parsed.success) throw badRequest(parsed.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`));
  return parsed.data as z.infer<(typeof ACTION_PARAMS)[A]>;
}

/** gRPC handlers of RoomService's live-room calls: the feed's joins and actions, and the BFF's connection bookkeeping. */
/** The room service's API version (spec 001 section 9). */
export const ROOM_SERVICE_VERSION = '1.4.2';
const startedAt = new Date();

export function liveRoomHandlers(deps: {
  live: LiveRooms;
  plays: Pick<PgPlayLog, 'playedSeconds'>;
  unary: ReturnType<typeof createUnaryFactory>;
}): Pick<RoomServiceServer, LiveRoomCalls> {
  const { live, plays, unary } = deps;
  return {
    getRoomServiceInfo: unary(async (_req, ctx) => {
      requireGlobalRole(ctx.caller.role);
      const [liveRooms, playedSeconds] = await Promise.all([live.liveRoomCount(), plays.playedSeconds()]);
      return { version: ROOM_SERVICE_VERSION, startedAt, liveRooms, playedSeconds };
    }),
    joinLiveRoom: unary(async (req, ctx) => {
      const caller = ctx.caller;
      if (!Uuid.safeParse(req.roomUuid).success) throw badRequest('room_uuid must be a uuid');
      if (!req.connectionId || req.connectionId.length > 64) throw badRequest('connection_id is required');
      const joined = await live.join(caller, req.roomUuid, { password: req.password || undefined, connectionId: req.connectionId });
      return { roomUuid: joined.roomUuid, version: joined.version, stateJson: joined.stateJson, allUserDataJson: joined.allUserDataJson };
    }),
    performLiveAction: unary(async (req, ctx) => {
      const caller = ctx.caller;
      if (!Uuid.safeParse(req.roomUuid).success) throw badRequest('room_uuid must be a uuid');
      if (!(req.action in ACTION_PARAMS)) throw badRequest(`Unknown action: ${req.action}`);
      const room = req.roomUuid;
      const run = async (): Promise<number> => {
        switch (req.action as ActionName) {
          case 'addDj': return live.addDj(caller, room, parseParams('addDj', req.paramsJson).song as MinimalCrateSong | undefined);
          case 'removeDj': return live.removeDj(caller, room, parseParams('removeDj', req.paramsJson).djUuid);
          case 'updateNextSong': return live.updateNextSong(caller, room, parseParams('updateNextSong', req.paramsJson).song as MinimalCrateSong);
          case 'skipSong': return live.skipSong(caller, room);
          case 'voteOnSong': return live.voteOnSong(caller, room, parseParams('voteOnSong', req.paramsJson).songVotes);
          case 'playOneTimeAnimation': {
            const p = parseParams('playOneTimeAnimation', req.paramsJson);
            await live.playOneTimeAnimation(caller, room, p.animation, p.emoji);
            return 0;
          }
          case 'joinWaitlist': return live.joinWaitlist(caller, room);
          case 'leaveWaitlist': return live.leaveWaitlist(caller, room, parseParams('leaveWaitlist', req.paramsJson).targetUserUuid);
          case 'moveInWaitlist': {
            const p = parseParams('moveInWaitlist', req.paramsJson);
            return live.moveInWaitlist(caller, room, p.targetUserUuid, p.position);
          }
          case 'leaveAfterSong': return live.leaveAfterSong(caller, room, parseParams('leaveAfterSong', req.paramsJson).enabled);
        }
      };
      return { version: await run() };
    }),
    leaveLiveRoom: unary(async (req, ctx) => {
      requireService(ctx.caller);
      const closed = [...(req.connectionId ? [{ roomUuid: req.roomUuid, connectionId: req.connectionId }] : []), ...req.connections.slice(0, 5000)];
      for (const c of closed) {
        if (!Uuid.safeParse(c.roomUuid).success) throw badRequest('room_uuid must be a uuid');
      }
      await Promise.all(closed.map((c) => live.disconnect(c.roomUuid, c.connectionId)));
      return {};
    }),
    keepConnectionsAlive: unary(async (req, ctx) => {
      requireService(ctx.caller);
      await live.keepAlive(req.connections.slice(0, 5000));
      return {};
    }),
  };
}
