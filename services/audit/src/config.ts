import { serviceConfig, type ConfigOf } from '@spinroom/platform/core';
import { z } from 'zod';

/**
 * The audit service's environment, read once at start-up: the base and what
 * its entry in the list of services needs (its database; Kafka, where it
 * writes the `/kinesis` records and reads play-tracking, the analytics topics
 * and moderation-actions; Redis and the user service, which every token
 * verifier needs), then its own variables.
 */
export const auditServiceConfig = serviceConfig('audit', {
  /** Kafka consumer group; the service's name. Tests give each instance its own. */
  KAFKA_CONSUMER_GROUP: z.string().min(1).default('audit'),
  /** How long a `/kinesis` record may wait for others to share its send to the broker (ms; 0: sent at once, batched only while a send is in flight). */
  KINESIS_LINGER_MS: z.coerce.number().int().min(0).max(1000).default(0),
  /** The most records sent to the broker in one request. */
  KINESIS_MAX_BATCH: z.coerce.number().int().min(1).max(100_000).default(2000),
  /**
   * How long a counted (play id, kind) is remembered against redelivery (days): longer than the
   * play-tracking topic keeps its records (30 days in the chart), so nothing Kafka can still hand
   * over again is forgotten.
   */
  PLAY_SEEN_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(35),
  /** How often the forgotten are deleted (ms). */
  PLAY_SEEN_PRUNE_MS: z.coerce.number().int().min(1000).default(3_600_000),
});

export type AuditServiceConfig = ConfigOf<typeof auditServiceConfig>;
