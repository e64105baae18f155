import { AuditServiceService } from '@spinroom/contracts/audit/v1/audit';
import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { defineService, startIdempotentConsumer } from '@spinroom/platform';
import { auditServiceConfig } from './config.js';
import { auditDatabase } from './db/database.js';
import { PgModerationActionStore } from './db/moderation-store.js';
import { PgPlayStore } from './db/play-store.js';
import { Analytics } from './domain/analytics.js';
import { geoipLite, Geolocator, type GeoDatabase } from './domain/geolocation.js';
import { ModerationActions } from './domain/moderation-actions.js';
import { BatchingRecordSink } from './events/analytics-records.js';
import { MODERATION_ACTIONS_TOPIC, moderationActionsHandler } from './events/moderation-actions.js';
import { RECORD_TOPICS, startRecordConsumer } from './events/play-tracking.js';
import { auditServiceHandlers } from './rpc/audit-service.js';

/**
 * The gRPC server (spinroom.audit.v1.AuditService): `/kinesis` records into
 * Kafka, the play-tracking aggregates' consumer, the moderation-actions
 * consumer and list, event names, last events, status and geolocation. The
 * service kit opens and closes the rest (packages/platform/src/kit).
 * `now` is the clock, `geoDatabase` the geolocation database (tests).
 */
export const auditService = defineService('audit', {
  config: auditServiceConfig,
  peers: { user: UserServiceClient },
  database: auditDatabase,
  topics: [...RECORD_TOPICS, MODERATION_ACTIONS_TOPIC],
  async build(
    { config, logger, orm, kafka, unary, verifier },
    options: { now?: () => Date; geoDatabase?: () => Promise<GeoDatabase>; onCounted?: (counted: number, messages: number) => void },
  ) {
    const producer = await kafka.producer();
    const sink = new BatchingRecordSink(producer, { lingerMs: config.KINESIS_LINGER_MS, maxBatch: config.KINESIS_MAX_BATCH });
    const analytics = new Analytics(sink, options.now);
    const actions = new ModerationActions(new PgModerationActionStore(orm), options.now);
    const plays = new PgPlayStore(orm);
    const geolocator = new Geolocator(options.geoDatabase ?? geoipLite);
    // Plays and actions are read in groups of their own, so a backlog of plays never holds up the moderation log.
    const [records, moderation] = await Promise.all([
      startRecordConsumer({
        kafka,
        orm,
        groupId: `${config.KAFKA_CONSUMER_GROUP}.${RECORD_TOPICS[0]}`,
        deadLetters: producer,
        logger,
        onCounted: options.onCounted,
      }),
      startIdempotentConsumer({
        kafka,
        orm,
        groupId: config.KAFKA_CONSUMER_GROUP,
        topics: [MODERATION_ACTIONS_TOPIC],
        handle: moderationActionsHandler(options.now),
        deadLetters: producer,
        logger,
      }),
    ]);
    // Every replica prunes: deleting what another already deleted costs nothing.
    let pruning: Promise<unknown> = Promise.resolve();
    const prune = setInterval(() => {
      const before = new Date((options.now?.() ?? new Date()).getTime() - config.PLAY_SEEN_RETENTION_DAYS * 86_400_000);
      pruning = plays.forgetSeen(before).then(
        (forgotten) => forgotten > 0 && logger.info({ forgotten, before }, 'counted plays forgotten'),
        (error: unknown) => logger.error({ err: error }, 'pruning counted plays failed'),
      );
    }, config.PLAY_SEEN_PRUNE_MS);
    return {
      services: [
        {
          name: 'spinroom.audit.v1.AuditService',
          definition: AuditServiceService,
          implementation: auditServiceHandlers({ analytics, verifier, actions, plays, geolocator, logger, unary, startedAt: new Date() }),
        },
      ],
      async stop() {
        clearInterval(prune);
        await pruning;
        await sink.drained();
        await records.stop();
        await moderation.stop();
        await producer.disconnect();
      },
      expose: { analytics, actions, plays },
    };
  },
});

export type RunningAuditService = Awaited<ReturnType<typeof auditService.start>>;
export const startAuditService = auditService.start;
