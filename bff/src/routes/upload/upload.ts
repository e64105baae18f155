import express from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { UploadClient } from './clients.js';
import { streamUpload } from './multipart.js';
import { TranscoderNotificationSchema, UploadAnswerSchema, UploadFormSchema } from './schemas.js';
import { statusName } from './views.js';

const BASE = '/api/upload-service';
export const TRANSCODER_CALLBACK_PATH = `${BASE}/upload/transcoder_sns`;

/**
 * Body parsers the upload paths need instead of express.json: the transcoder
 * callback is authenticated by an HMAC of its exact bytes (SNS sends it as
 * text/plain), so it is read raw. Mounted before express.json. The multipart
 * upload is not parsed by any middleware: its route streams it.
 */
export const uploadBodyParsers = express.Router().post(TRANSCODER_CALLBACK_PATH, express.raw({ type: () => true, limit: '64kb' }));

/** /upload: song uploads and the transcoder's callback. */
export function uploadRoutes(deps: RouteDeps, uploads: UploadClient, options: { maxBytes: number }): void {
  const tags = ['uploads'];
  route(deps, {
    method: 'post',
    path: `${BASE}/upload/song`,
    summary:
      'Upload a song (multipart/form-data, signed-in users and bots). The file is checked at once; transcoding to HLS follows in the background',
    tags,
    status: 201,
    rawBody: { contentType: 'multipart/form-data', schema: UploadFormSchema },
    response: UploadAnswerSchema,
    errors: [403, 413, 415, 503],
    handler: async ({ req }) => {
      const { song } = await streamUpload(req, () => uploads.uploadSong(), options.maxBytes);
      if (!song) throw new Error('upload answered without a song');
      return { songId: song.songId, status: statusName(song.status) };
    },
  });

  route(deps, {
    method: 'post',
    path: TRANSCODER_CALLBACK_PATH,
    summary: "An external transcoder's completion notice (HMAC-signed; idempotent)",
    tags,
    auth: 'public',
    rawBody: { contentType: 'application/json', schema: TranscoderNotificationSchema },
    response: z.object({ songId: z.uuid(), status: z.string(), changed: z.boolean() }).openapi('TranscoderNotificationRecorded'),
    errors: [401, 404, 409],
    handler: async ({ req }) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const header = (name: string) => String(req.headers[name] ?? '');
      const { song, changed } = await uploads.recordTranscoderNotification({
        body,
        timestamp: header('x-transcoder-timestamp'),
        signature: header('x-transcoder-signature'),
      });
      if (!song) throw new Error('notification answered without a song');
      return { songId: song.songId, status: statusName(song.status), changed };
    },
  });
}
