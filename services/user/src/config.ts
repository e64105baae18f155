import { env } from '@spinroom/platform';
import { z } from 'zod';

/** The user service's environment, read once at start-up. */
export const userServiceConfig = {
  DATABASE_URL: env.url(['postgres', 'postgresql']),
  KAFKA_BROKERS: env.list(),
  /** Redis, where the login lockout is counted. */
  REDIS_URL: env.url(['redis', 'rediss']),
  GRPC_HOST: z.string().default('127.0.0.1'),
  GRPC_PORT: env.port(50051),
  /** RS256 signing key (PKCS#8 PEM, 3072 bits or more). */
  JWT_PRIVATE_KEY: env.pem('PRIVATE KEY'),
  JWT_ISSUER: z.string().min(1).default('spinroom'),
  JWT_TTL_SECONDS: z.coerce.number().int().positive().default(7 * 24 * 3600),
  /** How many argon2id hashes may run at once (default: one per core). */
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().positive().optional(),
  /** Shared secret other services present for a `service` token; service tokens are off without it. */
  SERVICE_CLIENT_SECRET: z.string().min(32).optional(),
  OUTBOX_POLL_MS: z.coerce.number().int().positive().default(250),
  /** Failed logins per account before the lockout: 100 an hour, then locked for an hour (README, Limits). */
  LIMIT_LOGIN_FAILURES_PER_ACCOUNT: env.limit('100/1h/1h'),
  LOG_LEVEL: env.logLevel(),
};

export type UserServiceConfig = z.infer<z.ZodObject<typeof userServiceConfig>>;
