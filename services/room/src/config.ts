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
  /** Live rooms: their state, clock and feed channels; the room-password limit. */
  REDIS_URL: env.url(['redis', 'rediss']),
  /** The playlist service: DJs' queues. */
  PLAYLIST_ADDR: env.address(),
  /** Traded with the user service for this service's own token (the clock reads DJs' queues on no user's request). */
  SERVICE_CLIENT_SECRET: z.string().min(32),
  /** Caps every play (ms), whatever the song's length: for demos and tests. Unset: songs play in full. */
  LIVE_MAX_PLAY_MS: z.coerce.number().int().positive().optional(),
  /** How long a user stays in a room after their last connection closed (ROOM-FEED.md: 20 s). */
  LIVE_LEAVE_GRACE_MS: z.coerce.number().int().nonnegative().default(20_000),
  /** How long a DJ warned as AFK has to act before leaving the stage. */
  LIVE_AFK_GRACE_MS: z.coerce.number().int().positive().default(60_000),
  /** A feed connection the BFF stopped vouching for is gone after this long. */
  LIVE_CONNECTION_TTL_MS: z.coerce.number().int().positive().default(60_000),
  /** How often the room clock looks for ended songs and departures. */
  LIVE_CLOCK_POLL_MS: z.coerce.number().int().positive().default(100),
  OUTBOX_POLL_MS: z.coerce.number().int().positive().default(250),
  /** Wrong room passwords per user and room: 10 in 15 minutes, then refused for 15 minutes (README, Limits). */
  LIMIT_ROOM_PASSWORD_FAILURES: env.limit('10/15m/15m'),
  LOG_LEVEL: env.logLevel(),
};

export type RoomServiceConfig = z.infer<z.ZodObject<typeof roomServiceConfig>>;
