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
});

export type PlaylistServiceConfig = ConfigOf<typeof playlistServiceConfig>;
