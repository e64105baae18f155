import { resolve } from 'node:path';
import { env, serviceConfig, type ConfigOf } from '@spinroom/platform/core';
import { z } from 'zod';
import { mobileConfig } from './mobile-config.js';
import { providersConfig } from './providers-config.js';
import { mailConfig } from './mail-config.js';
import { passkeysConfig } from './passkeys-config.js';

/**
 * The user service's environment, read once at start-up: the base and what its
 * entry in the list of services needs (its database; Redis, where the login
 * lockout is counted; Kafka and its outbox), then its own variables.
 */
export const userServiceConfig = serviceConfig('user', {
  /** RS256 signing key (PKCS#8 PEM, 3072 bits or more). */
  JWT_PRIVATE_KEY: env.pem('PRIVATE KEY'),
  /**
   * Public keys of earlier signing keys (PEM blocks one after the other), still
   * published and trusted by `kid` so a rotation logs nobody out; drop one once
   * the tokens it signed have expired (the longest lives 30 days: chat tokens).
   */
  JWT_PREVIOUS_PUBLIC_KEYS: z
    .string()
    .transform((v) => v.replace(/\\n/g, '\n'))
    .refine((v) => v.includes('-----BEGIN PUBLIC KEY-----'), 'must hold PEM PUBLIC KEY blocks')
    .optional(),
  JWT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(7 * 24 * 3600),
  /** How many argon2id hashes may run at once (default: one per core). */
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().positive().optional(),
  /** Shared secret other services present for a `service` token; service tokens are off without it. */
  SERVICE_CLIENT_SECRET: z.string().min(32).optional(),
  /** Failed logins per account before the lockout: 100 an hour, then locked for an hour (README, Limits). */
  LIMIT_LOGIN_FAILURES_PER_ACCOUNT: env.limit('100/1h/1h'),
  /** Folder of profile and cover pictures (one WebP file per image id). */
  USER_IMAGES_DIR: z
    .string()
    .min(1)
    .default(resolve(import.meta.dirname, '../../../.local/user-images')),
  /** Largest picture accepted, in bytes (10 MB). */
  USER_IMAGE_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  /**
   * How often Redis is checked for the ended sessions it should hold (one EXISTS), and how often
   * they are all written back anyway (for a Redis restored from an older snapshot).
   */
  SESSION_ENDS_CHECK_MS: z.coerce.number().int().positive().default(5_000),
  SESSION_ENDS_REWRITE_MS: z.coerce.number().int().positive().default(600_000),
  ...mobileConfig,
  ...providersConfig,
  ...mailConfig,
  ...passkeysConfig,
});

export type UserServiceConfig = ConfigOf<typeof userServiceConfig>;
