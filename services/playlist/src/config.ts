import { serviceConfig, type ConfigOf } from '@spinroom/platform/core';
import { z } from 'zod';

/**
 * The playlist service's environment, read once at start-up: the base and what
 * its entry in the list of services needs (its database, Kafka, the user
 * service), then its own variables. The music providers read theirs
 * themselves (providers/index.ts).
 */
export const playlistServiceConfig = serviceConfig('playlist', {
  /** Kafka consumer group; the service's name. Tests give each instance its own. */
  KAFKA_CONSUMER_GROUP: z.string().min(1).default('playlist'),
  /** Crate imports: how often the worker looks for due jobs, the first retry delay (doubled), a job's lease. */
  CRATE_IMPORT_POLL_MS: z.coerce.number().int().positive().default(1000),
  CRATE_IMPORT_RETRY_DELAY_MS: z.coerce.number().int().min(0).default(5000),
  CRATE_IMPORT_LEASE_SECONDS: z.coerce.number().int().positive().default(120),
  /** Catalogue search: how long a search's answer is reused (0: never; 5000 when unset), and how many answers are kept (10,000). */
  SEARCH_CACHE_MS: z.coerce.number().int().min(0).optional(),
  SEARCH_CACHE_ENTRIES: z.coerce.number().int().positive().optional(),
  /** How long an answer is reused within one catalogue generation, when the caller names it (0: never; 300000 when unset). */
  SEARCH_CACHE_GENERATION_MS: z.coerce.number().int().min(0).optional(),
  /**
   * Room effects applied here (`room_effect`: a play's requeue, a voter's snag)
   * are remembered this long (7 days), so a replay from the room service finds
   * them; it replays an effect for a day at most, hence at least 25 hours
   * (unset: ROOM_EFFECT_DEFAULTS, domain/room-effects.ts).
   */
  ROOM_EFFECT_RETENTION_HOURS: z.coerce.number().int().min(25).optional(),
  /** How often older ones are pruned (hourly), and how many rows one delete forgets (1000). */
  ROOM_EFFECT_PRUNE_MS: z.coerce.number().int().positive().optional(),
  ROOM_EFFECT_PRUNE_BATCH: z.coerce.number().int().min(1).max(100_000).optional(),
});

export type PlaylistServiceConfig = ConfigOf<typeof playlistServiceConfig>;
