import type { EntityManager } from '@mikro-orm/postgresql';
import { AvatarServiceService } from '@spinroom/contracts/points/v1/avatars';
import { RankingServiceService, SeasonServiceService } from '@spinroom/contracts/points/v1/seasons';
import { ConsumableServiceService, TokenBundleServiceService } from '@spinroom/contracts/points/v1/shop';
import { ShopFileServiceService } from '@spinroom/contracts/points/v1/shop_files';
import { TokenServiceService } from '@spinroom/contracts/points/v1/tokens';
import { PaymentServiceClient } from '@spinroom/contracts/payment/v1/payment';
import { RoomServiceClient } from '@spinroom/contracts/room/v1/room_service';
import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { defineService, startIdempotentConsumer, type EventHandler } from '@spinroom/platform';
import { SharpResizer } from '@spinroom/platform/media';
import { RoomServiceEntrance } from './adapters/room-entrance.js';
import { PaymentServiceSubscriptions } from './adapters/subscriptions.js';
import { pointsServiceConfig } from './config.js';
import { pointsDatabase } from './db/database.js';
import { awardSeasonAvatars, PgAvatarStore } from './db/avatar-store.js';
import { PgConsumableStore } from './db/consumable-store.js';
import type { AddedPoints } from './db/point-store.js';
import { PgRankingStore } from './db/ranking-store.js';
import { PgSeasonStore } from './db/season-store.js';
import { PgShopFileStore } from './db/shop-file-store.js';
import { PgTokenBundleStore } from './db/token-bundle-store.js';
import { PgTokenStore } from './db/token-store.js';
import { Avatars } from './domain/avatars.js';
import { Consumables } from './domain/consumables.js';
import { Rankings } from './domain/rankings.js';
import { Seasons } from './domain/seasons.js';
import { ShopFiles } from './domain/shop-files.js';
import { TokenBundles } from './domain/token-bundles.js';
import { Tokens } from './domain/tokens.js';
import { POINTS_EVENTS_TOPIC } from './events/points-events.js';
import { ROOM_EVENTS_TOPIC, roomEventsHandler } from './events/room-events.js';
import { PLAY_TRACKING_TOPIC, playTrackingHandler } from './events/play-tracking.js';
import { USER_EVENTS_TOPIC, userEventsHandler } from './events/user-events.js';
import { consumableServiceHandlers, tokenBundleServiceHandlers } from './rpc/shop-service.js';
import { avatarServiceHandlers } from './rpc/avatar-service.js';
import { rankingServiceHandlers } from './rpc/ranking-service.js';
import { seasonServiceHandlers } from './rpc/season-service.js';
import { shopFileServiceHandlers } from './rpc/shop-file-service.js';
import { tokenServiceHandlers } from './rpc/token-service.js';

/**
 * The gRPC server (spinroom.points.v1.TokenService, ConsumableService,
 * TokenBundleService, ShopFileService, SeasonService and RankingService), the user-events consumer
 * that gives each new user a token account, and the sweep that voids expired
 * holds and forgets old idempotency keys. `now` is the clock (tests). The
 * service kit opens and closes the rest (packages/platform/src/kit).
 */
export const pointsService = defineService('points', {
  config: pointsServiceConfig,
  peers: { user: UserServiceClient, room: RoomServiceClient, payment: PaymentServiceClient },
  database: pointsDatabase,
  topics: [USER_EVENTS_TOPIC, ROOM_EVENTS_TOPIC, PLAY_TRACKING_TOPIC, POINTS_EVENTS_TOPIC],
  async build({ config, logger, orm, kafka, relay, unary, clientStream, peers, serviceToken }, options: { now?: () => Date }) {
    // A purchase's event (the room's chat shows it) goes out through the outbox.
    const ledger = new PgTokenStore(orm, () => relay.nudge(), { lanes: config.TOKEN_WRITE_LANES, maxBatch: config.TOKEN_WRITE_BATCH });
    const tokens = new Tokens(
      ledger,
      { holdTtlSeconds: config.TOKEN_HOLD_TTL_SECONDS, maxHoldTtlSeconds: config.TOKEN_HOLD_MAX_TTL_SECONDS },
      options.now,
    );
    const consumables = new Consumables(new PgConsumableStore(orm), ledger, new RoomServiceEntrance(peers.room, serviceToken), options.now);
    const bundles = new TokenBundles(new PgTokenBundleStore(orm), options.now);
    const files = new ShopFiles(new PgShopFileStore(orm), new SharpResizer(), options.now);
    const seasons = new Seasons(new PgSeasonStore(orm), options.now);
    // A season's award is assigned in the transaction of the points that earn it.
    const clock = options.now ?? (() => new Date());
    const award = (em: EntityManager, added: AddedPoints) => awardSeasonAvatars(em, added, clock());
    const rankings = new Rankings(new PgRankingStore(orm), seasons, options.now, award);
    const avatars = new Avatars(new PgAvatarStore(orm), seasons, new PaymentServiceSubscriptions(peers.payment, serviceToken), options.now);
    const earning = {
      minListenMs: config.POINTS_MIN_LISTEN_SECONDS * 1000,
      minAccountAgeMs: config.POINTS_MIN_ACCOUNT_AGE_HOURS * 3_600_000,
    };
    // One consumer per topic read, each in its own group (sign-ups keep the
    // service's group), so a backlog of plays never holds up new accounts:
    // sign-ups, the plays points are earned from, and listeners' own play
    // reports (spec 002's play tracking record, from the audit service).
    const handlers: Array<{ topic: string; groupId: string; handle: EventHandler }> = [
      { topic: USER_EVENTS_TOPIC, groupId: config.KAFKA_CONSUMER_GROUP, handle: userEventsHandler(options.now) },
      {
        topic: ROOM_EVENTS_TOPIC,
        groupId: `${config.KAFKA_CONSUMER_GROUP}.${ROOM_EVENTS_TOPIC}`,
        handle: roomEventsHandler(earning, { now: options.now, onAdded: award }),
      },
      {
        topic: PLAY_TRACKING_TOPIC,
        groupId: `${config.KAFKA_CONSUMER_GROUP}.${PLAY_TRACKING_TOPIC}`,
        handle: playTrackingHandler({ now: options.now, onAdded: award }),
      },
    ];
    const deadLetters = await kafka.producer();
    const consumers = await Promise.all(
      handlers.map(({ topic, groupId, handle }) =>
        startIdempotentConsumer({ kafka, orm, groupId, topics: [topic], handle, deadLetters, logger }),
      ),
    );
    // Reads and writes expire an account's due holds themselves; the sweep
    // ends the holds of accounts nobody touches. Every replica sweeps: the
    // account's row lock keeps them from ending a hold twice.
    let sweeping: Promise<unknown> = Promise.resolve();
    const sweep = setInterval(() => {
      sweeping = tokens.sweep(config.TOKEN_IDEMPOTENCY_KEY_HOURS).then(
        (swept) => {
          if (swept.expired > 0 || swept.forgotten > 0) logger.info(swept, 'token sweep');
        },
        (error: unknown) => logger.error({ err: error }, 'token sweep failed'),
      );
    }, config.TOKEN_SWEEP_MS);
    return {
      services: [
        {
          name: 'spinroom.points.v1.TokenService',
          definition: TokenServiceService,
          implementation: tokenServiceHandlers({ tokens, unary, logger }),
        },
        {
          name: 'spinroom.points.v1.ConsumableService',
          definition: ConsumableServiceService,
          implementation: consumableServiceHandlers({ consumables, unary }),
        },
        {
          name: 'spinroom.points.v1.TokenBundleService',
          definition: TokenBundleServiceService,
          implementation: tokenBundleServiceHandlers({ bundles, unary }),
        },
        {
          name: 'spinroom.points.v1.ShopFileService',
          definition: ShopFileServiceService,
          implementation: shopFileServiceHandlers({ files, unary, clientStream }),
        },
        {
          name: 'spinroom.points.v1.SeasonService',
          definition: SeasonServiceService,
          implementation: seasonServiceHandlers({ seasons, unary }),
        },
        {
          name: 'spinroom.points.v1.RankingService',
          definition: RankingServiceService,
          implementation: rankingServiceHandlers({ rankings, unary }),
        },
        {
          name: 'spinroom.points.v1.AvatarService',
          definition: AvatarServiceService,
          implementation: avatarServiceHandlers({ avatars, unary }),
        },
      ],
      async stop() {
        clearInterval(sweep);
        await sweeping;
        for (const consumer of consumers) await consumer.stop();
        await deadLetters.disconnect();
      },
      expose: { tokens, consumables, bundles, seasons, rankings, avatars },
    };
  },
});

export type RunningPointsService = Awaited<ReturnType<typeof pointsService.start>>;
export const startPointsService = pointsService.start;
