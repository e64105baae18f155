import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { PlaylistClient } from './crates.js';
import { CrateSongSchema, PageQuerySchema } from './schemas.js';
import { songJson } from './views.js';

/** /api/v1/songs: the song catalogue. */
export function songRoutes(deps: RouteDeps, playlists: PlaylistClient): void {
  const tags = ['songs'];
  route(deps, {
    method: 'get', path: '/api/playlist-service/api/v1/songs', summary: 'Catalogue songs, oldest first', tags, auth: 'caller',
    query: PageQuerySchema, response: z.object({ songs: z.array(CrateSongSchema), count: z.number().int() }),
    handler: async ({ query }) => {
      const { songs, total } = await playlists.listSongs({ limit: query.limit ?? 20, offset: query.offset ?? 0, songIds: [] });
      return { songs: songs.map(songJson), count: total };
    },
  });
  route(deps, {
    method: 'get', path: '/api/playlist-service/api/v1/songs/{songId}', summary: 'One catalogue song', tags, auth: 'caller',
    params: z.object({ songId: z.string() }), errors: [404], response: CrateSongSchema,
    handler: async ({ params }) => songJson((await playlists.getSong({ songId: params.songId })).song),
  });
}
