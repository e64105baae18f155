import { AuditServiceClient } from '@spinroom/contracts/audit/v1/audit';
import { PlaylistServiceClient } from '@spinroom/contracts/playlist/v1/playlist_service';
import { TokenServiceClient } from '@spinroom/contracts/points/v1/tokens';
import { CommunityServiceService } from '@spinroom/contracts/room/v1/community_service';
import { RoomServiceService } from '@spinroom/contracts/room/v1/room_service';
import { SocialServiceClient } from '@spinroom/contracts/social/v1/social_service';
import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { defineService, Limit, startIdempotentConsumer, type PromiseClient, type ServiceTokenSource } from '@spinroom/platform';
import { roomServiceConfig } from './config.js';
import { RedisAdmissions } from './db/admission-store.js';
import { PgCommunityStore } from './db/community-store.js';
import { roomDatabase } from './db/database.js';
import { PgRoomStore } from './db/room-store.js';
import { ROOM_PASSWORD_FAILURES } from './domain/room-passwords.js';
import { Communities } from './domain/communities.js';
import { Rooms, type BadgeSource } from './domain/rooms.js';
import { NOTIFICATIONS_TOPIC } from './events/community-notifications.js';
import { MODERATION_ACTIONS_TOPIC } from './events/moderation-actions.js';
import { ROOM_EVENTS_TOPIC } from './events/room-events.js';
import { USER_EVENTS_TOPIC, userEventsHandler } from './events/user-events.js';
import { CachedProfiles, playlistQueues } from './live-rooms/adapters.js';
import { EntryFees, pointsLedger } from './live-rooms/entry-fees.js';
import { LiveRooms } from './live-rooms/live-rooms.js';
import { LiveStore } from './live-rooms/live-store.js';
import { PgPlayLog } from './live-rooms/play-log.js';
import { RoomClock } from './live-rooms/room-clock.js';
import { roomDirectory } from './live-rooms/room-directory.js';
import { liveRoomPort } from './live-rooms/room-port.js';
import { liveRoomHandlers } from './rpc/live-room.js';
import { communityServiceHandlers } from './rpc/community-service.js';
import { roomServiceHandlers } from './rpc/room-service.js';
import { EventClock } from './schedule/event-clock.js';

/**
 * The gRPC server and the rooms' clock. The room records (PostgreSQL) and the
 * live rooms (Redis) know each other through two small ports: the records tell
 * the live rooms about kicks and changes; the live rooms ask the records who
 * may do what. The service kit opens and closes the rest (packages/platform/src/kit).
 */
export const roomService = defineService('room', {
  config: roomServiceConfig,
  peers: {
    user: UserServiceClient,
    playlist: PlaylistServiceClient,
    points: TokenServiceClient,
    audit: AuditServiceClient,
    social: SocialServiceClient,
  },
  database: roomDatabase,
  topics: [ROOM_EVENTS_TOPIC, MODERATION_ACTIONS_TOPIC, NOTIFICATIONS_TOPIC, USER_EVENTS_TOPIC],
  async build({ config, logger, orm, redis, kafka, relay, peers, serviceToken, unary }, options: { clock?: boolean }) {
    const users = peers.user;
    const store = new PgRoomStore(orm, () => relay.nudge(), logger, redis);
    const plays = new PgPlayLog(store);
    // The VERIFIED badge, from the user's profile (asked with the current caller's token).
    const badges: BadgeSource = {
      badgesOf: async (userUuid) => (await users.getProfile({ userUuid })).profile?.badges ?? [],
    };
    // The records first: they reach the live rooms, built next, through the port (live/room-port.ts).
    const livePort = liveRoomPort((): LiveRooms => live, plays);
    const rooms: Rooms = new Rooms(
      store,
      livePort,
      badges,
      new RedisAdmissions(redis),
      logger,
      new Limit(redis, ROOM_PASSWORD_FAILURES, config.LIMIT_ROOM_PASSWORD_FAILURES),
      blockersOf(peers.social, serviceToken),
    );
    // Profiles shown in live rooms: cached from the user service's events (an account's creation, each change).
    const profiles = new CachedProfiles(redis, users);
    const profileEvents = await startIdempotentConsumer({
      kafka,
      orm,
      groupId: config.KAFKA_CONSUMER_GROUP,
      topics: [USER_EVENTS_TOPIC],
      handle: userEventsHandler(profiles),
      // Each event sets the cached profile to what it says: run again in order, the same; no row per event to skip it.
      deduplicate: false,
      deadLetters: await kafka.producer(),
      logger,
    });
    // Paid rooms: the fee moves through the points service's ledger, asked with this service's own token.
    const fees = new EntryFees(orm, pointsLedger(peers.points, serviceToken), logger);
    const live = new LiveRooms(
      new LiveStore(redis),
      roomDirectory(rooms),
      playlistQueues(peers.playlist, serviceToken),
      profiles,
      plays,
      fees,
      {
        maxPlayMs: config.LIVE_MAX_PLAY_MS,
        leaveGraceMs: config.LIVE_LEAVE_GRACE_MS,
        afkGraceMs: config.LIVE_AFK_GRACE_MS,
        connectionTtlMs: config.LIVE_CONNECTION_TTL_MS,
        effectsRetryMs: config.LIVE_EFFECTS_RETRY_MS,
      },
      logger,
    );
    const clock = new RoomClock(live, logger, { pollMs: config.LIVE_CLOCK_POLL_MS, staleSweepMs: 10_000, effectsSweepMs: 1_000 });
    // Communities and events share the rooms' transactions (one outbox); events go live on their own clock.
    const communities = new Communities(new PgCommunityStore(orm, store), store, rooms, livePort, logger);
    const eventClock = new EventClock(communities, logger, config.EVENT_CLOCK_POLL_MS);
    if (options.clock !== false) {
      clock.start();
      eventClock.start();
    }
    return {
      services: [
        {
          name: 'spinroom.room.v1.RoomService',
          definition: RoomServiceService,
          implementation: {
            ...roomServiceHandlers({ rooms, unary }),
            ...liveRoomHandlers({ live, listened: listenedSeconds(peers.audit, serviceToken), unary }),
          },
        },
        {
          name: 'spinroom.room.v1.CommunityService',
          definition: CommunityServiceService,
          implementation: communityServiceHandlers({ communities, unary }),
        },
      ],
      stop: async () => {
        await eventClock.stop();
        await clock.stop();
        await profileEvents.stop();
        await store.stop();
      },
      expose: { rooms, live, fees, communities, eventClock },
    };
  },
});

export type RunningRoomService = Awaited<ReturnType<typeof roomService.start>>;
export const startRoomService = roomService.start;

/**
 * Seconds of music listened in every room, as the audit service counts them
 * from the listeners' play-tracking records (once per play), asked with the
 * room service's own token.
 */
function listenedSeconds(audit: PromiseClient<AuditServiceClient>, serviceToken: ServiceTokenSource): () => Promise<number> {
  return async () => (await audit.getPlayTotals({ scope: '', key: '' }, { token: await serviceToken.token() })).totals?.playedSeconds ?? 0;
}

/** Who blocked a user, asked of the social service with this service's own token. */
function blockersOf(social: PromiseClient<SocialServiceClient>, serviceToken: ServiceTokenSource): (userUuid: string) => Promise<string[]> {
  return async (userUuid) =>
    (await social.listBlocks({ userUuid }, { token: await serviceToken.token(), deadlineMs: 2_000 })).blockedByUuids;
}
