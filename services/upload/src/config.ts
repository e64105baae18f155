import { join, resolve } from 'node:path';
import { ConfigError, env, serviceConfig, type ConfigOf } from '@spinroom/platform/core';
import { z } from 'zod';

const positiveInt = () => z.coerce.number().int().positive();

/**
 * The upload service's environment, read once at start-up: the base and what
 * its entry in the list of services needs (its database; Redis, where the
 * upload limit is counted; Kafka and its outbox; the user service), then its own variables.
 */
export const uploadServiceConfig = serviceConfig('upload', {
  /** Root of the local-folder object store (originals, HLS output) and of the scratch space. */
  UPLOAD_STORAGE_DIR: z
    .string()
    .min(1)
    .default(resolve(import.meta.dirname, '../../../.local/uploads')),
  /**
   * S3-compatible object store: set a bucket and originals and HLS output go
   * there instead of `<UPLOAD_STORAGE_DIR>/objects` (the scratch space stays
   * local). See `objectStoreSettings` for how the variables combine.
   */
  UPLOAD_S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 of a-z 0-9 . -)')
    .optional(),
  /** The S3-compatible service's URL (MinIO, R2, Ceph...); unset: AWS S3 in UPLOAD_S3_REGION. */
  UPLOAD_S3_ENDPOINT: env.url(['http', 'https']).optional(),
  /** Signing region (us-east-1 when unset). */
  UPLOAD_S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'must be a region name such as eu-west-1')
    .optional(),
  UPLOAD_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  UPLOAD_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Path-style addressing (`<endpoint>/<bucket>/<key>`); default true with an endpoint, false without. */
  UPLOAD_S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0'], 'must be true or false')
    .transform((v) => v === 'true' || v === '1')
    .optional(),
  /** Prepended to every object key, to share a bucket (`spinroom/` -> `spinroom/hls/<id>/...`). */
  UPLOAD_S3_KEY_PREFIX: z
    .string()
    .transform((v) => (v.endsWith('/') ? v : `${v}/`))
    .pipe(z.string().regex(/^([a-z0-9][a-z0-9._-]*\/)+$/i, 'must be folder names of a-z 0-9 . _ - separated by /'))
    .optional(),
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
  /** Song uploads per user: 20 an hour (README, Limits). */
  LIMIT_UPLOADS_PER_USER: env.limit('20/1h'),
});

export type UploadServiceConfig = ConfigOf<typeof uploadServiceConfig>;

export type ObjectStoreSettings =
  | { kind: 'local'; root: string }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      endpoint?: string;
      forcePathStyle: boolean;
      credentials?: { accessKeyId: string; secretAccessKey: string };
      keyPrefix: string;
    };

/**
 * Which object store the config asks for. A bucket means S3 (credentials from
 * the two key variables, or when both are unset the SDK's default chain:
 * AWS_* variables, profiles, instance roles); no UPLOAD_S3_* at all means the
 * local folder. Anything half-set is a ConfigError naming what is missing.
 */
export function objectStoreSettings(config: UploadServiceConfig): ObjectStoreSettings {
  const issues: string[] = [];
  const s3Set = (Object.keys(config) as Array<keyof UploadServiceConfig>).filter(
    (name) => name.startsWith('UPLOAD_S3_') && config[name] !== undefined,
  );
  if (s3Set.length > 0 && !config.UPLOAD_S3_BUCKET)
    issues.push(`UPLOAD_S3_BUCKET: is required when ${s3Set.join(', ')} ${s3Set.length > 1 ? 'are' : 'is'} set`);
  if (config.UPLOAD_S3_ACCESS_KEY_ID !== undefined && config.UPLOAD_S3_SECRET_ACCESS_KEY === undefined) {
    issues.push('UPLOAD_S3_SECRET_ACCESS_KEY: is required when UPLOAD_S3_ACCESS_KEY_ID is set');
  }
  if (config.UPLOAD_S3_SECRET_ACCESS_KEY !== undefined && config.UPLOAD_S3_ACCESS_KEY_ID === undefined) {
    issues.push('UPLOAD_S3_ACCESS_KEY_ID: is required when UPLOAD_S3_SECRET_ACCESS_KEY is set');
  }
  if (issues.length > 0) throw new ConfigError(issues);
  if (!config.UPLOAD_S3_BUCKET) return { kind: 'local', root: join(config.UPLOAD_STORAGE_DIR, 'objects') };
  return {
    kind: 's3',
    bucket: config.UPLOAD_S3_BUCKET,
    region: config.UPLOAD_S3_REGION ?? 'us-east-1',
    ...(config.UPLOAD_S3_ENDPOINT ? { endpoint: config.UPLOAD_S3_ENDPOINT } : {}),
    forcePathStyle: config.UPLOAD_S3_FORCE_PATH_STYLE ?? config.UPLOAD_S3_ENDPOINT !== undefined,
    ...(config.UPLOAD_S3_ACCESS_KEY_ID && config.UPLOAD_S3_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: config.UPLOAD_S3_ACCESS_KEY_ID, secretAccessKey: config.UPLOAD_S3_SECRET_ACCESS_KEY } }
      : {}),
    keyPrefix: config.UPLOAD_S3_KEY_PREFIX ?? '',
  };
}
