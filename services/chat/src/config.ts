import { env, serviceConfig, type ConfigOf } from '@spinroom/platform/core';
import { z } from 'zod';

/**
 * The chat service's environment, read once at start-up: the base and what
 * its entry in the list of services needs (its database; Redis, where messages
 * are pushed to the room feed and the message limit is counted; Kafka, where
 * it reads `points-events`; the user and room services; its own service
 * token), then its own variables.
 */
export const chatServiceConfig = serviceConfig('chat', {
  /** Kafka consumer group (`points-events`: purchases shown in the room's chat); the service's name. Tests give each instance its own. */
  KAFKA_CONSUMER_GROUP: z.string().min(1).default('chat'),
  /** Chat messages per user: 20 every 10 seconds (README, Limits). */
  LIMIT_CHAT_MESSAGES_PER_USER: env.limit('20/10s'),
});

export type ChatServiceConfig = ConfigOf<typeof chatServiceConfig>;
