import { serviceConfig, type ConfigOf } from '@spinroom/platform/core';
import { z } from 'zod';
import { notificationsConfig } from './notifications/config.js';

/**
 * The social service's environment, read once at start-up: the base and what
 * its entry in the list of services needs (its database; Kafka, where it
 * reads `user-events` and announces `social-events` through its outbox; Redis
 * and the user service, which every token verifier needs), then its own
 * variables.
 */
export const socialServiceConfig = serviceConfig('social', {
  ...notificationsConfig,
  /** Kafka consumer group; the service's name. Tests give each instance its own. */
  KAFKA_CONSUMER_GROUP: z.string().min(1).default('social'),
  /**
   * The per-deployment secret address-book entries are hashed with
   * (HMAC-SHA256): without it the contact paths answer 503. Changing it
   * forgets every match until contacts are sent again.
   */
  CONTACT_HASH_SECRET: z
    .string()
    .optional()
    .transform((value) => (value ? value : undefined))
    .refine((value) => value === undefined || value.length >= 32, 'CONTACT_HASH_SECRET must be at least 32 characters'),
});

export type SocialServiceConfig = ConfigOf<typeof socialServiceConfig>;
