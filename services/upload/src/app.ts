import { join } from 'node:path';
import { descriptorSetPath } from '@spinroom/contracts/descriptors';
import { UploadServiceService } from '@spinroom/contracts/upload/v1/upload_service';
import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import {
  createClientStreamingFactory,
  createGrpcClient,
  createLogger,
  createRedis,
  createUnaryFactory,
  KafkaClient,
  Limit,
  OutboxRelay,
  PublicKeyCache,
  startGrpcServer,
} from '@spinroom/platform';
import { objectStoreSettings, type UploadServiceConfig } from './config.js';
import { PgJobQueue } from './db/job-queue.js';
import { openUploadDatabase } from './db/orm.js';
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

export interface RunningUploadService {
  port: number;
  /** Stops serving, kills running ffmpeg and hands its jobs back to the queue. */
  stop(): Promise<void>;
}

/** Composition root: config -> dependencies -> gRPC server, transcoding workers and outbox relay. */
export async function startUploadService(
  config: UploadServiceConfig,
  options: { relay?: boolean; transcoder?: Transcoder } = {},
): Promise<RunningUploadService> {
  const storage = objectStoreSettings(config); // before anything opens: a half-set S3 config is a ConfigError
  const logger = createLogger('upload');
  const orm = await openUploadDatabase(config.DATABASE_URL, logger);
  const users = createGrpcClient(UserServiceClient, config.USER_ADDR);
  const keys = new PublicKeyCache(async () => (await users.getPublicKey({}, { deadlineMs: 2_000 })).publicKeyPem, config.JWT_ISSUER, logger);
  keys.start();

  const kafka = new KafkaClient({ brokers: config.KAFKA_BROKERS, clientId: 'upload', logger });
  await kafka.ensureTopics([{ topic: UPLOAD_EVENTS_TOPIC }]);
  const producer = await kafka.producer();
  const relay = new OutboxRelay(orm, producer, logger, { intervalMs: config.OUTBOX_POLL_MS });
  if (options.relay !== false) relay.start();

  let s3: S3Store | undefined;
  const objects: ObjectStore = storage.kind === 's3' ? (s3 = new S3Store(storage)) : new LocalFolderStore(storage.root);
  logger.info(
    storage.kind === 's3' ? { objectStore: 's3', bucket: storage.bucket, endpoint: storage.endpoint, keyPrefix: storage.keyPrefix } : { objectStore: 'local', root: storage.root },
    'object store',
  );
  const redis = createRedis(config.REDIS_URL);
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
  worker = new TranscodeWorker(
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
  worker.start();

  const verifier = () => keys.verifier;
  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    logger,
    descriptorSetPath,
    ready: () => keys.verifier !== undefined,
    services: [
      {
        name: 'spinroom.upload.v1.UploadService',
        definition: UploadServiceService,
        implementation: uploadServiceHandlers({
          songs,
          unary: createUnaryFactory({ verifier, logger }),
          clientStream: createClientStreamingFactory({ verifier, logger }),
        }),
      },
    ],
  });

  return {
    port: server.port,
    async stop() {
      await worker.stop();
      await server.shutdown();
      keys.stop();
      users.close();
      await relay.stop();
      await producer.disconnect();
      await orm.close();
      redis.disconnect();
      s3?.destroy();
    },
  };
}
