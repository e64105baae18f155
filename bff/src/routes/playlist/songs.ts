import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { PlaylistClient } from './crates.js';
import { CrateSongSchema, PageQuerySchema } from './schemas.js';
import { songJson } from './views.js';

const SearchQuerySchema = z.object({
  q: z.string().trim().min(1, 'q must not be empty').max(200),
  explicit: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  country: z.string().length(2).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});

/** /search and /api/v1/songs: the song catalogue. */
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
  const search = async (query: z.infer<typeof SearchQuerySchema>) =>
    (await playlists.searchSongs({ query: query.q, limit: query.limit, offset: query.offset, includeExplicit: query.explicit })).songs.map(songJson);
  route(deps, {
    method: 'get', path: '/api/playlist-service/search', summary: 'Search the catalogue (best match first)', tags, auth: 'caller',
    query: SearchQuerySchema, response: z.object({ songs: z.array(CrateSongSchema) }),
    handler: async ({ query }) => ({ songs: await search(query) }),
  });
  route(deps, {
    method: 'get', path: '/api/playlist-service/search/v2', summary: 'Search the catalogue (the same answer; clients of v2 read the numeric `id`)',
    tags, auth: 'caller', query: SearchQuerySchema, response: z.object({ songs: z.array(CrateSongSchema) }),
    handler: async ({ query }) => ({ songs: await search(query) }),
  });
  route(deps, {
    method: 'get', path: '/api/playlist-service/api/v1/songs/{songId}', summary: 'One catalogue song', tags, auth: 'caller',
    params: z.object({ songId: z.string() }), errors: [404], response: CrateSongSchema,
    handler: async ({ params }) => songJson((await playlists.getSong({ songId: params.songId })).song),
  });
}
