import { descriptorSetPath } from '@spinroom/contracts/descriptors';
import { PlaylistServiceClient } from '@spinroom/contracts/playlist/v1/playlist_service';
import { RoomServiceService } from '@spinroom/contracts/room/v1/room_service';
import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import {
  createGrpcClient,
  createLogger,
  createRedis,
  createUnaryFactory,
  KafkaClient,
  Limit,
  OutboxRelay,
  PublicKeyCache,
  ServiceTokenSource,
  startGrpcServer,
} from '@spinroom/platform';
import type { RoomServiceConfig } from './config.js';
import { RedisAdmissions } from './db/admission-store.js';
import { openRoomDatabase } from './db/orm.js';
import { PgRoomStore } from './db/room-store.js';
import type { LiveRoomPort } from './domain/live-room-port.js';
import { ROOM_PASSWORD_FAILURES } from './domain/room-passwords.js';
import { Rooms, type BadgeSource } from './domain/rooms.js';
import { MODERATION_ACTIONS_TOPIC } from './events/moderation-actions.js';
import { ROOM_EVENTS_TOPIC } from './events/room-events.js';
import { playlistQueues, userProfiles } from './live/adapters.js';
import { LiveRooms } from './live/live-rooms.js';
import { LiveStore } from './live/live-store.js';
import { PgPlayLog } from './live/play-log.js';
import { RoomClock } from './live/room-clock.js';
import { roomDirectory } from './live/room-directory.js';
import { liveRoomHandlers } from './rpc/live-room.js';
import { roomServiceHandlers } from './rpc/room-service.js';

export interface RunningRoomService {
  port: number;
  rooms: Rooms;
  live: LiveRooms;
  stop(): Promise<void>;
}

/**
 * Composition root: config -> dependencies -> gRPC server, outbox relay and
 * the rooms' clock. The room records (PostgreSQL) and the live rooms (Redis)
 * know each other through two small ports: the records tell the live rooms
 * about kicks and changes; the live rooms ask the records who may do what.
 */
export async function startRoomService(config: RoomServiceConfig, options: { relay?: boolean; clock?: boolean } = {}): Promise<RunningRoomService> {
  const logger = createLogger('room');
  const orm = await openRoomDatabase(config.DATABASE_URL, logger);
  const users = createGrpcClient(UserServiceClient, config.USER_ADDR);
  const playlists = createGrpcClient(PlaylistServiceClient, config.PLAYLIST_ADDR);
  const keys = new PublicKeyCache(async () => (await users.getPublicKey({}, { deadlineMs: 2_000 })).publicKeyPem, config.JWT_ISSUER, logger);
  keys.start();
  const serviceToken = new ServiceTokenSource(() => users.issueServiceToken({ serviceName: 'room', clientSecret: config.SERVICE_CLIENT_SECRET }, { deadlineMs: 3_000 }));

  const kafka = new KafkaClient({ brokers: config.KAFKA_BROKERS, clientId: 'room', logger });
  await kafka.ensureTopics([{ topic: ROOM_EVENTS_TOPIC }, { topic: MODERATION_ACTIONS_TOPIC }]);
  const producer = await kafka.producer();
  const relay = new OutboxRelay(orm, producer, logger, { intervalMs: config.OUTBOX_POLL_MS });
  if (options.relay !== false) relay.start();
  const redis = createRedis(config.REDIS_URL);

  const store = new PgRoomStore(orm, () => relay.nudge());
  const plays = new PgPlayLog(store);
  // The VERIFIED badge, from the user's profile (asked with the current caller's token).
  const badges: BadgeSource = {
    badgesOf: async (userUuid) => (await users.getProfile({ userUuid })).profile?.badges ?? [],
  };
  let rooms: Rooms | undefined;
  const live = new LiveRooms(
    new LiveStore(redis),
    roomDirectory(() => rooms!),
    playlistQueues(playlists, serviceToken),
    userProfiles(users),
    plays,
    { maxPlayMs: config.LIVE_MAX_PLAY_MS, leaveGraceMs: config.LIVE_LEAVE_GRACE_MS, afkGraceMs: config.LIVE_AFK_GRACE_MS, connectionTtlMs: config.LIVE_CONNECTION_TTL_MS },
    logger,
  );
  const livePort: LiveRoomPort = {
    presentUserUuids: (roomUuid) => live.usersIn(roomUuid),
    noDancefloorUserUuids: async (roomUuid) => {
      const room = (await live.snapshot(roomUuid))?.room;
      const floor = new Set(room?.client.floorUsers.map((u) => u.uuid));
      return (room?.server.members ?? []).map((m) => m.uuid).filter((uuid) => !floor.has(uuid));
    },
    roomState: async (roomUuid) => ({ ...((await live.snapshot(roomUuid))?.room.client ?? {}) }),
    playedSeconds: (roomUuid) => plays.playedSeconds(roomUuid),
    onKicked: (kick) => live.kick(kick.roomUuid, kick.userUuid, kick.reason ?? 'kicked'),
    onChanged: async (change) => {
      if (change.deleted) return live.reset(change.roomUuid, true);
      if (!change.userUuids) return live.refresh(change.roomUuid);
      for (const userUuid of change.userUuids) await live.refresh(change.roomUuid, userUuid);
    },
  };
  rooms = new Rooms(store, livePort, badges, new RedisAdmissions(redis), logger, new Limit(redis, ROOM_PASSWORD_FAILURES, config.LIMIT_ROOM_PASSWORD_FAILURES));
  const clock = new RoomClock(live, logger, { pollMs: config.LIVE_CLOCK_POLL_MS, staleSweepMs: 10_000 });
  if (options.clock !== false) clock.start();

  const unary = createUnaryFactory({ verifier: () => keys.verifier, logger });
  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    logger,
    descriptorSetPath,
    ready: () => keys.verifier !== undefined,
    services: [{
      name: 'spinroom.room.v1.RoomService',
      definition: RoomServiceService,
      implementation: { ...roomServiceHandlers({ rooms, unary }), ...liveRoomHandlers({ live, plays, unary }) },
    }],
  });

  return {
    port: server.port,
    rooms,
    live,
    async stop() {
      await server.shutdown();
      await clock.stop();
      keys.stop();
      users.close();
      playlists.close();
      await relay.stop();
      await producer.disconnect();
      redis.disconnect();
      await orm.close();
    },
  };
}
