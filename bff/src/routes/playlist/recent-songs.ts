import type { SongPlay } from '@spinroom/contracts/playlist/v1/playlist_service';
import { MinimalCrateSong } from '@spinroom/contracts/room/v1/minimal_crate_song';
import { UserRole } from '@spinroom/contracts/room/v1/room_vocabulary';
import { songToJson } from '@spinroom/contracts/songs';
import { z } from 'zod';
import { forbidden } from '@spinroom/platform/core';
import { route, type RouteDeps } from '../../http/route.js';
import type { RoomClient } from '../room/clients.js';
import { roomRef } from '../room/views.js';
import type { PlaylistClient } from './crates.js';
import { LimitOffsetDefaults } from '../../http/paging.js';
import { SongSchema } from '../../feed/live-actions.js';
import { MinimalCrateSongSchema } from './schemas.js';

const BASE = '/api/playlist-service';

const VoteCounts = z.object({ likes: z.number().int(), dislikes: z.number().int(), stars: z.number().int() });
const SongPlaySchema = z
  .object({
    playId: z.uuid(),
    djUuid: z.uuid(),
    voteCounts: VoteCounts,
    playedAt: z.string(),
    // The song as the room feed carried it.
    song: MinimalCrateSongSchema,
  })
  .openapi('SongPlay');
const RecordSongPlaySchema = z.object({
  playId: z.uuid(),
  djUuid: z.uuid(),
  voteCounts: VoteCounts.default({ likes: 0, dislikes: 0, stars: 0 }),
  playedAt: z.iso.datetime().optional(),
  song: SongSchema,
});
const Slug = z.object({ slug: z.string().min(1).max(64) });

function songPlayJson(p: SongPlay): z.infer<typeof SongPlaySchema> {
  return {
    playId: p.playId,
    djUuid: p.djUuid,
    voteCounts: { likes: p.likes, dislikes: p.dislikes, stars: p.stars },
    playedAt: (p.playedAt ?? new Date(0)).toISOString(),
    song: songToJson(p.song ?? MinimalCrateSong.fromPartial({})),
  };
}

/** /rooms/{slug}/recent-songs: what a room played, newest first (the played songs the room service announces). */
export function recentSongRoutes(deps: RouteDeps, playlists: PlaylistClient, rooms: RoomClient): void {
  const tags = ['recent songs'];
  const roomUuidOf = async (slug: string) => (await rooms.getRoom({ room: roomRef(slug) })).room!.uuid;

  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/{slug}/recent-songs`,
    summary: "A room's recent songs with their votes, newest first",
    tags,
    params: Slug,
    query: LimitOffsetDefaults,
    response: z.object({ songPlays: z.array(SongPlaySchema), total: z.number().int() }),
    errors: [403, 404],
    handler: async ({ params, query, caller }) => {
      const roomUuid = await roomUuidOf(params.slug);
      // What a room played is inside it: the room service's access rule says who may see it (PRIVATE and password rooms, bans).
      const access = await rooms.getRoomAccess({ roomUuid, userUuid: caller.userUuid, tokenRole: UserRole.USER_ROLE_UNSPECIFIED });
      if (!access.mayRead) throw forbidden(access.refusalMessage, access.refusalCode || undefined);
      const { songPlays, total } = await playlists.listRecentSongs({ roomUuid, limit: query.limit, offset: query.offset });
      return { songPlays: songPlays.map(songPlayJson), total };
    },
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/rooms/{slug}/recent-songs`,
    summary:
      "Records a play in a room's recent songs (Spinroom's services only; the room service records plays itself through room-events)",
    tags,
    status: 201,
    params: Slug,
    body: RecordSongPlaySchema,
    response: z.object({ recorded: z.literal(true) }),
    errors: [403, 404],
    handler: async ({ params, body }) => {
      await playlists.recordSongPlay({
        songPlay: {
          playId: body.playId,
          roomUuid: await roomUuidOf(params.slug),
          djUuid: body.djUuid,
          song: body.song,
          ...body.voteCounts,
          playedAt: body.playedAt ? new Date(body.playedAt) : new Date(),
        },
      });
      return { recorded: true as const };
    },
  });
}
