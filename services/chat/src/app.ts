import { ChatServiceService } from '@spinroom/contracts/chat/v1/chat_service';
import { descriptorSetPath } from '@spinroom/contracts/descriptors';
import { RoomServiceClient } from '@spinroom/contracts/room/v1/room_service';
import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { createGrpcClient, createLogger, createRedis, createUnaryFactory, Limit, PublicKeyCache, ServiceTokenSource, startGrpcServer } from '@spinroom/platform';
import { RedisChatFeed } from './adapters/feed.js';
import { UserServiceProfiles } from './adapters/profiles.js';
import { RoomServiceAccess } from './adapters/room-access.js';
import type { ChatServiceConfig } from './config.js';
import { PgChatStore } from './db/chat-store.js';
import { openChatDatabase } from './db/orm.js';
import { Chat, MESSAGES_PER_USER } from './domain/chat.js';
import { chatServiceHandlers } from './rpc/chat-service.js';

export interface RunningChatService {
  port: number;
  stop(): Promise<void>;
}

/**
 * Composition root: config -> dependencies -> gRPC server. Callers prove
 * themselves with chat tokens (`use: "chat"`); the service calls the user and
 * room services with its own `service` token. `now` is the clock (tests).
 */
export async function startChatService(config: ChatServiceConfig, options: { now?: () => Date } = {}): Promise<RunningChatService> {
  const logger = createLogger('chat');
  const orm = await openChatDatabase(config.DATABASE_URL, logger);
  const redis = createRedis(config.REDIS_URL);
  const users = createGrpcClient(UserServiceClient, config.USER_ADDR);
  const keys = new PublicKeyCache(
    async () => (await users.getPublicKey({}, { deadlineMs: 2_000 })).publicKeyPem,
    config.JWT_ISSUER,
    logger,
    undefined,
    'chat',
  );
  keys.start();
  const serviceToken = new ServiceTokenSource(() => users.issueServiceToken({ serviceName: 'chat', clientSecret: config.SERVICE_CLIENT_SECRET }));
  const profiles = new UserServiceProfiles(async (userUuids) => (await users.batchGetProfiles({ userUuids }, { token: await serviceToken.token() })).profiles);
  const rooms = createGrpcClient(RoomServiceClient, config.ROOM_ADDR);
  const roomAccess = new RoomServiceAccess(rooms, () => serviceToken.token());

  const chat = new Chat({
    store: new PgChatStore(orm),
    rooms: roomAccess,
    profiles,
    feed: new RedisChatFeed(redis, logger),
    sendLimit: new Limit(redis, MESSAGES_PER_USER, config.LIMIT_CHAT_MESSAGES_PER_USER),
    now: options.now,
  });
  const unary = createUnaryFactory({ verifier: () => keys.verifier, logger });
  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    logger,
    descriptorSetPath,
    ready: () => keys.verifier !== undefined,
    services: [{ name: 'spinroom.chat.v1.ChatService', definition: ChatServiceService, implementation: chatServiceHandlers({ chat, unary }) }],
  });

  return {
    port: server.port,
    async stop() {
      await server.shutdown();
      keys.stop();
      users.close();
      rooms.close();
      redis.disconnect();
      await orm.close();
    },
  };
}
