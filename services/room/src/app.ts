import { descriptorSetPath } from '@spinroom/contracts/descriptors';
import { RoomServiceService } from '@spinroom/contracts/room/v1/room_service';
import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { createGrpcClient, createLogger, createUnaryFactory, KafkaClient, OutboxRelay, PublicKeyCache, startGrpcServer } from '@spinroom/platform';
import type { RoomServiceConfig } from './config.js';
import { openRoomDatabase } from './db/orm.js';
import { PgRoomStore } from './db/room-store.js';
import { NO_LIVE_ROOMS, type LiveRoomPort } from './domain/live-room-port.js';
import { Rooms, type BadgeSource } from './domain/rooms.js';
import { MODERATION_ACTIONS_TOPIC } from './events/moderation-actions.js';
import { ROOM_EVENTS_TOPIC } from './events/room-events.js';
import { roomServiceHandlers } from './rpc/room-service.js';

export interface RunningRoomService {
  port: number;
  rooms: Rooms;
  stop(): Promise<void>;
}

/**
 * Composition root: config -> dependencies -> gRPC server and outbox relay.
 * `live` is the live engine's port (presence, room state, kicks); without it
 * nobody is present and nothing has played (NO_LIVE_ROOMS).
 */
export async function startRoomService(
  config: RoomServiceConfig,
  options: { live?: LiveRoomPort; relay?: boolean } = {},
): Promise<RunningRoomService> {
  const logger = createLogger('room');
  const orm = await openRoomDatabase(config.DATABASE_URL, logger);
  const users = createGrpcClient(UserServiceClient, config.USER_ADDR);
  const keys = new PublicKeyCache(async () => (await users.getPublicKey({}, { deadlineMs: 2_000 })).publicKeyPem, config.JWT_ISSUER, logger);
  keys.start();

  const kafka = new KafkaClient({ brokers: config.KAFKA_BROKERS, clientId: 'room', logger });
  await kafka.ensureTopics([{ topic: ROOM_EVENTS_TOPIC }, { topic: MODERATION_ACTIONS_TOPIC }]);
  const producer = await kafka.producer();
  const relay = new OutboxRelay(orm, producer, logger, { intervalMs: config.OUTBOX_POLL_MS });
  if (options.relay !== false) relay.start();

  // The VERIFIED badge, from the user's profile (asked with the current caller's token).
  const badges: BadgeSource = {
    badgesOf: async (userUuid) => (await users.getProfile({ userUuid })).profile?.badges ?? [],
  };
  const rooms = new Rooms(new PgRoomStore(orm, () => relay.nudge()), options.live ?? NO_LIVE_ROOMS, badges, logger);
  const unary = createUnaryFactory({ verifier: () => keys.verifier, logger });
  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    logger,
    descriptorSetPath,
    services: [{ name: 'spinroom.room.v1.RoomService', definition: RoomServiceService, implementation: roomServiceHandlers({ rooms, unary }) }],
  });

  return {
    port: server.port,
    rooms,
    async stop() {
      await server.shutdown();
      keys.stop();
      users.close();
      await relay.stop();
      await producer.disconnect();
      await orm.close();
    },
  };
}
