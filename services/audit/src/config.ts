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
});

export type AuditServiceConfig = ConfigOf<typeof auditServiceConfig>;
