import { CATALOGUE_GENERATION_KEY, createRedis, watchCatalogueGeneration } from '@spinroom/platform/core';
import { testInfra } from '@spinroom/platform/testing';
import { describe, expect, it } from 'vitest';
import { SearchAnswers, type SearchKey } from '../src/routes/playlist/search-answers.js';

function harness(options: { maxAgeMs?: number; maxBytes?: number } = {}) {
  let generation: number | undefined = 1;
  let clock = 0;
  const asked: { q: string; generation: number }[] = [];
  let fail = false;
  const answers = new SearchAnswers({
    generation: () => generation,
    maxAgeMs: options.maxAgeMs ?? 60_000,
    maxBytes: options.maxBytes ?? 1_000_000,
    now: () => clock,
  });
  const search = async (key: Partial<SearchKey> & { q: string }) =>
    (
      await answers.answer({ limit: 20, offset: 0, explicit: true, ...key }, async (g) => {
        asked.push({ q: key.q, generation: g });
        if (fail) throw new Error('down');
        return Buffer.from(`${key.q}#${asked.length}`);
      })
    ).toString();
  return {
    answers,
    asked,
    search,
    set: (s: { generation?: number | undefined; clock?: number; fail?: boolean }) => {
      if ('generation' in s) generation = s.generation;
      clock = s.clock ?? clock;
      fail = s.fail ?? fail;
    },
  };
}

describe("the catalogue search's answers kept by the BFF", () => {
  it('reuses an answer within its generation and age, sharing one among searches asked at once; the page and filter are the key', async () => {
    const { search, asked, set } = harness();
    const [a, b] = await Promise.all([search({ q: 'Storm' }), search({ q: '  storm ' })]);
    expect([a, b]).toEqual(['Storm#1', 'Storm#1']);
    expect(asked).toEqual([{ q: 'Storm', generation: 1 }]);
    expect(await search({ q: 'storm', offset: 20 })).toBe('storm#2');
    expect(await search({ q: 'storm', explicit: false })).toBe('storm#3');
    expect(await search({ q: 'storm', limit: 5 })).toBe('storm#4');
    set({ clock: 59_999 });
    expect(await search({ q: 'storm' })).toBe('Storm#1');
    set({ clock: 60_000 });
    expect(await search({ q: 'storm' })).toBe('storm#5');
  });

  it('asks again under a new generation, and each time while the generation is unknown', async () => {
    const { search, asked, set } = harness();
    expect(await search({ q: 'storm' })).toBe('storm#1');
    set({ generation: 2 });
    expect(await search({ q: 'storm' })).toBe('storm#2');
    expect(await search({ q: 'storm' })).toBe('storm#2');
    set({ generation: undefined });
    expect(await search({ q: 'storm' })).toBe('storm#3');
    expect(await search({ q: 'storm' })).toBe('storm#4');
    expect(asked.map((a) => a.generation)).toEqual([1, 2, 0, 0]);
    // The answers of generation 2 went when it was not known: back at 2 (a counter Redis lost), it asks again.
    set({ generation: 2 });
    expect(await search({ q: 'storm' })).toBe('storm#5');
  });

  it('keeps no failure, and bodies up to its bytes, the least recently used leaving first', async () => {
    const { answers, search, set } = harness({ maxBytes: 20 });
    set({ fail: true });
    await expect(search({ q: 'x' })).rejects.toThrow('down');
    set({ fail: false });
    expect(await search({ q: 'x' })).toBe('x#2');
    expect(await search({ q: 'aaaaa' })).toBe('aaaaa#3'); // 7 + 3 bytes
    expect(await search({ q: 'x' })).toBe('x#2'); // used: now the most recent
    expect(await search({ q: 'bbbbbbbbbb' })).toBe('bbbbbbbbbb#4'); // 12 more: aaaaa leaves
    expect(answers.size).toBe(15);
    expect(await search({ q: 'x' })).toBe('x#2');
    expect(await search({ q: 'aaaaa' })).toBe('aaaaa#5');
    expect(answers.size).toBeLessThanOrEqual(20);
    const none = harness({ maxAgeMs: 0 });
    await none.search({ q: 'x' });
    await none.search({ q: 'x' });
    expect(none.asked).toHaveLength(2);
  });

  it("reads the catalogue's generation from Redis, and forgets it when Redis does not answer", async () => {
    const redis = createRedis(testInfra().redisUrl);
    const watch = watchCatalogueGeneration(redis, { everyMs: 20 });
    try {
      while (watch.current() === undefined) await new Promise((r) => setTimeout(r, 10));
      const seen = watch.current()!;
      const next = await redis.incr(CATALOGUE_GENERATION_KEY);
      expect(next).toBeGreaterThan(seen);
      while (watch.current()! < next) await new Promise((r) => setTimeout(r, 10));
      redis.disconnect();
      while (watch.current() !== undefined) await new Promise((r) => setTimeout(r, 10));
    } finally {
      watch.stop();
      redis.disconnect();
    }
  });
});
