import { randomUUID } from 'node:crypto';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, env } from '../src/config.js';
import { AppError, badRequest, forbidden, unauthorized } from '../src/errors.js';
import { fromGrpcError, toGrpcError } from '../src/grpc/status.js';
import { Limit, parseLimitSettings } from '../src/limits.js';
import { createRedis } from '../src/redis.js';
import { testInfra } from '../src/testing/index.js';

const message = (until: Date) => `Slow down until ${until.toISOString()}`;

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('limits in Redis', () => {
  const redis = createRedis(testInfra().redisUrl);
  afterAll(async () => {
    await redis.quit();
  });
  const key = () => `platform:test-${randomUUID().slice(0, 8)}` as const;

  it('counts uses per id and refuses past the points with a 429 telling when to come back', async () => {
    const prefix = key();
    const limit = new Limit(redis, { key: prefix, message }, { points: 3, durationSeconds: 60, blockSeconds: 0 });
    for (let i = 0; i < 3; i += 1) await limit.consume('a');
    const before = Date.now();
    const error = await refusal(limit.consume('a'));
    expect(error.status).toBe(429);
    expect(error.retryAfterSeconds).toBeGreaterThan(55);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(60);
    const until = Date.parse(String(error.messages).replace('Slow down until ', ''));
    expect(Math.abs(until - (before + error.retryAfterSeconds! * 1000))).toBeLessThan(2000);
    // Another id has its own count, under `<service>:<entity>:<id>`.
    await limit.consume('b');
    expect(Number(await redis.get(`${prefix}:b`))).toBe(1);
    expect(await redis.pttl(`${prefix}:b`)).toBeGreaterThan(55_000);
  });

  it('blocks for blockSeconds once the points are spent, beyond the window', async () => {
    const limit = new Limit(redis, { key: key(), message }, { points: 2, durationSeconds: 1, blockSeconds: 120 });
    await limit.consume('x');
    await limit.consume('x');
    expect((await refusal(limit.consume('x'))).retryAfterSeconds).toBe(120);
    await new Promise((r) => setTimeout(r, 1100));
    // The window is over, but the block holds.
    const later = await refusal(limit.consume('x'));
    expect(later.status).toBe(429);
    expect(later.retryAfterSeconds).toBeGreaterThan(110);
    await limit.reset('x');
    await limit.consume('x');
  });

  it('counts only refused attempts, and once spent refuses even attempts that would succeed', async () => {
    const limit = new Limit(redis, { key: key(), message }, { points: 3, durationSeconds: 60, blockSeconds: 300 });
    let ran = 0;
    const succeed = () => limit.attempt('acct', async () => ++ran);
    const fail = (error: AppError) =>
      limit.attempt('acct', async () => {
        ran += 1;
        throw error;
      });
    for (let i = 0; i < 10; i += 1) await succeed();
    await expect(fail(unauthorized('Incorrect email or password'))).rejects.toMatchObject({ status: 401 });
    // A failure that is not a refusal (a crash) does not count.
    await expect(
      limit.attempt('acct', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(fail(forbidden('Wrong room password'))).rejects.toMatchObject({ status: 403 });
    await expect(fail(badRequest('missing'))).rejects.toMatchObject({ status: 400 });
    const ranBefore = ran;
    const locked = await refusal(succeed());
    expect(locked.status).toBe(429);
    expect(locked.retryAfterSeconds).toBe(300);
    expect(ran).toBe(ranBefore); // refused without running
    expect((await refusal(succeed())).retryAfterSeconds).toBeGreaterThan(290);
  });

  it('never lets concurrent attempts overshoot the points', async () => {
    const limit = new Limit(redis, { key: key(), message }, { points: 5, durationSeconds: 60, blockSeconds: 0 });
    let ran = 0;
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        limit.attempt('burst', async () => {
          ran += 1;
          await new Promise((r) => setTimeout(r, 20));
          throw unauthorized();
        }),
      ),
    );
    expect(ran).toBe(5);
    expect(results.filter((r) => r.status === 'rejected' && (r.reason as AppError).status === 429)).toHaveLength(15);
  });

  it('fails the request when Redis is unreachable rather than letting it through', async () => {
    const down = createRedis('redis://127.0.0.1:1');
    down.on('error', () => undefined);
    const limit = new Limit(down, { key: key(), message }, { points: 5, durationSeconds: 60, blockSeconds: 0 });
    const error = await limit.consume('a').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(AppError);
    down.disconnect();
  });
});

describe('limit settings', () => {
  it('reads <points>/<duration>[/<block>] with units, and defaults', () => {
    expect(parseLimitSettings('100/1h/1h')).toEqual({ points: 100, durationSeconds: 3600, blockSeconds: 3600 });
    expect(parseLimitSettings('20/10')).toEqual({ points: 20, durationSeconds: 10, blockSeconds: 0 });
    expect(parseLimitSettings('5/15m/2d')).toEqual({ points: 5, durationSeconds: 900, blockSeconds: 172_800 });
    expect(parseLimitSettings('0/1h')).toBeUndefined();
    expect(parseLimitSettings('lots')).toBeUndefined();
    const shape = { LIMIT_X: env.limit('10/1m') };
    expect(loadConfig(shape, {}).LIMIT_X).toEqual({ points: 10, durationSeconds: 60, blockSeconds: 0 });
    expect(loadConfig(shape, { LIMIT_X: '3/30s/5m' }).LIMIT_X).toEqual({ points: 3, durationSeconds: 30, blockSeconds: 300 });
    expect(() => loadConfig(shape, { LIMIT_X: '3 per hour' })).toThrow(/LIMIT_X: must be <points>\/<duration>/);
  });

  it('carries Retry-After across gRPC with the 429', () => {
    const payload = toGrpcError(new AppError(429, 'Slow down', { retryAfterSeconds: 42 }));
    expect(payload.code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
    const back = fromGrpcError({ ...payload, message: payload.details, name: 'Error' });
    expect(back).toMatchObject({ status: 429, messages: 'Slow down', retryAfterSeconds: 42 });
    const plain = fromGrpcError({ ...toGrpcError(forbidden('No')), message: 'No', name: 'Error' });
    expect(plain.retryAfterSeconds).toBeUndefined();
  });
});
