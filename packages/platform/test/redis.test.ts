import { afterAll, describe, expect, it } from 'vitest';
import { createRedis, redisScript } from '../src/redis.js';
import { eventually, testInfra } from '../src/testing/index.js';

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

  it('sends a script by its hash after its first call, alone or in a pipeline, and again after Redis forgot it', async () => {
    const key = `platform:test:script:${Date.now()}:${Math.random()}`;
    // Unique text, so that no other test's connection loaded it before.
    const incr = redisScript(redis, `-- ${key}\nreturn redis.call('INCRBY', KEYS[1], ARGV[1])`);
    const monitor = await createRedis(testInfra().redisUrl).monitor();
    const sent: string[] = [];
    monitor.on('monitor', (_time: string, args: string[]) => {
      const command = args[0]!.toLowerCase();
      if (args.includes(key) && command.startsWith('eval')) sent.push(command); // not the script's own INCRBY
    });
    try {
      expect(await incr.run([key], [1])).toBe(1);
      expect(await incr.run([key], [2])).toBe(3);
      const batch = redis.pipeline();
      incr.queue(batch, [key], [3]);
      incr.queue(batch, [key], [4]);
      expect(await batch.exec()).toEqual([
        [null, 6],
        [null, 10],
      ]);
      await redis.script('FLUSH');
      expect(await incr.run([key], [5])).toBe(15);
      const after = redis.pipeline();
      incr.queue(after, [key], [6]);
      expect(await after.exec()).toEqual([[null, 21]]);
      // The text once, then hashes; after the flush a hash refused (NOSCRIPT, not run) and the text again.
      await eventually(async () => expect(sent.length).toBeGreaterThanOrEqual(6));
      expect(sent.slice(0, 4)).toEqual(['eval', 'evalsha', 'evalsha', 'evalsha']);
      expect(sent.filter((c) => c === 'eval').length).toBeGreaterThanOrEqual(2);
      expect(await redis.get(key)).toBe('21');
    } finally {
      monitor.disconnect();
      await redis.del(key);
    }
  });
});
