/**
 * Play tracking (spec 002 "Play tracking"): what a play event counts for. Each
 * play id counts once per kind, whatever Kafka redelivers (the store keeps the
 * ids it counted); a total-played event adds the time listened.
 */

export type PlayKind = 'totalPlayed' | 'played15Sec' | 'played30Sec';
export const PLAY_KINDS: readonly PlayKind[] = ['totalPlayed', 'played15Sec', 'played30Sec'];

/**
 * The scopes counted: every play, and per song, DJ, room (its slug) and
 * listener (a scope whose key is empty is skipped); db/play-store.ts sums a
 * batch's events per scope and key.
 */
export type PlayScope = 'all' | 'song' | 'dj' | 'room' | 'user';
export const PLAY_SCOPES: readonly PlayScope[] = ['all', 'song', 'dj', 'room', 'user'];

export interface PlayEvent {
  kind: PlayKind;
  playId: string;
  userUuid: string;
  songId: string;
  djUuid: string;
  roomSlug: string;
  startedDate: Date;
  updatedDate: Date;
  /** The song's length in seconds (0: unknown). */
  duration: number;
}

export interface PlayTotals {
  totalPlayed: number;
  playedSeconds: number;
  fifteenSecondPlays: number;
  thirtySecondPlays: number;
}

export const NO_PLAYS: PlayTotals = { totalPlayed: 0, playedSeconds: 0, fifteenSecondPlays: 0, thirtySecondPlays: 0 };

/** The most one play may count for when its song's length is unknown (a day). */
const MAX_PLAY_SECONDS = 86_400;
/** Leeway over the song's length for clocks and buffering. */
const LENGTH_LEEWAY_SECONDS = 5;

/**
 * Seconds listened in a play: from its start to its last update, never below
 * zero, never more than its song's length (with a little leeway) or a day.
 */
export function playedSeconds(event: Pick<PlayEvent, 'startedDate' | 'updatedDate' | 'duration'>): number {
  const elapsed = (event.updatedDate.getTime() - event.startedDate.getTime()) / 1000;
  const cap = event.duration > 0 ? event.duration + LENGTH_LEEWAY_SECONDS : MAX_PLAY_SECONDS;
  return Math.round(Math.min(Math.max(elapsed, 0), cap, MAX_PLAY_SECONDS));
}

/** What one event adds to each scope's totals. */
export function playDelta(event: PlayEvent): PlayTotals {
  return {
    totalPlayed: event.kind === 'totalPlayed' ? 1 : 0,
    playedSeconds: event.kind === 'totalPlayed' ? playedSeconds(event) : 0,
    fifteenSecondPlays: event.kind === 'played15Sec' ? 1 : 0,
    thirtySecondPlays: event.kind === 'played30Sec' ? 1 : 0,
  };
}

/** Within one batch, the first event of each play id and kind (Kafka may hand the same one twice). */
export function firstOfEachPlay<T extends Pick<PlayEvent, 'playId' | 'kind'>>(events: readonly T[]): T[] {
  const seen = new Set<string>();
  return events.filter((event) => {
    const id = `${event.playId}\u0000${event.kind}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
