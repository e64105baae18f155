import { env } from '@spinroom/platform';
import { z } from 'zod';

/** The room service's environment, read once at start-up. */
export const roomServiceConfig = {
  DATABASE_URL: env.url(['postgres', 'postgresql']),
  KAFKA_BROKERS: env.list(),
  GRPC_HOST: z.string().default('127.0.0.1'),
  GRPC_PORT: env.port(50054),
  /** The user service: its public key verifies callers' tokens; its profiles carry the VERIFIED badge. */
  USER_ADDR: env.address(),
  JWT_ISSUER: z.string().min(1).default('spinroom'),
  OUTBOX_POLL_MS: z.coerce.number().int().positive().default(250),
  LOG_LEVEL: env.logLevel(),
};

export type RoomServiceConfig = z.infer<z.ZodObject<typeof roomServiceConfig>>;
