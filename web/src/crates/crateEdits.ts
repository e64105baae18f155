// Playlist edits (spec 002 §4): applied optimistically, rolled back on error,
// refetched when the server's positions differ from ours.
import type { Crate, Song } from '../api/types';

/** The songs with `crateSongUuid` moved to index `to`, positions renumbered densely from 0. */
export function moveSong(songs: Song[], crateSongUuid: string, to: number): Song[] {
  const from = songs.findIndex((s) => s.crateSongUuid === crateSongUuid);
  if (from < 0) return songs;
  const target = Math.max(0, Math.min(songs.length - 1, to));
  const next = songs.slice();
  const [moved] = next.splice(from, 1);
  next.splice(target, 0, moved!);
  return next.map((s, i) => ({ ...s, position: i }));
}

export function removeSong(songs: Song[], crateSongUuid: string): Song[] {
  return songs.filter((s) => s.crateSongUuid !== crateSongUuid).map((s, i) => ({ ...s, position: i }));
}

/** Whether the server's order differs from ours (then we take the server's by refetching). */
export function positionsDiffer(local: Song[], server: Song[]): boolean {
  if (local.length !== server.length) return true;
  const byUuid = new Map(server.map((s) => [s.crateSongUuid, s.position]));
  return local.some((s, i) => byUuid.get(s.crateSongUuid) !== (s.position ?? i));
}

/**
 * One optimistic edit: writes `next` into the cache, runs the request, and on
 * failure puts the previous value back. Answers the server's songs, if any.
 */
export async function optimisticEdit<T>(options: {
  read: () => Song[] | undefined;
  write: (songs: Song[] | undefined) => void;
  next: (songs: Song[]) => Song[];
  send: () => Promise<T>;
  /** Called after success with the server's answer (compare positions and refetch). */
  settle?: (answer: T, optimistic: Song[]) => void;
}): Promise<T> {
  const previous = options.read();
  const optimistic = options.next(previous ?? []);
  options.write(optimistic);
  try {
    const answer = await options.send();
    options.settle?.(answer, optimistic);
    return answer;
  } catch (error) {
    options.write(previous);
    throw error;
  }
}

/** 'New Playlist #' plus the lowest free positive number (spec 002 §5). */
export function newPlaylistName(crates: Pick<Crate, 'crateName'>[]): string {
  const taken = new Set<number>();
  for (const crate of crates) {
    const match = /^New Playlist #(\d+)$/.exec(crate.crateName);
    if (match) taken.add(Number(match[1]));
  }
  let n = 1;
  while (taken.has(n)) n += 1;
  return `New Playlist #${n}`;
}

/** Queue and likes first, then the rest by name. */
export function sortCrates(crates: Crate[]): Crate[] {
  const rank = (c: Crate) => (c.special === 'queue' ? 0 : c.special === 'likes' ? 1 : 2);
  return crates.slice().sort((a, b) => rank(a) - rank(b));
}
