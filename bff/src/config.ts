import { env, peerAddressVariable, SERVICE_NAMES, type ServiceName } from '@spinroom/platform/core';
import { z } from 'zod';

export const DEFAULT_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;
export const DEFAULT_CHAT_APP_ID = 'spinroom';

/** Every service's address (USER_ADDR, ROOM_ADDR...): the BFF serves the REST paths of each service in the list. */
const serviceAddresses = Object.fromEntries(SERVICE_NAMES.map((name) => [peerAddressVariable(name), env.address()])) as {
  [N in ServiceName as `${Uppercase<N>}_ADDR`]: ReturnType<typeof env.address>;
};

/** The BFF's environment, read once at start-up. */
export const bffConfig = {
  ...serviceAddresses,
  PORT: env.port(8080),
  HTTP_HOST: z.string().default('127.0.0.1'),
  /** The `appid` header the /chat API expects (the original's CometChat app id). */
  CHAT_APP_ID: z.string().min(1).default(DEFAULT_CHAT_APP_ID),
  /** Redis, where the room feed's frames arrive (one channel per room) and the limits per address are counted. */
  REDIS_URL: env.url(['redis', 'rediss']),
  /** Traded with the user service for the BFF's own token (it tells the room service which feed connections it holds). */
  SERVICE_CLIENT_SECRET: z.string().min(32),
  /** Largest song upload, in bytes; enforced while the file streams to the upload service. */
  UPLOAD_MAX_BYTES: z.coerce.number().int().positive().default(DEFAULT_UPLOAD_MAX_BYTES),
  JWT_ISSUER: z.string().min(1).default('spinroom'),
  /** Origins allowed to call the API from a browser; none (CORS closed) unless listed. */
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  JSON_BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/, 'must be a size like 100kb')
    .default('100kb'),
  /** Failed logins per client address: 200 an hour, then refused for an hour (README, Limits). */
  LIMIT_LOGIN_FAILURES_PER_ADDRESS: env.limit('200/1h/1h'),
  /** Guest tokens per client address: 30 an hour. */
  LIMIT_GUEST_TOKENS_PER_ADDRESS: env.limit('30/1h'),
  /** Sign-ups per client address: 10 an hour. */
  LIMIT_SIGN_UPS_PER_ADDRESS: env.limit('10/1h'),
  /** Phone codes asked for per client address: 20 an hour (each is a paid message; numbers sprayed from one address are SMS pumping). */
  LIMIT_PHONE_CODES_PER_ADDRESS: env.limit('20/1h'),
  /** Mails asked for per client address (magic links, password resets, verification codes): 20 an hour, so one address cannot flood inboxes or the SMTP relay. */
  LIMIT_MAILS_PER_ADDRESS: env.limit('20/1h'),
  /**
   * Catalogue search answers kept (routes/playlist/search-answers.ts): reused while the catalogue's generation stays
   * the same, for at most SEARCH_ANSWERS_MAX_AGE_MS (0: none kept), SEARCH_ANSWERS_MAX_MB of bodies (128 took the
   * search traffic's hits from 47% to 55% for 55-100 MiB more resident, too near the chart's 768 MiB limit: BENCHMARKS.md,
   * run S11); the generation is read every SEARCH_GENERATION_POLL_MS, the longest a changed song stays out of a repeated
   * search.
   */
  SEARCH_ANSWERS_MAX_AGE_MS: z.coerce.number().int().min(0).default(300_000),
  SEARCH_ANSWERS_MAX_MB: z.coerce.number().int().positive().default(64),
  SEARCH_GENERATION_POLL_MS: z.coerce.number().int().min(50).default(500),
  /** Folder of the built web client, served at `/`. */
  WEB_DIR: z.string().optional(),
  LOG_LEVEL: env.logLevel(),
};

export type BffConfig = z.infer<z.ZodObject<typeof bffConfig>>;
