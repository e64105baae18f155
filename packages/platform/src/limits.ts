import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import { AppError, tooManyRequests } from './errors.js';

/**
 * How much a limit allows: `points` per window of `durationSeconds`; past
 * them the id is refused for `blockSeconds` (0: until the window ends).
 */
export interface LimitSettings {
  points: number;
  durationSeconds: number;
  blockSeconds: number;
}

/**
 * One limit, declared once where its rule lives: its Redis key prefix
 * (`<service>:<entity>`; each id completes it to `<service>:<entity>:<id>`)
 * and the 429's message, told when the refusal ends (and its code, when the
 * clients of the path decide by one).
 */
export interface LimitDeclaration {
  key: `${string}:${string}`;
  message: (until: Date) => string;
  code?: string;
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };
const SETTING = /^(\d+)\/(\d+)([smhd]?)(?:\/(\d+)([smhd]?))?$/;

function seconds(amount: string, unit: string | undefined): number {
  return Number(amount) * UNIT_SECONDS[unit || 's']!;
}

/** Parses `<points>/<duration>[/<block>]`, durations in seconds or with a unit (s, m, h, d): `100/1h/1h`. */
export function parseLimitSettings(value: string): LimitSettings | undefined {
  const match = SETTING.exec(value.replace(/\s+/g, ''));
  if (!match) return undefined;
  const [, points, duration, durationUnit, block, blockUnit] = match;
  const settings = {
    points: Number(points),
    durationSeconds: seconds(duration!, durationUnit),
    blockSeconds: block ? seconds(block, blockUnit) : 0,
  };
  return settings.points > 0 && settings.durationSeconds > 0 ? settings : undefined;
}

/** A limit's config variable: `<points>/<duration>[/<block>]`, e.g. `100/1h/1h`, with its default. */
export function limitSetting(fallback: string) {
  if (!parseLimitSettings(fallback)) throw new Error(`Bad default limit ${fallback}`);
  const schema = z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      const settings = parseLimitSettings(value);
      if (!settings) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be <points>/<duration>[/<block>], durations in seconds or with s, m, h, d (e.g. 100/1h/1h)',
        });
        return z.NEVER;
      }
      return settings;
    });
  // The default as written, for documentation checks.
  return Object.assign(schema, { fallback });
}

/** A throttled answer does not count as an attempt; other refusals (4xx) do. */
function isRefusal(error: unknown): boolean {
  return error instanceof AppError && error.status >= 400 && error.status < 500 && error.status !== 429;
}

/**
 * A limit kept in Redis (rate-limiter-flexible, atomic per key), shared by
 * every replica. Refusals are 429s whose Retry-After says when to come back.
 */
export class Limit {
  private readonly limiter: RateLimiterRedis;

  constructor(
    redis: Redis,
    private readonly declaration: LimitDeclaration,
    readonly settings: LimitSettings,
  ) {
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: declaration.key,
      points: settings.points,
      duration: settings.durationSeconds,
      blockDuration: settings.blockSeconds,
    });
  }

  /** Counts one use by `id`; a 429 once the window's points are spent. */
  async consume(id: string): Promise<void> {
    try {
      await this.limiter.consume(id);
    } catch (error) {
      throw this.refusal(error);
    }
  }

  /**
   * Runs `attempt` for `id`, counting it only when it is refused (a 4xx):
   * once the points are spent, every attempt is refused with a 429 until
   * the block or window ends, whether it would have succeeded or not.
   */
  async attempt<T>(id: string, attempt: () => Promise<T>): Promise<T> {
    // The point is taken first, so concurrent attempts cannot overshoot the limit.
    await this.consume(id);
    try {
      const result = await attempt();
      await this.limiter.reward(id);
      return result;
    } catch (error) {
      if (!isRefusal(error)) await this.limiter.reward(id);
      throw error;
    }
  }

  /** Forgets `id`'s count and block (an operator's unlock; tests). */
  async reset(id: string): Promise<void> {
    await this.limiter.delete(id);
  }

  private refusal(error: unknown): unknown {
    if (!(error instanceof RateLimiterRes)) return error; // Redis failed: the caller's request fails rather than going unchecked.
    const retryAfterSeconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    return tooManyRequests(
      this.declaration.message(new Date(Date.now() + retryAfterSeconds * 1000)),
      retryAfterSeconds,
      this.declaration.code,
    );
  }
}
