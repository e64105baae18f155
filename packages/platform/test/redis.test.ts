import { afterAll, describe, expect, it } from 'vitest';
import { createRedis } from '../src/redis.js';
import { testInfra } from '../src/testing/index.js';

describe('Redis', () => {
  const redis = createRedis(testInfra().redisUrl);
  afterAll(async () => {
    await redis.quit();
  });

  it('talks to the real server, pipelining concurrent commands', async () => {
    const key = `platform:test:${Date.now()}`;
    const [set, value, ttl] = await Promise.all([redis.set(key, 'v', 'EX', 60), redis.get(key), redis.ttl(key)]);
    expect(set).toBe('OK');
    expect(value).toBe('v');
    expect(ttl).toBeGreaterThan(0);
    await redis.del(key);
  });
});
