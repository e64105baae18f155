// Play tracking for one listener in one room: follows what the listener
// actually hears (../playback/heard.ts) and feeds a PlayTracker. A play is one
// song of the room (its end time), so the same song played twice in a row is
// two plays. Tracking runs only for a signed-in listener (spec 002: "a known
// user"); an anonymous visitor has no uuid to report.
import type { RoomState, Song } from '../api/types';
import type { Heard } from '../playback/heard';
import { playingDj } from '../stage/booth';
import { PlayTracker, type SendPlayEvent, type TrackedSong } from './playTracker';

export interface RoomTrackingDeps {
  roomSlug: string;
  roomOwnerUuid?: string;
  userUuid: string;
  /** The room's live state now. */
  state: () => RoomState | undefined;
  /** The listener's volume now, 0-1. */
  volume: () => number;
  /** The listener's subscription level ('' without one), attached to every event. */
  subscriptionLevel: string;
  send: SendPlayEvent;
  heard: () => Heard | undefined;
  onHeardChange: (listener: (heard: Heard | undefined) => void) => () => void;
  now?: () => number;
  /** How often a playing song reports its progress. */
  progressMs?: number;
}

export function trackedSong(song: Song): TrackedSong | undefined {
  if (!song.songId) return undefined;
  // The catalogue answers null for what it lacks (an upload's ISRC); the record leaves such fields out.
  return {
    songId: song.songId,
    trackName: song.trackName ?? undefined,
    artistName: song.artistName ?? undefined,
    duration: song.duration ?? undefined,
    musicProvider: Object.keys(song.musicProviders ?? {})[0],
    isrc: song.isrc ?? undefined,
  };
}

/** Starts tracking; the answer stops it (closing the open play, whose total is sent). */
export function trackRoomPlays(deps: RoomTrackingDeps): () => void {
  const tracker = new PlayTracker(deps.send, deps.now);
  let open: { songId: string; endTime: number } | undefined;
  let stopped = false;

  const close = () => {
    if (!open) return;
    tracker.end(deps.roomSlug, open.songId, deps.volume());
    open = undefined;
  };

  const follow = (heard: Heard | undefined) => {
    if (open && (!heard || heard.endTime !== open.endTime || heard.songId !== open.songId)) close();
    if (!heard?.songId || open) return;
    const state = deps.state();
    const nowPlaying = state?.nowPlaying;
    const dj = state && playingDj(state);
    if (!nowPlaying || !dj || nowPlaying.endTime !== heard.endTime) return;
    const song = trackedSong(nowPlaying.song);
    if (!song || song.songId !== heard.songId) return;
    tracker.start(
      { roomSlug: deps.roomSlug, roomOwnerUuid: deps.roomOwnerUuid, djUuid: dj, song },
      { userUuid: deps.userUuid, userProvider: heard.provider, subscriptionLevel: deps.subscriptionLevel },
      deps.volume(),
    );
    open = { songId: song.songId, endTime: heard.endTime };
  };

  const unsubscribe = deps.onHeardChange((heard) => {
    if (!stopped) follow(heard);
  });
  follow(deps.heard());
  const timer = setInterval(() => {
    if (open) tracker.progress(deps.roomSlug, open.songId, deps.volume());
  }, deps.progressMs ?? 1000);

  return () => {
    stopped = true;
    clearInterval(timer);
    unsubscribe();
    close();
  };
}
