import { env } from '@spinroom/platform';
import { z } from 'zod';

/** The playlist service's environment, read once at start-up. */
export const playlistServiceConfig = {
  DATABASE_URL: env.url(['postgres', 'postgresql']),
  KAFKA_BROKERS: env.list(),
  GRPC_HOST: z.string().default('127.0.0.1'),
  GRPC_PORT: env.port(50052),
  /** The user service, whose public key verifies callers' tokens. */
  USER_ADDR: env.address(),
  JWT_ISSUER: z.string().min(1).default('spinroom'),
  /** Kafka consumer group; the service's name. Tests give each instance its own. */
  KAFKA_CONSUMER_GROUP: z.string().min(1).default('playlist'),
  OUTBOX_POLL_MS: z.coerce.number().int().positive().default(250),
  /** Crate imports: how often the worker looks for due jobs, the first retry delay (doubled), a job's lease. */
  CRATE_IMPORT_POLL_MS: z.coerce.number().int().positive().default(1000),
  CRATE_IMPORT_RETRY_DELAY_MS: z.coerce.number().int().min(0).default(5000),
  CRATE_IMPORT_LEASE_SECONDS: z.coerce.number().int().positive().default(120),
  LOG_LEVEL: env.logLevel(),
};

export type PlaylistServiceConfig = z.infer<z.ZodObject<typeof playlistServiceConfig>>;
