import type { SongStream } from '@spinroom/contracts/playlist/v1/playlist_service';
import express from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import { present } from '../../http/upstream.js';
import type { PlaylistClient } from './crates.js';
import { SongDataSchema } from './schemas.js';
import { songDataJson } from './views.js';

const BASE = '/api/playlist-service';
export const ANALYSIS_WEBHOOK_PATH = `${BASE}/cyanite/webhook`;

/**
 * The analysis webhook is authenticated by an HMAC of its exact bytes, so it
 * is read raw; mounted before express.json.
 */
export const playlistBodyParsers = express.Router().post(ANALYSIS_WEBHOOK_PATH, express.raw({ type: () => true, limit: '64kb' }));

const StreamSchema = z
  .object({
    songId: z.string(),
    musicProvider: z.string(),
    url: z.string(),
    kind: z.enum(['hls', 'stream', 'preview']),
    quality: z.enum(['low', 'medium', 'high']),
    country: z.string(),
    expiresAt: z.string().nullable(),
  })
  .openapi('SongStream');

const SongIdParams = z.object({
  country: z.string().regex(/^[A-Za-z]{2}$/, 'country must be a two-letter country code'),
  id: z.string().min(1).max(64),
});

function streamJson(stream: SongStream | undefined): z.infer<typeof StreamSchema> {
  const s = present(stream);
  return {
    songId: s.songId,
    musicProvider: s.musicProvider,
    url: s.url,
    kind: s.kind as 'hls' | 'stream' | 'preview',
    quality: s.quality as 'low' | 'medium' | 'high',
    country: s.country,
    expiresAt: s.expiresAt ? s.expiresAt.toISOString() : null,
  };
}

/**
 * /song-data paths besides lookups (streams, previews, the service batch, the
 * links job) and the music-analysis webhook. Registered before songRoutes, whose
 * `/song-data/{link}` would otherwise take `/song-data/service`.
 */
export function songDataRoutes(deps: RouteDeps, playlists: PlaylistClient): void {
  const tags = ['song data'];
  route(deps, {
    method: 'get',
    path: `${BASE}/song-data/stream/{country}/{id}`,
    summary: "A catalogue song's playable stream: an upload's HLS playlist, a signed 7digital stream, else a provider's preview",
    tags,
    errors: [404, 503],
    params: SongIdParams,
    query: z.object({ quality: z.enum(['low', 'medium', 'high']).default('medium') }),
    response: StreamSchema,
    handler: async ({ params, query }) =>
      streamJson((await playlists.getSongStream({ songId: params.id, country: params.country, quality: query.quality })).stream),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/song-data/preview/{country}/{id}`,
    summary: "A catalogue song's preview clip (7digital's signed clip, else a provider's, else an upload's playlist)",
    tags,
    errors: [404, 503],
    params: SongIdParams,
    response: StreamSchema,
    handler: async ({ params }) => streamJson((await playlists.getSongPreview({ songId: params.id, country: params.country })).stream),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/song-data/service`,
    summary: 'Catalogue songs by uuid or numeric id (at most 100; unknown ids are left out), for other services and clients',
    tags,
    query: z.object({
      ids: z
        .union([z.string(), z.array(z.string())])
        .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((id) => id.trim()).filter(Boolean))
        .pipe(z.array(z.string().max(64)).min(1, 'ids must name at least one song').max(100)),
    }),
    response: z.object({ songs: z.array(SongDataSchema) }),
    handler: async ({ query }) => ({ songs: (await playlists.getSongsByIds({ ids: query.ids })).songs.map(songDataJson) }),
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/song-data/migrate-links`,
    summary: "Admins only: fills every catalogue song's missing links from its provider ids; answers how many changed",
    tags,
    errors: [403],
    response: z.object({ scanned: z.number().int(), changed: z.number().int() }),
    handler: async () => playlists.migrateSongLinks({}),
  });
  route(deps, {
    method: 'post',
    path: ANALYSIS_WEBHOOK_PATH,
    summary: "The music-analysis service's (Cyanite) callback, signed with header Signature: hex HMAC-SHA512 of the body",
    tags,
    auth: 'public',
    errors: [401, 503],
    rawBody: {
      contentType: 'application/json',
      schema: z
        .object({
          version: z.string().optional(),
          type: z.string().optional(),
          resource: z.object({ type: z.string(), id: z.string() }).optional(),
          event: z.object({ type: z.string(), status: z.string() }).optional(),
        })
        .openapi('AnalysisWebhook'),
    },
    response: z.object({ received: z.literal(true), changed: z.boolean() }),
    handler: async ({ req }) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const { changed } = await playlists.recordAnalysisWebhook({ body, signature: String(req.headers.signature ?? '') });
      return { received: true as const, changed };
    },
  });
}
