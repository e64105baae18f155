import { ChatServiceService } from '@spinroom/contracts/chat/v1/chat_service';
import { RoomServiceClient } from '@spinroom/contracts/room/v1/room_service';
import { SocialServiceClient } from '@spinroom/contracts/social/v1/social_service';
import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { defineService, Limit, startIdempotentConsumer } from '@spinroom/platform';
import { RedisChatFeed } from './adapters/feed.js';
import { RedisPresence } from './adapters/presence.js';
import { UserServiceProfiles } from './adapters/profiles.js';
import { RoomServiceAccess } from './adapters/room-access.js';
import { SocialServiceRelations } from './adapters/social.js';
import { chatServiceConfig } from './config.js';
import { PgChatStore } from './db/chat-store.js';
import { chatDatabase } from './db/database.js';
import { PgDirectMessageStore } from './db/direct-message-store.js';
import { Chat, MESSAGES_PER_USER } from './domain/chat.js';
import { DirectChat } from './domain/direct-chat.js';
import { directMessageNotification, NOTIFICATIONS_TOPIC } from './events/notifications.js';
import { POINTS_EVENTS_TOPIC, pointsEventsHandler } from './events/points-events.js';
import { chatServiceHandlers } from './rpc/chat-service.js';

/**
 * Callers prove themselves with chat tokens (`use: "chat"`); the service calls
 * the user, room and social services with its own `service` token and reads the
 * points service's `points-events` (a purchase shown in the room's chat); a
 * direct message to someone offline goes out on `notifications` through the
 * outbox. `now` is the clock
 * (tests). The service kit opens and closes the rest (packages/platform/src/kit).
 */
export const chatService = defineService('chat', {
  config: chatServiceConfig,
  peers: { user: UserServiceClient, room: RoomServiceClient, social: SocialServiceClient },
  database: chatDatabase,
  tokenUse: 'chat',
  topics: [POINTS_EVENTS_TOPIC, NOTIFICATIONS_TOPIC],
  async build({ config, logger, orm, redis, kafka, relay, peers, serviceToken, unary }, options: { now?: () => Date }) {
    const profiles = new UserServiceProfiles(
      async (userUuids) => (await peers.user.batchGetProfiles({ userUuids }, { token: await serviceToken.token() })).profiles,
    );
    const sendLimit = new Limit(redis, MESSAGES_PER_USER, config.LIMIT_CHAT_MESSAGES_PER_USER);
    const presence = new RedisPresence(redis);
    const social = new SocialServiceRelations(peers.social, () => serviceToken.token());
    const chat = new Chat({
      store: new PgChatStore(orm),
      rooms: new RoomServiceAccess(peers.room, () => serviceToken.token()),
      profiles,
      feed: new RedisChatFeed(redis, logger),
      social,
      sendLimit,
      now: options.now,
    });
    const direct = new DirectChat({
      // A direct message to someone offline is announced on `notifications` through the outbox.
      store: new PgDirectMessageStore(orm, () => relay.nudge()),
      profiles,
      presence,
      social,
      sendLimit,
      offlineNotice: directMessageNotification,
      now: options.now,
    });
    // Consumables bought in a room are shown in its chat (points-events; failures to points-events.dlq).
    const deadLetters = await kafka.producer();
    const consumer = await startIdempotentConsumer({
      kafka,
      orm,
      groupId: config.KAFKA_CONSUMER_GROUP,
      topics: [POINTS_EVENTS_TOPIC, NOTIFICATIONS_TOPIC],
      handle: pointsEventsHandler(chat),
      deadLetters,
      logger,
    });
    return {
      services: [
        {
          name: 'spinroom.chat.v1.ChatService',
          definition: ChatServiceService,
          implementation: chatServiceHandlers({ chat, direct, presence, logger, unary }),
        },
      ],
      async stop() {
        await consumer.stop();
        await deadLetters.disconnect();
      },
    };
  },
});

export type RunningChatService = Awaited<ReturnType<typeof chatService.start>>;
export const startChatService = chatService.start;
