import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { keys } from '../src/api/keys';
import { awaitListedPlay, listsPlay } from '../src/rooms/recentPlays';

const play = (startTime: number) => ({
  playId: `p${startTime}`,
  djUuid: 'dj',
  song: { trackName: 'T', artistName: 'A' } as never,
  playedAt: new Date(startTime).toISOString(),
  voteCounts: { likes: 0, dislikes: 0, stars: 0 },
});
const ENDED = Date.parse('2026-11-26T12:00:00Z');

describe('the recent songs after a song changes', () => {
  let client: QueryClient;
  afterEach(() => client?.clear());

  it('finds a play by its start', () => {
    expect(listsPlay([play(ENDED)], ENDED)).toBe(true);
    expect(listsPlay([play(ENDED - 60_000)], ENDED)).toBe(false);
    expect(listsPlay(undefined, ENDED)).toBe(false);
  });

  it('asks again until the play that ended is listed, then stops', async () => {
    client = new QueryClient();
    let fetches = 0;
    // The room's events bring the play on the third answer.
    const queryFn = async () => (++fetches >= 3 ? [play(ENDED), play(ENDED - 60_000)] : [play(ENDED - 60_000)]);
    const shown = new QueryObserver(client, { queryKey: keys.recentSongs('room'), queryFn, staleTime: 60_000 });
    const off = shown.subscribe(() => undefined);
    await expect.poll(() => fetches).toBe(1);
    awaitListedPlay(client, 'room', ENDED, { everyMs: 20 });
    await expect.poll(() => listsPlay(client.getQueryData(keys.recentSongs('room')), ENDED)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fetches).toBe(3);
    off();
  });

  it('gives up after its time, and stops when cancelled', async () => {
    client = new QueryClient();
    let fetches = 0;
    const queryFn = async () => {
      fetches += 1;
      return [play(ENDED - 60_000)];
    };
    const off = new QueryObserver(client, { queryKey: keys.recentSongs('room'), queryFn, staleTime: 60_000 }).subscribe(() => undefined);
    await expect.poll(() => fetches).toBe(1);
    awaitListedPlay(client, 'room', ENDED, { everyMs: 10, forMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const atDeadline = fetches;
    expect(atDeadline).toBeGreaterThan(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fetches).toBe(atDeadline);

    const cancel = awaitListedPlay(client, 'room', ENDED, { everyMs: 10, forMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    cancel();
    const atCancel = fetches;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fetches).toBeLessThanOrEqual(atCancel + 1);
    off();
  });
});
