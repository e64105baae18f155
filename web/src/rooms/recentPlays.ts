// A play reaches the room's recent songs through the room's events (the room
// service's outbox, Kafka, the playlist service), a moment after the feed said
// the song changed: asked at once, the list may not have it yet, and would then
// stay without it for the cache's 60 s. So the list is asked again until the
// play that ended is in it.
import type { QueryClient } from '@tanstack/react-query';
import { keys } from '../api/keys';
import type { recentSongs } from '../api/spinroom';

type Plays = Awaited<ReturnType<typeof recentSongs.list>>;

/** Whether the list has the play that started at `startTime` (ms; the list's playedAt is the play's start). */
export function listsPlay(plays: Plays | undefined, startTime: number): boolean {
  return (plays ?? []).some((play) => Math.abs(Date.parse(play.playedAt) - startTime) < 1000);
}

/**
 * Refreshes the room's recent songs now and every `everyMs` until they list
 * the play that started at `startTime`, for `forMs` at most. A list nobody
 * shows is only marked stale (it is fetched when shown). Answers a cancel.
 */
export function awaitListedPlay(
  client: QueryClient,
  slug: string,
  startTime: number,
  { everyMs = 2_000, forMs = 30_000 }: { everyMs?: number; forMs?: number } = {},
): () => void {
  const deadline = Date.now() + forMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelled = false;
  const check = async () => {
    await client.invalidateQueries({ queryKey: keys.recentSongs(slug) });
    if (cancelled || listsPlay(client.getQueryData<Plays>(keys.recentSongs(slug)), startTime) || Date.now() >= deadline) return;
    timer = setTimeout(() => void check(), everyMs);
  };
  void check();
  return () => {
    cancelled = true;
    clearTimeout(timer);
  };
}
