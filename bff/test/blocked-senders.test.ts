import { createLogger } from '@spinroom/platform/core';
import { describe, expect, it } from 'vitest';
import { BlockedSenders } from '../src/feed/blocked-senders.js';

const ANN = 'a0000000-0000-4000-8000-000000000001';
const CARL = 'c0000000-0000-4000-8000-000000000003';

function harness(lists: Record<string, string[] | Error>) {
  let now = 1_000_000;
  const asked: string[] = [];
  const senders = new BlockedSenders(
    async (reader) => {
      asked.push(reader);
      const list = lists[reader] ?? [];
      if (list instanceof Error) throw list;
      return list;
    },
    createLogger('test', { level: 'silent' }),
    10_000,
    () => now,
  );
  return { senders, asked, advance: (ms: number) => (now += ms) };
}

describe("the live chat's blocked senders", () => {
  it("hides what a reader blocked once their list is read, whatever the case of the uuid, and nobody else's", async () => {
    const { senders } = harness({ [ANN]: [CARL.toUpperCase()] });
    expect(senders.hides(ANN, CARL)).toBe(false); // not watched: nothing held
    await senders.watch(ANN);
    expect(senders.hides(ANN, CARL)).toBe(true);
    expect(senders.hides(ANN, ANN)).toBe(false);
    expect(senders.hides(CARL, ANN)).toBe(false);
  });

  it('reads a list again once it is older than the refresh time, answering from the old one meanwhile', async () => {
    const lists: Record<string, string[]> = { [ANN]: [] };
    const { senders, asked, advance } = harness(lists);
    await senders.watch(ANN);
    lists[ANN] = [CARL];
    expect(senders.hides(ANN, CARL)).toBe(false);
    expect(asked).toHaveLength(1);
    advance(10_001);
    expect(senders.hides(ANN, CARL)).toBe(false); // the old list, while the new one is read
    await new Promise((resolve) => setImmediate(resolve));
    expect(senders.hides(ANN, CARL)).toBe(true);
    expect(asked).toHaveLength(2);
  });

  it('keeps a list while any of the reader’s connections is in a room, and forgets it after the last', async () => {
    const { senders, asked } = harness({ [ANN]: [CARL] });
    await senders.watch(ANN);
    await senders.watch(ANN); // a second tab: the list is fresh, not read again
    expect(asked).toHaveLength(1);
    senders.unwatch(ANN);
    expect(senders.hides(ANN, CARL)).toBe(true);
    senders.unwatch(ANN);
    expect(senders.size).toBe(0);
    expect(senders.hides(ANN, CARL)).toBe(false);
  });

  it('hides nobody while a list cannot be read, and tries again later', async () => {
    const lists: Record<string, string[] | Error> = { [ANN]: new Error('social service down') };
    const { senders, asked, advance } = harness(lists);
    await senders.watch(ANN);
    expect(senders.hides(ANN, CARL)).toBe(false);
    lists[ANN] = [CARL];
    advance(10_001);
    senders.hides(ANN, CARL);
    await new Promise((resolve) => setImmediate(resolve));
    expect(senders.hides(ANN, CARL)).toBe(true);
    expect(asked).toHaveLength(2);
  });
});
