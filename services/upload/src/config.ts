import { resolve } from 'node:path';
import { env } from '@spinroom/platform';
import { z } from 'zod';

const positiveInt = () => z.coerce.number().int().positive();

/** The upload service's environment, read once at start-up. */
export const uploadServiceConfig = {
  DATABASE_URL: env.url(['postgres', 'postgresql']),
  KAFKA_BROKERS: env.list(),
  GRPC_HOST: z.string().default('127.0.0.1'),
  GRPC_PORT: env.port(50053),
  /** The user service, whose public key verifies callers' tokens. */
  USER_ADDR: env.address(),
  JWT_ISSUER: z.string().min(1).default('spinroom'),
  /** Root of the local-folder object store (originals, HLS output) and of the scratch space. */
  UPLOAD_STORAGE_DIR: z.string().min(1).default(resolve(import.meta.dirname, '../../../.local/uploads')),
  /** Largest accepted file, in bytes (50 MB). */
  UPLOAD_MAX_BYTES: positiveInt().default(50 * 1024 * 1024),
  /** Signs the short-lived tokens in HLS key URIs (HMAC-SHA256). */
  HLS_KEY_SECRET: z.string().min(32, 'must be at least 32 characters'),
  /** How long a playlist's key URI stays valid. */
  HLS_KEY_TOKEN_TTL_SECONDS: positiveInt().default(6 * 3600),
  /** Shared secret of `POST /upload/transcoder_sns` (HMAC-SHA256 of the body). */
  TRANSCODER_CALLBACK_SECRET: z.string().min(32, 'must be at least 32 characters'),
  /** Transcoding jobs run at once by this process; 0 leaves the queue to an external transcoder. */
  TRANSCODE_CONCURRENCY: z.coerce.number().int().min(0).default(2),
  /** Jobs waiting or running past which a new upload is VERIFICATION_POSTPONED. */
  TRANSCODE_QUEUE_LIMIT: z.coerce.number().int().min(0).default(50),
  /** A claimed job is another worker's to retry when its lease runs out (renewed while ffmpeg runs). */
  TRANSCODE_LEASE_SECONDS: positiveInt().default(60),
  TRANSCODE_MAX_ATTEMPTS: positiveInt().default(3),
  /** Wait before the first retry; doubled for each further attempt. */
  TRANSCODE_RETRY_DELAY_MS: positiveInt().default(30_000),
  /** ffmpeg is killed past this. */
  TRANSCODE_TIMEOUT_SECONDS: positiveInt().default(900),
  TRANSCODE_POLL_MS: positiveInt().default(1_000),
  /** Caps how fast ffmpeg reads its input (x real time) to bound CPU per job; unset: as fast as it can. */
  TRANSCODE_READRATE: z.coerce.number().positive().optional(),
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  FFPROBE_PATH: z.string().min(1).default('ffprobe'),
  OUTBOX_POLL_MS: positiveInt().default(250),
  LOG_LEVEL: env.logLevel(),
};

export type UploadServiceConfig = z.infer<z.ZodObject<typeof uploadServiceConfig>>;
