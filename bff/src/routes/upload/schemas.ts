import { z } from 'zod';
import '../../http/route.js'; // extends zod with .openapi()
import { LimitOffsetQuery } from '../../http/paging.js';

export const SONG_STATUS_NAMES = [
  'PENDING_UPLOAD',
  'VALID_FILE_TYPE',
  'MISSING_METADATA',
  'VERIFIED',
  'UNVERIFIED',
  'VERIFICATION_ERROR',
  'VERIFICATION_POSTPONED',
] as const;

/**
 * An uploaded song: the spec's Song fields that apply to an upload (a
 * MinimalCrateSongResDTO with `musicProviders.uploadService` = songId and the
 * HLS playlist as `streamUrls.uploadService`), plus the upload's own facts.
 */
export const UploadedSongSchema = z
  .object({
    songId: z.uuid(),
    trackName: z.string().nullable(),
    artistName: z.string().nullable(),
    /** Whole seconds. */
    duration: z.number().int(),
    durationMs: z.number().int(),
    genre: z.string().nullable(),
    isrc: z.string().nullable(),
    explicit: z.boolean(),
    status: z.enum(SONG_STATUS_NAMES),
    musicProviders: z.object({ uploadService: z.uuid() }),
    thumbnails: z.record(z.string(), z.string()),
    links: z.record(z.string(), z.string()),
    previews: z.record(z.string(), z.string()),
    streamUrls: z.object({ uploadService: z.string() }).openapi({ description: 'The HLS playlist; it plays once the song is VERIFIED' }),
    playbackToken: z.null(),
    uploaderUuid: z.uuid(),
    fileName: z.string(),
    contentType: z.string(),
    sizeBytes: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
    verifiedAt: z.string().nullable(),
  })
  .openapi('UploadedSong');

export const SongListSchema = z.object({ songs: z.array(UploadedSongSchema), count: z.number().int() }).openapi('UploadedSongList');

export const UploadFormSchema = z
  .object({
    file: z
      .string()
      .openapi({ type: 'string', format: 'binary', description: 'The audio file: MP3, M4A/AAC, WAV, FLAC, OGG/Opus, AIFF or WebM' }),
    trackName: z.string().max(255).optional(),
    artistName: z.string().max(255).optional(),
    genre: z.string().max(64).optional(),
    isrc: z.string().max(32).optional(),
  })
  .openapi('SongUploadForm');

export const UploadAnswerSchema = z.object({ songId: z.uuid(), status: z.enum(SONG_STATUS_NAMES) }).openapi('SongUploaded');

const tagFields = {
  trackName: z.string().max(255).optional(),
  artistName: z.string().max(255).optional(),
  /** null or "" clears it. */
  genre: z.string().max(64).nullable().optional(),
  isrc: z.string().max(32).nullable().optional(),
};

export const SongPatchSchema = z
  .object({
    ...tagFields,
    /** Moderators only: UNVERIFIED withdraws the song, VERIFIED lifts that. */
    status: z.enum(['UNVERIFIED', 'VERIFIED']).optional(),
  })
  .openapi('UploadedSongPatch');

export const MetadataSchema = z.object({ songId: z.uuid(), ...tagFields }).openapi('UploadedSongMetadata');

export const PageQuerySchema = LimitOffsetQuery;

export const TranscoderNotificationSchema = z
  .object({
    songId: z.uuid(),
    status: z.enum(['COMPLETE', 'ERROR']),
    error: z.string().optional(),
  })
  .openapi('TranscoderNotification', {
    description:
      'Signed with headers x-transcoder-timestamp (unix seconds) and x-transcoder-signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">. An SNS envelope {Type: "Notification", Message: "<this JSON>"} is accepted too.',
  });
