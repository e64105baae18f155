import { env, serviceConfig, type ConfigOf } from '@spinroom/platform/core';
import { z } from 'zod';

/**
 * The room service's environment, read once at start-up: the base and what its
 * entry in the list of services needs (its database; Redis, for the live rooms'
 * state, clock and feed channels and the room-password limit; Kafka and its
 * outbox; the user service, whose profiles carry the VERIFIED badge; the
 * playlist service, DJs' queues; its own service token, as the clock reads
 * queues on no user's request), then its own variables.
 */
export const roomServiceConfig = serviceConfig('room', {
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
  /**
   * How long a stored change's effects (the play record, the requeue, a snag)
   * wait before any replica's sweep runs them again: their writer crashed, or they failed.
   */
  LIVE_EFFECTS_RETRY_MS: z.coerce.number().int().positive().default(10_000),
  /** How often the events' clock looks for events whose start has come (their rooms go live then). */
  EVENT_CLOCK_POLL_MS: z.coerce.number().int().positive().default(1000),
  /** The consumer group reading user-events (the profiles of live rooms). */
  KAFKA_CONSUMER_GROUP: z.string().min(1).default('room'),
  /** Wrong room passwords per user and room: 10 in 15 minutes, then refused for 15 minutes (README, Limits). */
  LIMIT_ROOM_PASSWORD_FAILURES: env.limit('10/15m/15m'),
});

export type RoomServiceConfig = ConfigOf<typeof roomServiceConfig>;
