// The audio itself, in sync with the room: one provider at a time; the same
// song (provider, end time, url) is not restarted; position comes from the
// server clock. Uploads play through hls.js (loaded on first use), the
// playlist fetched with the bearer token (its key link is signed, segments are
// public).
import type Hls from 'hls.js';
import type { NowPlaying } from '../api/types';
import { playPosition, type ServerClock } from './clock';
import { choosePlayback } from './playback';

/** Why nothing plays: a dictionary entry (shown in the reader's language), with the providers a song is on for songOnProviders. */
export type PlayerReason =
  | { key: 'streamNeedsToken' | 'noHlsAudio' | 'songNotVerified' | 'songNotLoaded' | 'songNotPlayed' }
  | { key: 'songOnProviders'; providers: string[] };

export interface PlayerStatus {
  /** What is playing, or why nothing is. */
  state: 'idle' | 'loading' | 'playing' | 'blocked' | 'unavailable' | 'error';
  reason?: PlayerReason;
  provider?: string;
}

const DRIFT_LIMIT_S = 1;

export class SyncedPlayer {
  private hls: Hls | undefined;
  private currentKey = '';
  private drift: ReturnType<typeof setInterval> | undefined;
  private status: PlayerStatus = { state: 'idle' };
  private listeners = new Set<() => void>();
  private nowPlaying: NowPlaying | null = null;

  constructor(
    private readonly audio: HTMLAudioElement,
    private readonly clock: ServerClock,
    private readonly token: () => string | null,
  ) {}

  get snapshot(): PlayerStatus {
    return this.status;
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(status: PlayerStatus) {
    this.status = status;
    for (const l of this.listeners) l();
  }

  /** Where the room is in the song now, in seconds. */
  expectedPosition(): number | undefined {
    return this.nowPlaying ? playPosition(this.nowPlaying, this.clock.now()) : undefined;
  }

  async play(nowPlaying: NowPlaying | null): Promise<void> {
    this.nowPlaying = nowPlaying;
    if (!nowPlaying || nowPlaying.endTime <= this.clock.now()) {
      this.stop();
      return;
    }
    const choice = choosePlayback(nowPlaying.song);
    const key = choice.kind === 'none' ? `none|${nowPlaying.endTime}` : `${choice.provider}|${nowPlaying.endTime}|${choice.url}`;
    if (key === this.currentKey) return;
    this.stop();
    this.currentKey = key;
    if (choice.kind === 'none') {
      this.set({ state: 'unavailable', reason: { key: 'songOnProviders', providers: choice.providers } });
      return;
    }
    this.set({ state: 'loading', provider: choice.provider });
    if (choice.kind === 'preview') {
      this.audio.src = choice.url;
      await this.start(choice.provider);
      return;
    }
    const { default: HlsClass } = await import('hls.js/light');
    if (this.currentKey !== key) return;
    const position = this.expectedPosition() ?? 0;
    if (!HlsClass.isSupported()) {
      if (this.audio.canPlayType('application/vnd.apple.mpegurl')) {
        this.set({ state: 'unavailable', reason: { key: 'streamNeedsToken' } });
      } else this.set({ state: 'unavailable', reason: { key: 'noHlsAudio' } });
      return;
    }
    const token = this.token();
    const hls = new HlsClass({
      startPosition: position,
      enableWorker: false,
      xhrSetup: (xhr, url) => {
        if (token && new URL(url, location.href).origin === location.origin && url.includes('/hls-playlist')) {
          xhr.setRequestHeader('authorization', `Bearer ${token}`);
        }
      },
    });
    this.hls = hls;
    hls.on(HlsClass.Events.ERROR, (_event, data) => {
      if (!data.fatal) return;
      const status = (data.response as { code?: number } | undefined)?.code;
      this.set({
        state: 'error',
        reason: { key: status === 403 ? 'songNotVerified' : 'songNotLoaded' },
        provider: 'uploadService',
      });
      this.destroyHls();
    });
    hls.on(HlsClass.Events.MANIFEST_PARSED, () => {
      const at = this.expectedPosition();
      if (at !== undefined) this.audio.currentTime = at;
      void this.start('uploadService');
    });
    hls.loadSource(choice.url);
    hls.attachMedia(this.audio);
  }

  private async start(provider: string) {
    try {
      await this.audio.play();
      this.set({ state: 'playing', provider });
      clearInterval(this.drift);
      this.drift = setInterval(() => this.correctDrift(), 3000);
    } catch (error) {
      if ((error as Error).name === 'NotAllowedError') this.set({ state: 'blocked', provider });
      else if ((error as Error).name !== 'AbortError') this.set({ state: 'error', reason: { key: 'songNotPlayed' }, provider });
    }
  }

  /** After a click on "turn on sound" (browsers need a gesture before audio plays). */
  async resume() {
    const at = this.expectedPosition();
    if (at !== undefined && this.hls) this.audio.currentTime = at;
    await this.start(this.status.provider ?? 'uploadService');
  }

  private correctDrift() {
    const expected = this.expectedPosition();
    if (expected === undefined || this.audio.paused || !this.hls) return;
    if (Math.abs(this.audio.currentTime - expected) > DRIFT_LIMIT_S) this.audio.currentTime = expected;
  }

  setVolume(volume: number) {
    this.audio.volume = Math.max(0, Math.min(1, volume));
  }

  private destroyHls() {
    this.hls?.destroy();
    this.hls = undefined;
  }

  stop() {
    clearInterval(this.drift);
    this.currentKey = '';
    this.destroyHls();
    this.audio.pause();
    this.audio.removeAttribute('src');
    this.audio.load();
    this.set({ state: 'idle' });
  }
}
