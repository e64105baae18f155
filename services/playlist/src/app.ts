import { descriptorSetPath } from '@spinroom/contracts/descriptors';
import { PlaylistServiceService } from '@spinroom/contracts/playlist/v1/playlist_service';
import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import {
  createGrpcClient,
  createLogger,
  createUnaryFactory,
  KafkaClient,
  PublicKeyCache,
  startGrpcServer,
  startIdempotentConsumer,
} from '@spinroom/platform';
import type { PlaylistServiceConfig } from './config.js';
import { PgAnalysisStore } from './db/analysis-store.js';
import { PgCatalogueStore } from './db/catalogue-store.js';
import { PgCrateStore } from './db/crate-store.js';
import { PgCrateImportStore } from './db/import-store.js';
import { openPlaylistDatabase } from './db/orm.js';
import { PgSongPlayStore } from './db/song-play-store.js';
import { PgSongStore } from './db/song-store.js';
import { AnalysisWebhook } from './domain/analysis.js';
import { CrateImports, startCrateImportWorker } from './domain/crate-imports.js';
import { Crates } from './domain/crates.js';
import { CrateExports } from './domain/exports.js';
import { SongData } from './domain/song-data.js';
import { ROOM_EVENTS_TOPIC, roomEventsHandler } from './events/room-events.js';
import { UPLOAD_EVENTS_TOPIC, uploadEventsHandler } from './events/upload-events.js';
import { createProviders, type MusicProviders } from './providers/index.js';
import { playlistServiceHandlers } from './rpc/playlist-service.js';

export interface RunningPlaylistService {
  port: number;
  stop(): Promise<void>;
}

/**
 * Composition root: config -> dependencies -> gRPC server and upload-events
 * consumer. `providers` defaults to the outside catalogues configured in the environment.
 */
export async function startPlaylistService(
  config: PlaylistServiceConfig,
  options: { providers?: MusicProviders } = {},
): Promise<RunningPlaylistService> {
  const logger = createLogger('playlist');
  const providers = options.providers ?? createProviders(process.env, { logger });
  const orm = await openPlaylistDatabase(config.DATABASE_URL, logger);
  const users = createGrpcClient(UserServiceClient, config.USER_ADDR);
  const keys = new PublicKeyCache(async () => (await users.getPublicKey({}, { deadlineMs: 2_000 })).publicKeyPem, config.JWT_ISSUER, logger);
  keys.start();

  const catalogue = new PgCatalogueStore(orm);
  const songs = new PgSongStore(orm, catalogue);
  const crateStore = new PgCrateStore(orm);
  const crates = new Crates(crateStore, songs);
  const songData = new SongData(providers, songs, orm);
  const plays = new PgSongPlayStore(orm);
  const imports = new CrateImports({
    crates, crateStore, songs, jobs: new PgCrateImportStore(orm), providers, logger,
    settings: { leaseSeconds: config.CRATE_IMPORT_LEASE_SECONDS, retryDelayMs: config.CRATE_IMPORT_RETRY_DELAY_MS },
  });
  const importWorker = startCrateImportWorker(imports, { pollMs: config.CRATE_IMPORT_POLL_MS, logger });
  const exports = new CrateExports(crates, providers);
  const analysis = new AnalysisWebhook(providers.cyanite, new PgAnalysisStore(orm), logger);
  const kafka = new KafkaClient({ brokers: config.KAFKA_BROKERS, clientId: 'playlist', logger });
  await kafka.ensureTopics([{ topic: UPLOAD_EVENTS_TOPIC }, { topic: ROOM_EVENTS_TOPIC }]);
  const deadLetters = await kafka.producer();
  const onUpload = uploadEventsHandler(songs);
  const onRoom = roomEventsHandler(plays);
  const uploads = await startIdempotentConsumer({
    kafka, orm, groupId: config.KAFKA_CONSUMER_GROUP, topics: [UPLOAD_EVENTS_TOPIC, ROOM_EVENTS_TOPIC],
    // Event types name their topic (`upload.*`, `room.*`).
    handle: (event, em) => (event.eventType.startsWith('room.') ? onRoom(event, em) : onUpload(event, em)),
    deadLetters, logger,
  });

  const unary = createUnaryFactory({ verifier: () => keys.verifier, logger });
  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    logger,
    descriptorSetPath,
    ready: () => keys.verifier !== undefined,
    services: [
      { name: 'spinroom.playlist.v1.PlaylistService', definition: PlaylistServiceService, implementation: playlistServiceHandlers({
        crates, songs, catalogue, songData, plays, sevenDigital: providers.sevenDigital, imports, wakeImports: importWorker.wake, exports, analysis, unary,
      }) },
    ],
  });

  return {
    port: server.port,
    async stop() {
      await server.shutdown();
      await importWorker.stop();
      await uploads.stop();
      await deadLetters.disconnect();
      keys.stop();
      users.close();
      await orm.close();
    },
  };
}
