import { ChatServiceService } from '@spinroom/contracts/chat/v1/chat_service';
import { RoomServiceClient } from '@spinroom/contracts/room/v1/room_service';
import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { defineService, Limit } from '@spinroom/platform';
import { RedisChatFeed } from './adapters/feed.js';
import { UserServiceProfiles } from './adapters/profiles.js';
import { RoomServiceAccess } from './adapters/room-access.js';
import { chatServiceConfig } from './config.js';
import { PgChatStore } from './db/chat-store.js';
import { chatDatabase } from './db/database.js';
import { Chat, MESSAGES_PER_USER } from './domain/chat.js';
import { chatServiceHandlers } from './rpc/chat-service.js';

/**
 * Callers prove themselves with chat tokens (`use: "chat"`); the service calls
 * the user and room services with its own `service` token. `now` is the clock
 * (tests). The service kit opens and closes the rest (packages/platform/src/kit).
 */
export const chatService = defineService('chat', {
  config: chatServiceConfig,
  peers: { user: UserServiceClient, room: RoomServiceClient },
  database: chatDatabase,
  tokenUse: 'chat',
  async build({ config, logger, orm, redis, peers, serviceToken, unary }, options: { now?: () => Date }) {
    const chat = new Chat({
      store: new PgChatStore(orm),
      rooms: new RoomServiceAccess(peers.room, () => serviceToken.token()),
      profiles: new UserServiceProfiles(
        async (userUuids) => (await peers.user.batchGetProfiles({ userUuids }, { token: await serviceToken.token() })).profiles,
      ),
      feed: new RedisChatFeed(redis, logger),
      sendLimit: new Limit(redis, MESSAGES_PER_USER, config.LIMIT_CHAT_MESSAGES_PER_USER),
      now: options.now,
    });
    return {
      services: [
        { name: 'spinroom.chat.v1.ChatService', definition: ChatServiceService, implementation: chatServiceHandlers({ chat, unary }) },
      ],
    };
  },
});

export type RunningChatService = Awaited<ReturnType<typeof chatService.start>>;
export const startChatService = chatService.start;
