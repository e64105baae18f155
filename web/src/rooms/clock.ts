// The song clock is the server's (spec 002 §4 "Playback"): position = the
// song's duration minus the time left before nowPlaying.endTime, on the
// server's clock (our clock plus the offset learnt at join and from pings).
import type { NowPlaying } from '../api/types';

/** How many recent observations the offset is taken from. */
const SAMPLES = 10;

export class ServerClock {
  private offsetMs = 0;
  private samples: number[] = [];

  /**
   * A server time seen at local time `localMs` (a join's serverTime, a ping's ms). A message
   * arrives after it was sent, never before, so a late one (a busy page, a slow network)
   * reads the server as behind: the offset is the largest of the recent observations.
   */
  observe(serverMs: number, localMs = Date.now()) {
    if (!Number.isFinite(serverMs) || serverMs <= 0) return;
    this.samples.push(serverMs - localMs);
    if (this.samples.length > SAMPLES) this.samples.shift();
    this.offsetMs = Math.max(...this.samples);
  }

  now(localMs = Date.now()): number {
    return localMs + this.offsetMs;
  }

  get offset(): number {
    return this.offsetMs;
  }
}

/** Seconds into the song now (clamped to 0..duration). */
export function playPosition(nowPlaying: NowPlaying, serverNowMs: number): number {
  const duration = nowPlaying.song.duration || (nowPlaying.endTime - nowPlaying.startTime) / 1000;
  const left = Math.max(0, (nowPlaying.endTime - serverNowMs) / 1000);
  return Math.min(duration, Math.max(0, duration - left));
}

/** 0..1 of the way through the song. */
export function playProgress(nowPlaying: NowPlaying, serverNowMs: number): number {
  const duration = nowPlaying.song.duration || (nowPlaying.endTime - nowPlaying.startTime) / 1000;
  return duration > 0 ? playPosition(nowPlaying, serverNowMs) / duration : 0;
}

/** m:ss */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
