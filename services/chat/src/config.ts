import { env } from '@spinroom/platform';
import { z } from 'zod';

/** The chat service's environment, read once at start-up. */
export const chatServiceConfig = {
  DATABASE_URL: env.url(['postgres', 'postgresql']),
  /** Where chat messages are pushed to the room feed (one channel per room) and the message limit is counted. */
  REDIS_URL: env.url(['redis', 'rediss']),
  GRPC_HOST: z.string().default('127.0.0.1'),
  GRPC_PORT: env.port(50055),
  /** The user service: its public key verifies chat tokens; profiles give senders' identity. */
  USER_ADDR: env.address(),
  /** The room service (GetRoomAccess: bans, chat-disabled roles, moderators). */
  ROOM_ADDR: env.address(),
  JWT_ISSUER: z.string().min(1).default('spinroom'),
  /** The shared secret traded for this service's own `service` token. */
  SERVICE_CLIENT_SECRET: z.string().min(32),
  /** Chat messages per user: 20 every 10 seconds (README, Limits). */
  LIMIT_CHAT_MESSAGES_PER_USER: env.limit('20/10s'),
  LOG_LEVEL: env.logLevel(),
};

export type ChatServiceConfig = z.infer<z.ZodObject<typeof chatServiceConfig>>;
