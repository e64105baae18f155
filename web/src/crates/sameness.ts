// Spec 002 §5, song sameness: the same crate entry, or the same songId,
// songShortId or isrc, or a provider id in common, or a duration within 5 s
// with equal track and artist names (case-insensitive). The playlist service
// applies the same rule (services/playlist/src/domain/song.ts); test/sameness.test.ts
// holds both to one table of cases. Empty ids match nothing.

/** What the rule reads of a song: a crate entry, a search result, an upload, a played song. */
export interface SongIdentity {
  trackName: string;
  artistName: string;
  /** Seconds. */
  duration: number;
  songId?: string;
  songShortId?: string;
  isrc?: string | null;
  musicProviders?: Record<string, string>;
  crateSongUuid?: string;
}

/** Spec 002 §9: duration tolerance 5 s. */
export const DURATION_TOLERANCE_SECONDS = 5;

const present = (x: string | null | undefined): x is string => typeof x === 'string' && x !== '';
const equal = (x: string | null | undefined, y: string | null | undefined) => present(x) && present(y) && x === y;
const name = (x: string) => x.trim().toLowerCase();

export function isSameSong(a: SongIdentity, b: SongIdentity): boolean {
  if (equal(a.crateSongUuid, b.crateSongUuid) || equal(a.songId, b.songId) || equal(a.songShortId, b.songShortId)) return true;
  if (equal(a.isrc?.toUpperCase(), b.isrc?.toUpperCase())) return true;
  for (const [provider, id] of Object.entries(a.musicProviders ?? {})) {
    if (equal(id, b.musicProviders?.[provider])) return true;
  }
  return (
    Math.abs(a.duration - b.duration) <= DURATION_TOLERANCE_SECONDS &&
    name(a.trackName) === name(b.trackName) &&
    name(a.artistName) === name(b.artistName)
  );
}

/** The first song of `songs` that is the same as `song`, if any (the one to name in a warning). */
export function findSameSong<T extends SongIdentity>(song: SongIdentity, songs: readonly T[]): T | undefined {
  return songs.find((other) => isSameSong(song, other));
}

/**
 * For each song of a list (a queue) that is the same as an earlier one, the
 * index of the first such: the entries to mark as duplicates, and of what.
 */
export function duplicatesIn(songs: readonly SongIdentity[]): Map<number, number> {
  const repeats = new Map<number, number>();
  songs.forEach((song, i) => {
    // A crate entry is itself, not a duplicate of itself: compare entries as songs.
    const first = songs.slice(0, i).findIndex((earlier) => isSameSong({ ...earlier, crateSongUuid: undefined }, song));
    if (first >= 0) repeats.set(i, first);
  });
  return repeats;
}
