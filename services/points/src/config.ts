import { serviceConfig, type ConfigOf } from '@spinroom/platform/core';
import { z } from 'zod';

/**
 * The points service's environment, read once at start-up: the base and what
 * its entry in the list of services needs (its database; Kafka, where it reads
 * `user-events`; Redis and the user service, which every token verifier
 * needs), then its own variables.
 */
export const pointsServiceConfig = serviceConfig('points', {
  /** Kafka consumer group; the service's name. Tests give each instance its own. */
  KAFKA_CONSUMER_GROUP: z.string().min(1).default('points'),
  /** How long a hold reserves its tokens when the caller does not say (10 minutes). */
  TOKEN_HOLD_TTL_SECONDS: z.coerce.number().int().positive().default(600),
  /** The longest time to live a caller may ask of a hold (a day). */
  TOKEN_HOLD_MAX_TTL_SECONDS: z.coerce.number().int().positive().default(86_400),
  /** How often expired holds are voided and old idempotency keys forgotten (reads and writes expire an account's holds anyway). */
  TOKEN_SWEEP_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * Token writes go to the ledger in batches (group commit): this many lanes
   * write side by side (one account's writes share one), each taking up to
   * TOKEN_WRITE_BATCH writes that arrived while its previous batch was written.
   */
  TOKEN_WRITE_LANES: z.coerce.number().int().min(1).max(64).default(2),
  TOKEN_WRITE_BATCH: z.coerce.number().int().min(1).max(1000).default(64),
  /** How long an idempotency key is remembered (a day, as Stripe's). */
  TOKEN_IDEMPOTENCY_KEY_HOURS: z.coerce.number().int().positive().default(24),
  /** How long someone must have heard a song before their up-vote (or their listening) earns its DJ a point. */
  POINTS_MIN_LISTEN_SECONDS: z.coerce.number().int().min(0).default(30),
  /** How old an account must be before its up-votes (or its listening) earn a DJ points (a day). */
  POINTS_MIN_ACCOUNT_AGE_HOURS: z.coerce.number().min(0).default(24),
});

export type PointsServiceConfig = ConfigOf<typeof pointsServiceConfig>;
