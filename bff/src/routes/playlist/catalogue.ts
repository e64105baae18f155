import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import { present } from '../../http/upstream.js';
import type { PlaylistClient } from './crates.js';
import { CrateSongSchema } from './schemas.js';
import { songJson } from './views.js';
import { TakeSkipQuery } from '../../http/paging.js';

const BASE = '/api/playlist-service';
const TakeSkipSchema = TakeSkipQuery;
const ArtistSchema = z.object({ artistShortId: z.string(), name: z.string(), songCount: z.number().int() }).openapi('Artist');
const AlbumSchema = z
  .object({ albumShortId: z.string(), name: z.string(), artistShortId: z.string(), artistName: z.string(), songCount: z.number().int() })
  .openapi('Album');

/** Genres, artists and albums (the service and SEO paths of spec 002). */
export function catalogueRoutes(deps: RouteDeps, playlists: PlaylistClient): void {
  const tags = ['catalogue'];
  route(deps, {
    method: 'get',
    path: `${BASE}/api/v1/genres`,
    summary: 'Genres of the catalogue, by name',
    tags,
    query: z.object({
      limit: z.coerce.number().int().min(1).max(1024).default(1024),
      idIn: z
        .union([z.string(), z.array(z.string())])
        .optional()
        .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : v.split(',')).map(Number))
        .pipe(z.array(z.number().int().positive())),
      prefix: z.string().max(100).default(''),
    }),
    response: z.object({ genres: z.array(z.object({ id: z.number().int(), name: z.string() })) }),
    handler: async ({ query }) => playlists.listGenres({ limit: query.limit, idIn: query.idIn, prefix: query.prefix }),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/artists/service/all-artists`,
    summary: 'Every artist, by name',
    tags,
    query: TakeSkipSchema,
    response: z.object({ artists: z.array(ArtistSchema), total: z.number().int() }),
    handler: async ({ query }) => playlists.listArtists(query),
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/artists/service/albums-by-artists`,
    summary: 'Albums of the given artists',
    tags,
    body: z.object({ artistShortIds: z.array(z.string()).min(1).max(100) }).extend(TakeSkipSchema.shape),
    response: z.object({ albums: z.array(AlbumSchema), total: z.number().int() }),
    handler: async ({ body }) => playlists.listAlbums({ take: body.take, skip: body.skip, artistShortIds: body.artistShortIds }),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/artists/service/{artistShortId}/albums`,
    summary: "An artist's albums",
    tags,
    params: z.object({ artistShortId: z.string() }),
    query: TakeSkipSchema,
    response: z.object({ albums: z.array(AlbumSchema), total: z.number().int() }),
    handler: async ({ params, query }) => playlists.listAlbums({ ...query, artistShortIds: [params.artistShortId] }),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/albums/service/all-albums`,
    summary: 'Every album',
    tags,
    query: TakeSkipSchema,
    response: z.object({ albums: z.array(AlbumSchema), total: z.number().int() }),
    handler: async ({ query }) => playlists.listAlbums({ ...query, artistShortIds: [] }),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/albums/service/all-songs`,
    summary: 'Every catalogue song, oldest first',
    tags,
    query: TakeSkipSchema,
    response: z.object({ songs: z.array(CrateSongSchema), total: z.number().int() }),
    handler: async ({ query }) => {
      const { songs, total } = await playlists.listSongs({ limit: query.take, offset: query.skip, songIds: [] });
      return { songs: songs.map(songJson), total };
    },
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/albums/service/{albumShortId}/songs`,
    summary: "An album's songs",
    tags,
    params: z.object({ albumShortId: z.string() }),
    query: TakeSkipSchema,
    errors: [404],
    response: z.object({ album: AlbumSchema, songs: z.array(CrateSongSchema) }),
    handler: async ({ params, query }) => {
      const { album, songs } = await playlists.listAlbumSongs({ albumShortId: params.albumShortId, ...query });
      return { album: present(album), songs: songs.map(songJson) };
    },
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/albums/service/{songShortId}/song`,
    summary: 'A song by its short id',
    tags,
    params: z.object({ songShortId: z.string() }),
    errors: [404],
    response: CrateSongSchema,
    handler: async ({ params }) => songJson((await playlists.getSongByShortId({ songShortId: params.songShortId })).song),
  });
}
