import { z } from 'zod';
import { RawReply, route, type RouteDeps } from '../../http/route.js';
import type { PlaylistClient } from './crates.js';
import { CrateSongSchema, PageQuerySchema, SongDataSchema } from './schemas.js';
import { songDataJson, songJson } from './views.js';
import { MAX_PAGE_SIZE, pageOffset } from '../../http/paging.js';
import type { SearchAnswers } from './search-answers.js';

const SearchQuerySchema = z.object({
  q: z.string().trim().min(1, 'q must not be empty').max(200),
  /** A provider's search tab (spotify, apple, ...), `mixed` (spec 002's mixed search: 7digital and SoundCloud); the catalogue when left out. */
  provider: z.string().max(32).optional(),
  explicit: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  country: z.string().length(2).optional(),
  /** 20 for the catalogue; a provider's tab its own page size (20 SoundCloud and 7digital, 25 Apple; `mixed` both pages). */
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  offset: pageOffset(),
});

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

/**
 * The text in a buffer of its own, exactly its size: Buffer.from puts a few KiB into a shared 64 KiB slab, which
 * one kept answer holds whole (64 MiB of kept bodies held 131 MiB).
 */
function exactBuffer(text: string): Buffer {
  const buffer = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  buffer.write(text);
  return buffer;
}

/**
 * /search and /search/v2: the catalogue's search. `answers`: its answers kept (search-answers.ts). Registered before the
 * other paths: the router tries the paths in order, and search is the busiest (behind the user, crate and song-data
 * paths, about 130, a kept answer cost the BFF 0.24-0.25 ms of CPU; first, 0.19: BENCHMARKS.md, run S9).
 */
export function searchRoutes(deps: RouteDeps, playlists: PlaylistClient, answers?: SearchAnswers): void {
  const tags = ['songs'];
  const search = async (query: z.infer<typeof SearchQuerySchema>): Promise<{ songs: z.input<typeof CrateSongSchema>[] } | RawReply> => {
    if (query.provider && query.provider !== 'catalogue') {
      const { songs } = await playlists.searchProvider({
        musicProvider: query.provider,
        query: query.q,
        limit: query.limit ?? 0,
        offset: query.offset,
        country: query.country ?? '',
      });
      return { songs: songs.map(songJson).filter((s) => query.explicit || !s.explicit) };
    }
    const limit = query.limit ?? 20;
    const ask = async (catalogueGeneration: number) =>
      (
        await playlists.searchSongs({ query: query.q, limit, offset: query.offset, includeExplicit: query.explicit, catalogueGeneration })
      ).songs.map(songJson);
    if (!answers) return { songs: await ask(0) };
    // The body as sent: a repeated search writes it again instead of asking and encoding the songs anew.
    const key = { q: query.q, limit, offset: query.offset, explicit: query.explicit };
    const body = await answers.answer(key, async (generation) => exactBuffer(JSON.stringify({ songs: await ask(generation) })));
    return new RawReply(body, JSON_TYPE);
  };
  route(deps, {
    method: 'get',
    path: '/api/playlist-service/search',
    summary: 'Search the catalogue (best match first)',
    tags,
    query: SearchQuerySchema,
    response: z.object({ songs: z.array(CrateSongSchema) }),
    handler: ({ query }) => search(query),
  });
  route(deps, {
    method: 'get',
    path: '/api/playlist-service/search/v2',
    summary: 'Search the catalogue (the same answer; clients of v2 read the numeric `id`)',
    tags,
    query: SearchQuerySchema,
    response: z.object({ songs: z.array(CrateSongSchema) }),
    handler: ({ query }) => search(query),
  });
}

/** /api/v1/songs and /song-data: the song catalogue. */
export function songRoutes(deps: RouteDeps, playlists: PlaylistClient): void {
  const tags = ['songs'];
  route(deps, {
    method: 'get',
    path: '/api/playlist-service/api/v1/songs',
    summary: 'Catalogue songs, oldest first',
    tags,
    query: PageQuerySchema,
    response: z.object({ songs: z.array(CrateSongSchema), count: z.number().int() }),
    handler: async ({ query }) => {
      const { songs, total } = await playlists.listSongs({ limit: query.limit ?? 20, offset: query.offset ?? 0, songIds: [] });
      return { songs: songs.map(songJson), count: total };
    },
  });
  route(deps, {
    method: 'get',
    path: '/api/playlist-service/song-data/providers',
    summary: 'The outside catalogues and whether each is configured',
    tags,
    response: z.object({ providers: z.array(z.object({ name: z.string(), label: z.string(), enabled: z.boolean() })) }),
    handler: async () => playlists.listMusicProviders({}),
  });
  route(deps, {
    method: 'get',
    path: '/api/playlist-service/song-data/{providerSongId}/{musicProvider}',
    summary: "A provider's song, looked up there and catalogued",
    tags,
    errors: [404, 502, 503],
    params: z.object({ providerSongId: z.string().min(1).max(255), musicProvider: z.string().max(32) }),
    query: z.object({ country: z.string().length(2).optional() }),
    response: SongDataSchema,
    handler: async ({ params, query }) =>
      songDataJson(
        (
          await playlists.getSongData({
            musicProvider: params.musicProvider,
            providerSongId: params.providerSongId,
            country: query.country ?? '',
          })
        ).song,
      ),
  });
  route(deps, {
    method: 'get',
    path: '/api/playlist-service/song-data/{link}',
    summary: 'The song a shared link points at (URL-encoded; Spotify, Apple Music, YouTube), catalogued; only tracks with an ISRC',
    tags,
    errors: [404, 502, 503],
    // 1,024 characters: percent-encoded, a longer link could pass Node's 16 KiB header limit (431).
    params: z.object({ link: z.string().min(1).max(1024) }),
    query: z.object({ country: z.string().length(2).optional() }),
    response: SongDataSchema,
    handler: async ({ params, query }) =>
      songDataJson((await playlists.getSongDataByLink({ link: params.link, country: query.country ?? '' })).song),
  });
  route(deps, {
    method: 'post',
    path: '/api/playlist-service/api/v1/track-import',
    summary: 'Catalogue a song from the first provider that knows it (sevenDigital, soundCloudPublic, spotify, apple, uploadService)',
    tags,
    status: 201,
    errors: [404, 502],
    body: z
      .object({
        musicProvider: z.string().max(32).optional(),
        providerId: z.string().max(255).optional(),
        musicProviders: z.record(z.string(), z.string()).optional(),
        country: z.string().length(2).optional(),
      })
      .openapi('TrackImport'),
    response: z.object({ id: z.number().int(), song: CrateSongSchema }),
    handler: async ({ body }) => {
      const musicProviders = {
        ...body.musicProviders,
        ...(body.musicProvider && body.providerId ? { [body.musicProvider]: body.providerId } : {}),
      };
      const song = songJson((await playlists.importTrack({ musicProviders, country: body.country ?? '' })).song);
      return { id: song.id, song };
    },
  });
  route(deps, {
    method: 'get',
    path: '/api/playlist-service/api/v1/songs/{songId}',
    summary: 'One catalogue song',
    tags,
    params: z.object({ songId: z.string() }),
    errors: [404],
    response: CrateSongSchema,
    handler: async ({ params }) => songJson((await playlists.getSong({ songId: params.songId })).song),
  });
}
