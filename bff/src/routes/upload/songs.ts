import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { UploadClient } from './clients.js';
import { MetadataSchema, PageQuerySchema, SongListSchema, SongPatchSchema, UploadedSongSchema } from './schemas.js';
import { songJson } from './views.js';

const BASE = '/api/upload-service';
const TAGS_403 = [403, 404];

type TagInput = { trackName?: string; artistName?: string; genre?: string | null; isrc?: string | null };

/** null clears genre or isrc; the service takes "" for that. */
function tagEdit(body: TagInput) {
  return {
    trackName: body.trackName,
    artistName: body.artistName,
    genre: body.genre === null ? '' : body.genre,
    isrc: body.isrc === null ? '' : body.isrc,
  };
}

/** /songs, /search, /metadata: reading, editing and deleting uploads. */
export function songsRoutes(deps: RouteDeps, uploads: UploadClient): void {
  const tags = ['uploads'];
  const page = (q: z.infer<typeof PageQuerySchema>) => ({ limit: q.limit ?? 20, offset: q.offset ?? 0 });

  route(deps, {
    method: 'get',
    path: `${BASE}/songs/public`,
    summary: 'Every verified upload, newest first',
    tags,
    query: PageQuerySchema,
    response: SongListSchema,
    handler: async ({ query }) => {
      const { songs, total } = await uploads.listPublicSongs({ page: page(query) });
      return { songs: songs.map(songJson), count: total };
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/songs`,
    summary: "The caller's uploads, newest first (verified=true: only VERIFIED; false: the others)",
    tags,
    query: PageQuerySchema.extend({ verified: z.enum(['true', 'false']).optional() }),
    response: SongListSchema,
    handler: async ({ query }) => {
      const verified = query.verified === undefined ? undefined : query.verified === 'true';
      const { songs, total } = await uploads.listOwnSongs({ verified, page: page(query) });
      return { songs: songs.map(songJson), count: total };
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/search`,
    summary: "The caller's uploads and everyone's verified ones whose track or artist name contains the term",
    tags,
    query: PageQuerySchema.extend({ term: z.string().max(100) }),
    response: SongListSchema,
    handler: async ({ query }) => {
      const { songs, total } = await uploads.searchSongs({ term: query.term, page: page(query) });
      return { songs: songs.map(songJson), count: total };
    },
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/metadata`,
    summary: "Edit an upload's tags (the uploader or a moderator)",
    tags,
    body: MetadataSchema,
    response: UploadedSongSchema,
    errors: TAGS_403,
    handler: async ({ body }) => songJson((await uploads.updateSong({ songId: body.songId, ...tagEdit(body) })).song),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/songs/{id}`,
    summary: 'One upload (any status for its uploader and moderators, else only verified)',
    tags,
    params: z.object({ id: z.uuid() }),
    response: UploadedSongSchema,
    errors: [404],
    handler: async ({ params }) => songJson((await uploads.getSong({ songId: params.id })).song),
  });

  route(deps, {
    method: 'patch',
    path: `${BASE}/songs/{id}`,
    summary: "Edit an upload's tags (the uploader or a moderator); moderators may set status UNVERIFIED or VERIFIED",
    tags,
    params: z.object({ id: z.uuid() }),
    body: SongPatchSchema,
    response: UploadedSongSchema,
    errors: TAGS_403,
    handler: async ({ params, body }) => {
      const unverified = body.status === undefined ? undefined : body.status === 'UNVERIFIED';
      return songJson((await uploads.updateSong({ songId: params.id, ...tagEdit(body), unverified })).song);
    },
  });

  route(deps, {
    method: 'delete',
    path: `${BASE}/songs/{id}`,
    summary: 'Delete an upload, its file and its HLS (the uploader or a moderator)',
    tags,
    params: z.object({ id: z.uuid() }),
    response: z.object({ songId: z.string(), deleted: z.literal(true) }),
    errors: [403, 404],
    handler: async ({ params }) => {
      await uploads.deleteSong({ songId: params.id });
      return { songId: params.id, deleted: true as const };
    },
  });
}
