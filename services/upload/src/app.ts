import { join } from 'node:path';
import { UploadServiceService } from '@spinroom/contracts/upload/v1/upload_service';
import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { defineService, Limit } from '@spinroom/platform';
import { objectStoreSettings, uploadServiceConfig } from './config.js';
import { PgJobQueue } from './db/job-queue.js';
import { uploadDatabase } from './db/database.js';
import { PgSongStore } from './db/song-store.js';
import { KeyTokens } from './domain/hls.js';
import { Songs, UPLOADS_PER_USER } from './domain/songs.js';
import { UPLOAD_EVENTS_TOPIC, uploadEvent } from './events/upload-events.js';
import { FfmpegProbe } from './media/probe.js';
import { FfmpegTranscoder, type Transcoder } from './media/transcoder.js';
import { uploadServiceHandlers } from './rpc/upload-service.js';
import { LocalFolderStore } from './storage/local-folder-store.js';
import type { ObjectStore } from './storage/object-store.js';
import { S3Store } from './storage/s3-store.js';
import { ScratchSpace } from './storage/scratch.js';
import { TranscodeWorker } from './transcoding/worker.js';

/**
 * The gRPC server and the transcoding workers. How the UPLOAD_S3_* variables
 * combine is checked before anything opens (a ConfigError: exit code 78). The
 * service kit opens and closes the rest (packages/platform/src/kit). `stop`
 * kills running ffmpeg and hands its jobs back to the queue.
 */
export const uploadService = defineService('upload', {
  config: uploadServiceConfig,
  peers: { user: UserServiceClient },
  database: uploadDatabase,
  topics: [UPLOAD_EVENTS_TOPIC],
  check: objectStoreSettings,
  async build({ config, logger, orm, redis, relay, unary, clientStream }, options: { transcoder?: Transcoder }) {
    const storage = objectStoreSettings(config);
    const objects: ObjectStore = storage.kind === 's3' ? new S3Store(storage) : new LocalFolderStore(storage.root);
    logger.info(
      storage.kind === 's3'
        ? { objectStore: 's3', bucket: storage.bucket, endpoint: storage.endpoint, keyPrefix: storage.keyPrefix }
        : { objectStore: 'local', root: storage.root },
      'object store',
    );
    const scratch = new ScratchSpace(join(config.UPLOAD_STORAGE_DIR, 'work'));
    await scratch.init();
    let worker: TranscodeWorker | undefined;
    const songs = new Songs(
      new PgSongStore(orm, uploadEvent, () => relay.nudge()),
      objects,
      new FfmpegProbe(config.FFPROBE_PATH, config.FFMPEG_PATH),
      new KeyTokens(config.HLS_KEY_SECRET, config.HLS_KEY_TOKEN_TTL_SECONDS),
      scratch,
      {
        maxBytes: config.UPLOAD_MAX_BYTES,
        uploadLimit: new Limit(redis, UPLOADS_PER_USER, config.LIMIT_UPLOADS_PER_USER),
        queueLimit: config.TRANSCODE_QUEUE_LIMIT,
        retry: { maxAttempts: config.TRANSCODE_MAX_ATTEMPTS, baseDelayMs: config.TRANSCODE_RETRY_DELAY_MS },
        transcoderSecret: config.TRANSCODER_CALLBACK_SECRET,
      },
      () => worker?.nudge(),
    );
    const transcodeWorker = new TranscodeWorker(
      new PgJobQueue(orm),
      songs,
      objects,
      scratch,
      options.transcoder ?? new FfmpegTranscoder(config.FFMPEG_PATH, config.TRANSCODE_READRATE),
      logger.child({ component: 'transcoder' }),
      {
        concurrency: config.TRANSCODE_CONCURRENCY,
        pollMs: config.TRANSCODE_POLL_MS,
        leaseMs: config.TRANSCODE_LEASE_SECONDS * 1000,
        timeoutMs: config.TRANSCODE_TIMEOUT_SECONDS * 1000,
        maxAttempts: config.TRANSCODE_MAX_ATTEMPTS,
      },
    );
    worker = transcodeWorker;
    transcodeWorker.start();
    return {
      services: [
        {
          name: 'spinroom.upload.v1.UploadService',
          definition: UploadServiceService,
          implementation: uploadServiceHandlers({ songs, unary, clientStream }),
        },
      ],
      async stop() {
        await transcodeWorker.stop();
        if (objects instanceof S3Store) objects.destroy();
      },
    };
  },
});

export type RunningUploadService = Awaited<ReturnType<typeof uploadService.start>>;
export const startUploadService = uploadService.start;
