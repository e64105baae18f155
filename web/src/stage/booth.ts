// What the DJ booth tells (pure, from the live state): who plays and who is
// next. The room service plays the first DJ on the stage; when their song
// ends they move to the end of the stage (or leave it, when it was the last
// song of their turn: songsRemainingForDj 1), and the DJ then first plays
// their next song. A stage the last DJ leaves is taken by the first on the
// waitlist. (A DJ's own "leave after my next song" is not in the state, so
// the booth cannot foresee it.)
import type { RoomState, Song } from '../api/types';

export interface NextUp {
  djUuid: string;
  /** The song they will play, when they (or their queue) chose it. */
  song: Song | null;
  /** They are not on the stage yet: the first in line takes a seat. */
  fromWaitlist: boolean;
}

type BoothState = Pick<RoomState, 'djs' | 'nowPlaying' | 'waitlist' | 'songsRemainingForDj' | 'allUsers'>;

/** The DJ whose song plays now: the first on the stage, while something plays. */
export function playingDj(state: BoothState): string | null {
  return state.nowPlaying ? (state.djs[0]?.uuid ?? null) : null;
}

/** Who plays after the current song (or first, on a silent stage with DJs), or null when nobody will. */
export function nextUp(state: BoothState): NextUp | null {
  const { djs } = state;
  if (!state.nowPlaying) {
    const first = djs[0];
    return first ? { djUuid: first.uuid, song: first.nextSong ?? null, fromWaitlist: false } : fromWaitlist(state);
  }
  const current = djs[0];
  const lastOfTurn = state.songsRemainingForDj === 1;
  const rotation = [...djs.slice(1), ...(current && !lastOfTurn ? [current] : [])];
  const next = rotation[0];
  if (next) return { djUuid: next.uuid, song: next.nextSong ?? null, fromWaitlist: false };
  return fromWaitlist(state);
}

function fromWaitlist(state: BoothState): NextUp | null {
  // The room seats the first in line who may still DJ.
  const mayDj = new Map(state.allUsers.map((u) => [u.uuid, u.canDj !== false]));
  const uuid = (state.waitlist ?? []).find((u) => mayDj.get(u) !== false);
  return uuid ? { djUuid: uuid, song: null, fromWaitlist: true } : null;
}

/** Seconds left of the song at this moment of the server's clock. */
export function secondsLeft(nowPlaying: NonNullable<RoomState['nowPlaying']>, serverNowMs: number): number {
  return Math.max(0, (nowPlaying.endTime - serverNowMs) / 1000);
}

/** Whether this person may take a free seat: signed in, not on the stage, allowed to DJ. */
export function mayTakeSeat(state: Pick<RoomState, 'djs' | 'allUsers'>, userUuid: string | null, isLoggedIn: boolean): boolean {
  if (!isLoggedIn || !userUuid || state.djs.some((d) => d.uuid === userUuid)) return false;
  return state.allUsers.find((u) => u.uuid === userUuid)?.canDj !== false;
}
