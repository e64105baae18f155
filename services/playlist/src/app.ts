import { PlaylistServiceService } from '@spinroom/contracts/playlist/v1/playlist_service';
import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { defineService, startIdempotentConsumer } from '@spinroom/platform';
import { playlistServiceConfig } from './config.js';
import { PgAnalysisStore } from './db/analysis-store.js';
import { advanceGenerationOnChanges } from './db/catalogue-changes.js';
import { PgCatalogueStore } from './db/catalogue-store.js';
import { PgCrateStore } from './db/crate-store.js';
import { PgCrateImportStore } from './db/import-store.js';
import { playlistDatabase } from './db/database.js';
import { PgSongPlayStore } from './db/song-play-store.js';
import { PgSongSearch } from './db/pg-song-search.js';
import { PgSongStore } from './db/song-store.js';
import { AnalysisWebhook } from './domain/analysis.js';
import { CrateImports, startCrateImportWorker } from './domain/crate-imports.js';
import { Crates } from './domain/crates.js';
import { CrateExports } from './domain/exports.js';
import { ROOM_EFFECT_DEFAULTS, startRoomEffectPruner } from './domain/room-effects.js';
import { SongData } from './domain/song-data.js';
import { CachedSongSearch } from './domain/song-search.js';
import { ROOM_EVENTS_TOPIC, roomEventsHandler } from './events/room-events.js';
import { UPLOAD_EVENTS_TOPIC, uploadEventsHandler } from './events/upload-events.js';
import { createProviders, type MusicProviders } from './providers/index.js';
import { playlistServiceHandlers } from './rpc/playlist-service.js';

/**
 * The gRPC server, the upload- and room-events consumer, the crate import
 * worker and the pruning of the room effects applied here. `providers` defaults to the outside catalogues configured in the
 * environment. The service kit opens and closes the rest (packages/platform/src/kit).
 */
export const playlistService = defineService('playlist', {
  config: playlistServiceConfig,
  peers: { user: UserServiceClient },
  database: playlistDatabase,
  topics: [UPLOAD_EVENTS_TOPIC, ROOM_EVENTS_TOPIC],
  async build({ config, logger, orm, kafka, redis, unary }, options: { providers?: MusicProviders }) {
    const providers = options.providers ?? createProviders(process.env, { logger });
    const catalogue = new PgCatalogueStore(orm);
    const songs = new PgSongStore(orm, catalogue);
    const crateStore = new PgCrateStore(orm);
    const crates = new Crates(crateStore, songs);
    const songData = new SongData(providers, songs, orm);
    const plays = new PgSongPlayStore(orm);
    const imports = new CrateImports({
      crates,
      crateStore,
      songs,
      jobs: new PgCrateImportStore(orm),
      providers,
      logger,
      settings: { leaseSeconds: config.CRATE_IMPORT_LEASE_SECONDS, retryDelayMs: config.CRATE_IMPORT_RETRY_DELAY_MS },
    });
    const importWorker = startCrateImportWorker(imports, { pollMs: config.CRATE_IMPORT_POLL_MS, logger });
    const effectPruner = startRoomEffectPruner(crateStore, {
      retentionMs: (config.ROOM_EFFECT_RETENTION_HOURS ?? ROOM_EFFECT_DEFAULTS.retentionHours) * 3_600_000,
      batch: config.ROOM_EFFECT_PRUNE_BATCH ?? ROOM_EFFECT_DEFAULTS.batch,
      everyMs: config.ROOM_EFFECT_PRUNE_MS ?? ROOM_EFFECT_DEFAULTS.everyMs,
      logger,
    });
    const exports = new CrateExports(crates, providers);
    const analysis = new AnalysisWebhook(providers.cyanite, new PgAnalysisStore(orm), logger);
    const deadLetters = await kafka.producer();
    const onUpload = uploadEventsHandler(songs);
    const onRoom = roomEventsHandler(plays);
    const songSearch = new PgSongSearch(orm);
    const catalogueChanges = await advanceGenerationOnChanges(orm, redis, logger);
    const consumer = await startIdempotentConsumer({
      kafka,
      orm,
      groupId: config.KAFKA_CONSUMER_GROUP,
      topics: [UPLOAD_EVENTS_TOPIC, ROOM_EVENTS_TOPIC],
      // Event types name their topic (`upload.*`, `room.*`).
      handle: (event, em) => (event.eventType.startsWith('room.') ? onRoom(event, em) : onUpload(event, em)),
      deadLetters,
      logger,
    });
    return {
      services: [
        {
          name: 'spinroom.playlist.v1.PlaylistService',
          definition: PlaylistServiceService,
          implementation: playlistServiceHandlers({
            crates,
            songs,
            search: new CachedSongSearch(songSearch, {
              ttlMs: config.SEARCH_CACHE_MS ?? 5000,
              generationTtlMs: config.SEARCH_CACHE_GENERATION_MS ?? 300_000,
              maxEntries: config.SEARCH_CACHE_ENTRIES ?? 10_000,
            }),
            catalogue,
            songData,
            plays,
            sevenDigital: providers.sevenDigital,
            imports,
            wakeImports: importWorker.wake,
            exports,
            analysis,
            unary,
          }),
        },
      ],
      async stop() {
        await importWorker.stop();
        await effectPruner.stop();
        await consumer.stop();
        await deadLetters.disconnect();
        await songSearch.close();
        await catalogueChanges.stop();
      },
    };
  },
});

export type RunningPlaylistService = Awaited<ReturnType<typeof playlistService.start>>;
export const startPlaylistService = playlistService.start;
