import type { Redis } from 'ioredis';
import { type RedisScript, redisScript } from './redis.js';

/** Redis key of a user's "valid after" (milliseconds since the epoch): their tokens issued before it are refused. */
export function sessionsValidAfterKey(userUuid: string): string {
  return `session:valid-after:${userUuid}`;
}

/** Channel on which ended sessions are announced (`{userUuid, validAfterMs}`), so open sockets close at once. */
export const SESSIONS_ENDED_CHANNEL = 'session:ended';

export interface SessionsEnded {
  userUuid: string;
  validAfterMs: number;
}

/**
 * Set while Redis holds every ended session the user service keeps (it
 * writes them back when this is missing: Redis lost its data).
 */
export const SESSIONS_KEPT_KEY = 'session:kept';

// Each key is set to its value only when that is later than what it holds (a write-back never undoes a newer end).
const RESTORE_LATER = `
for i = 1, #KEYS do
  local held = tonumber(redis.call('GET', KEYS[i]) or '0')
  if tonumber(ARGV[2 * i - 1]) > held then redis.call('SET', KEYS[i], ARGV[2 * i - 1], 'EX', ARGV[2 * i]) end
end
return #KEYS`;

/** How long a "valid after" read is trusted in-process: a revocation reaches every verifier within this. */
export const SESSION_CHECK_CACHE_MS = 500;

/**
 * Revocable sessions: a per-user "valid after" kept in Redis. Ending a user's
 * sessions refuses every token of theirs issued before that instant, in every
 * verifier (BFF, services, feed, chat). A check is one Redis GET at most,
 * remembered for SESSION_CHECK_CACHE_MS per user, so a busy user costs one
 * read per half second per process, whatever their request rate.
 */
export class SessionRevocations {
  private readonly cache = new Map<string, { validAfterMs: number; readAtMs: number }>();
  private readonly reading = new Map<string, Promise<number>>();
  private readonly restoreLater: RedisScript;

  constructor(
    private readonly redis: Redis,
    private readonly options: { cacheMs?: number; cacheSize?: number } = {},
  ) {
    this.restoreLater = redisScript(redis, RESTORE_LATER);
  }

  /**
   * Ends every session of the user opened until now. `keepSeconds` must cover
   * the longest-lived token: after it, every token issued before has expired.
   */
  async endSessions(userUuid: string, keepSeconds: number, validAfterMs = Date.now()): Promise<SessionsEnded> {
    const ended: SessionsEnded = { userUuid, validAfterMs };
    await this.redis
      .multi()
      .set(sessionsValidAfterKey(userUuid), String(ended.validAfterMs), 'EX', Math.ceil(keepSeconds))
      .publish(SESSIONS_ENDED_CHANNEL, JSON.stringify(ended))
      .exec();
    this.remember(userUuid, ended.validAfterMs);
    return ended;
  }

  /**
   * Writes ended sessions back (from the user service's records, after Redis
   * lost them), each kept for what is left of `keepSeconds` since it ended;
   * a key that holds a later end keeps it. Then marks Redis as holding them all.
   */
  async restore(endings: readonly SessionsEnded[], keepSeconds: number, nowMs = Date.now()): Promise<number> {
    let restored = 0;
    for (let i = 0; i < endings.length; i += 500) {
      const batch = endings
        .slice(i, i + 500)
        .map((e) => ({ ...e, ttl: Math.ceil(keepSeconds - (nowMs - e.validAfterMs) / 1000) }))
        .filter((e) => e.ttl > 0);
      if (batch.length === 0) continue;
      await this.restoreLater.run(
        batch.map((e) => sessionsValidAfterKey(e.userUuid)),
        batch.flatMap((e) => [String(e.validAfterMs), String(e.ttl)]),
      );
      restored += batch.length;
    }
    await this.redis.set(SESSIONS_KEPT_KEY, String(nowMs));
    return restored;
  }

  /** Whether Redis still holds the ended sessions written back or ended since (false: it lost its data). */
  async kept(): Promise<boolean> {
    return (await this.redis.exists(SESSIONS_KEPT_KEY)) === 1;
  }

  /** Whether a token of the user issued at `issuedAtMs` still stands. */
  async isCurrent(userUuid: string, issuedAtMs: number): Promise<boolean> {
    return issuedAtMs >= (await this.validAfterMs(userUuid));
  }

  /**
   * The user's "valid after" (0 when their sessions never ended), cached
   * briefly; checks that arrive while it is being read share that one read.
   */
  async validAfterMs(userUuid: string): Promise<number> {
    const known = this.knownValidAfterMs(userUuid);
    if (known !== undefined) return known;
    const pending = this.reading.get(userUuid);
    if (pending) return pending;
    const read = this.redis
      .get(sessionsValidAfterKey(userUuid))
      .then((stored) => {
        const validAfterMs = Math.max(stored ? Number(stored) : 0, this.cache.get(userUuid)?.validAfterMs ?? 0);
        this.remember(userUuid, validAfterMs);
        return validAfterMs;
      })
      .finally(() => this.reading.delete(userUuid));
    this.reading.set(userUuid, read);
    return read;
  }

  /** The user's "valid after" when a read of it is still fresh, without waiting; undefined when it must be read. */
  knownValidAfterMs(userUuid: string): number | undefined {
    const known = this.cache.get(userUuid);
    return known && Date.now() - known.readAtMs < (this.options.cacheMs ?? SESSION_CHECK_CACHE_MS) ? known.validAfterMs : undefined;
  }

  /** Takes an announced end (SESSIONS_ENDED_CHANNEL) at once, ahead of the cache's expiry. */
  learn(ended: SessionsEnded): void {
    const known = this.cache.get(ended.userUuid);
    if (!known || known.validAfterMs < ended.validAfterMs) this.remember(ended.userUuid, ended.validAfterMs);
  }

  private remember(userUuid: string, validAfterMs: number): void {
    this.cache.delete(userUuid);
    if (this.cache.size >= (this.options.cacheSize ?? 100_000)) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(userUuid, { validAfterMs, readAtMs: Date.now() });
  }
}

/** Parses a SESSIONS_ENDED_CHANNEL message; undefined when it is not one. */
export function parseSessionsEnded(message: string): SessionsEnded | undefined {
  try {
    const value = JSON.parse(message) as Partial<SessionsEnded>;
    if (typeof value.userUuid === 'string' && typeof value.validAfterMs === 'number') {
      return { userUuid: value.userUuid, validAfterMs: value.validAfterMs };
    }
  } catch {
    // not ours
  }
  return undefined;
}
