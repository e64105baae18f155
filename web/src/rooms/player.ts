// The audio itself, in sync with the room (spec 002 §4 "Playback"): one
// provider at a time (starting another stops the current); the same song
// (provider, end time, source) is not restarted; position = duration minus the
// time left before the end time on the server's clock; drift over 1 s is
// sought away every 3 s. Each listener hears the song on their own provider:
// the sources of ../playback/choose.ts in order, then one found by ISRC or
// sameness (../playback/resolve.ts), then a preview, then a plain reason.
// Anonymous visitors stop after the free preview limit (../playback/previewLimit.ts).
import type { NowPlaying, Song } from '../api/types';
import { createAdapter } from '../playback/adapters';
import { type Listener, previewSources, providersToFind, providerSource, songSources } from '../playback/choose';
import { setHeard } from '../playback/heard';
import { type FailureReason, PlaybackFailure } from '../playback/loadScript';
import { countPreviewSong, mayPreview } from '../playback/previewLimit';
import { findOnProviders } from '../playback/resolve';
import type { PlayerContext, PlaySource, ProviderPlayer } from '../playback/types';
import { playPosition, type ServerClock } from './clock';
import { providerLabel } from './playback';

/** Why nothing plays: a dictionary entry (shown in the reader's language). */
export type PlayerReason =
  | { key: 'songNotPlayed' }
  | { key: 'songOnProviders'; providers: string[] }
  | { key: 'playbackFailed'; failure: FailureReason; provider: string }
  | { key: 'previewLimitReached' };

export interface PlayerStatus {
  /** What is playing, or why nothing is; `limit`: an anonymous visitor's free songs are used up. */
  state: 'idle' | 'loading' | 'playing' | 'blocked' | 'unavailable' | 'error' | 'limit';
  reason?: PlayerReason;
  /** The provider playing (or trying to). */
  provider?: string;
  /** A preview clip rather than the whole song. */
  preview?: boolean;
}

const DRIFT_LIMIT_S = 1;
const DRIFT_CHECK_MS = 3000;

/** The same song of the room: its end time and every source it offers. */
function playKey(nowPlaying: NowPlaying): string {
  const s = nowPlaying.song;
  return JSON.stringify([nowPlaying.endTime, s.songId, s.musicProviders, s.streamUrls, s.previews]);
}

export class SyncedPlayer {
  private adapter: { key: string; player: ProviderPlayer } | undefined;
  private currentKey = '';
  private generation = 0;
  private drift: ReturnType<typeof setInterval> | undefined;
  private status: PlayerStatus = { state: 'idle' };
  private listeners = new Set<() => void>();
  private nowPlaying: NowPlaying | null = null;
  private volume = 0.8;
  /** An anonymous visitor's play of this song, counted against the free limit once it sounds. */
  private previewPlay: string | undefined;

  constructor(
    private readonly clock: ServerClock,
    private readonly ctx: PlayerContext,
    /** Who listens: signed in or not, and the providers they linked (asked once). */
    private readonly listener: () => Promise<Listener>,
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
    const key = playKey(nowPlaying);
    if (key === this.currentKey) return;
    this.currentKey = key;
    const generation = ++this.generation;
    const current = () => generation === this.generation;
    clearInterval(this.drift);
    setHeard(undefined);
    const song = nowPlaying.song;
    const listener = await this.listener();
    if (!current()) return;
    const previewPlay = listener.loggedIn ? undefined : `${song.songId ?? song.trackName}|${nowPlaying.endTime}`;
    this.previewPlay = previewPlay;
    if (previewPlay && !mayPreview(previewPlay)) {
      this.release();
      this.set({ state: 'limit', reason: { key: 'previewLimitReached' } });
      return;
    }
    let failure: { failure: FailureReason; provider: string } | undefined;
    for await (const source of this.sources(song, listener)) {
      if (!current()) return;
      try {
        const player = await this.adapterFor(source);
        if (!current()) return;
        this.set({ state: 'loading', provider: source.provider, preview: source.preview });
        await player.play(source, () => this.expectedPosition() ?? 0);
        if (!current()) return;
        this.playing(source, nowPlaying);
        return;
      } catch (error) {
        if (!current()) return;
        const reason = error instanceof PlaybackFailure ? error.reason : 'notPlayed';
        if (reason === 'blocked') {
          this.set({ state: 'blocked', provider: source.provider, preview: source.preview });
          return;
        }
        failure ??= { failure: reason, provider: providerLabel(source.provider) };
      }
    }
    if (!current()) return;
    this.release();
    const providers = Object.keys(song.musicProviders ?? {}).map(providerLabel);
    this.set({
      state: 'unavailable',
      reason: failure
        ? { key: 'playbackFailed', ...failure }
        : providers.length
          ? { key: 'songOnProviders', providers }
          : { key: 'songNotPlayed' },
    });
  }

  /** The sources to try, best first; the lookup by ISRC or sameness runs only if the song's own ones fail. */
  private async *sources(song: Song, listener: Listener): AsyncGenerator<PlaySource> {
    yield* songSources(song, listener);
    const found = await findOnProviders(song, providersToFind(song, listener));
    const source = found && providerSource(song, found.provider, found.id, listener);
    if (source) yield source;
    yield* previewSources(song);
  }

  /** The adapter for this source: the current one if it is the same provider, else a new one (the current is stopped first). */
  private async adapterFor(source: PlaySource): Promise<ProviderPlayer> {
    const key = `${source.provider}|${source.preview ? 'preview' : 'song'}`;
    if (this.adapter?.key === key) return this.adapter.player;
    this.release();
    const player = await createAdapter(source.provider, source.preview ?? false, this.ctx);
    player.setVolume(this.volume);
    this.adapter = { key, player };
    return player;
  }

  private playing(source: PlaySource, nowPlaying: NowPlaying) {
    this.set({ state: 'playing', provider: source.provider, preview: source.preview });
    if (this.previewPlay) countPreviewSong(this.previewPlay);
    setHeard({ provider: source.provider, preview: source.preview ?? false, endTime: nowPlaying.endTime, songId: nowPlaying.song.songId });
    clearInterval(this.drift);
    this.drift = setInterval(() => void this.correctDrift(), DRIFT_CHECK_MS);
  }

  /** After a click on "turn on sound" (browsers need a gesture before audio plays). */
  async resume() {
    const adapter = this.adapter?.player;
    const nowPlaying = this.nowPlaying;
    if (!adapter || !nowPlaying || this.status.state !== 'blocked') return;
    const generation = this.generation;
    try {
      await adapter.resume();
      const at = this.expectedPosition();
      if (at !== undefined) await adapter.seek(at);
      if (generation !== this.generation) return;
      this.playing({ provider: adapter.provider, preview: this.status.preview }, nowPlaying);
    } catch {
      if (generation === this.generation) this.set({ ...this.status, state: 'blocked' });
    }
  }

  private async correctDrift() {
    const adapter = this.adapter?.player;
    const expected = this.expectedPosition();
    if (!adapter || expected === undefined) return;
    const at = await adapter.position();
    if (at !== undefined && Math.abs(at - expected) > DRIFT_LIMIT_S) await adapter.seek(this.expectedPosition() ?? expected);
  }

  setVolume(volume: number) {
    this.volume = Math.max(0, Math.min(1, volume));
    this.adapter?.player.setVolume(this.volume);
  }

  /** Lets go of the current provider. */
  private release() {
    clearInterval(this.drift);
    setHeard(undefined);
    this.adapter?.player.stop();
    this.adapter = undefined;
  }

  stop() {
    this.generation++;
    this.currentKey = '';
    this.release();
    this.set({ state: 'idle' });
  }
}
