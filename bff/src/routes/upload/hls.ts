import { z } from 'zod';
import { RawReply, route, type RouteDeps } from '../../http/route.js';
import type { UploadClient } from './clients.js';

const BASE = '/api/upload-service/songs';
const binary = z.string().openapi({ type: 'string', format: 'binary' });

/**
 * HLS playback: the playlist (bearer token, guests too), and what an HLS
 * player then fetches without our headers: the AES-128 key through the signed,
 * short-lived link the playlist holds, and the encrypted segments.
 */
export function hlsRoutes(deps: RouteDeps, uploads: UploadClient): void {
  const tags = ['uploads'];
  route(deps, {
    method: 'get',
    path: `${BASE}/{id}/hls-playlist`,
    summary: 'The HLS playlist of a verified upload (403 "Song is not verified" before)',
    tags,
    params: z.object({ id: z.uuid() }),
    produces: 'application/vnd.apple.mpegurl',
    response: z.string(),
    errors: [403, 404],
    handler: async ({ params }) => {
      const { playlist } = await uploads.getHlsPlaylist({ songId: params.id });
      // Private and short: it holds this caller's key link.
      return new RawReply(Buffer.from(playlist, 'utf8'), {
        'content-type': 'application/vnd.apple.mpegurl',
        'cache-control': 'private, max-age=60',
      });
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/hls/key`,
    summary: "A song's AES-128 key (16 bytes), through the signed link in its playlist",
    tags,
    auth: 'public',
    query: z.object({ songId: z.string(), user: z.string(), expires: z.string(), signature: z.string() }),
    produces: 'application/octet-stream',
    response: binary,
    errors: [403, 404],
    handler: async ({ query }) => {
      const { key } = await uploads.getHlsKey(query);
      return new RawReply(key, { 'content-type': 'application/octet-stream', 'cache-control': 'private, no-store' });
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/{id}/hls/{segment}`,
    summary: 'An encrypted MPEG-TS segment of a verified upload',
    tags,
    auth: 'public',
    params: z.object({ id: z.uuid(), segment: z.string().max(64) }),
    produces: 'video/mp2t',
    response: binary,
    errors: [403, 404],
    handler: async ({ params }) => {
      const { data, contentType } = await uploads.getHlsSegment({ songId: params.id, segment: params.segment });
      // A segment never changes: any cache may keep it for good (it is useless without the key).
      return new RawReply(data, { 'content-type': contentType, 'cache-control': 'public, max-age=31536000, immutable' });
    },
  });
}
