// Sources that play in the page's own <audio> element: uploads and 7digital's
// signed streams (from the catalogue's /song-data/stream), SoundCloud's and
// Audius's streams, and preview clips. HLS goes through hls.js (the light build,
// loaded on first use); a playlist on our own origin is fetched with the bearer.
import type Hls from 'hls.js';
import { api } from '../api/client';
import { ApiError } from '../api/errors';
import { PLAYBACK_ADDRESSES, APP_NAME } from './config';
import { PlaybackFailure } from './loadScript';
import type { PlayableProvider, PlayerContext, PlaySource, ProviderPlayer } from './types';

const isHls = (url: string) => /\.m3u8(\?|$)|\/hls-playlist(\?|$)|\/playlist\.m3u8/.test(url);

export class MediaElementPlayer implements ProviderPlayer {
  private hls: Hls | undefined;
  private stopped = false;

  constructor(
    readonly provider: PlayableProvider,
    protected readonly ctx: PlayerContext,
  ) {}

  /** The URL to play for this source (each provider's adapter asks its service). */
  protected resolve(source: PlaySource): Promise<{ url: string; hls?: boolean }> {
    if (!source.url) return Promise.reject(new PlaybackFailure('songMissing'));
    return Promise.resolve({ url: source.url });
  }

  async play(source: PlaySource, at: () => number): Promise<void> {
    this.stopped = false;
    const { url, hls } = await this.resolve(source);
    if (this.stopped) return;
    if (hls ?? isHls(url)) await this.attachHls(url, at);
    else await this.attachFile(url, at);
    if (this.stopped) return;
    await this.start();
  }

  private attachFile(url: string, at: () => number): Promise<void> {
    const audio = this.ctx.audio;
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        audio.removeEventListener('loadedmetadata', loaded);
        audio.removeEventListener('error', failed);
      };
      const loaded = () => {
        done();
        audio.currentTime = Math.min(at(), Number.isFinite(audio.duration) ? audio.duration : Infinity);
        resolve();
      };
      const failed = () => {
        done();
        reject(new PlaybackFailure('songMissing'));
      };
      audio.addEventListener('loadedmetadata', loaded);
      audio.addEventListener('error', failed);
      audio.src = url;
      audio.load();
    });
  }

  private async attachHls(url: string, at: () => number): Promise<void> {
    const audio = this.ctx.audio;
    const { default: HlsClass } = await import('hls.js/light');
    if (this.stopped) return;
    if (!HlsClass.isSupported()) {
      // Safari plays HLS itself but cannot add the bearer our own playlists need.
      if (new URL(url, location.href).origin !== location.origin && audio.canPlayType('application/vnd.apple.mpegurl')) {
        return this.attachFile(url, at);
      }
      throw new PlaybackFailure('notPlayed');
    }
    const token = this.ctx.tokens.bearer();
    const hls = new HlsClass({
      startPosition: at(),
      enableWorker: false,
      xhrSetup: (xhr, target) => {
        if (token && new URL(target, location.href).origin === location.origin && /\/hls-playlist|\/song-data\//.test(target)) {
          xhr.setRequestHeader('authorization', `Bearer ${token}`);
        }
      },
    });
    this.hls = hls;
    await new Promise<void>((resolve, reject) => {
      hls.on(HlsClass.Events.ERROR, (_event, data) => {
        if (!data.fatal) return;
        const status = (data.response as { code?: number } | undefined)?.code;
        this.destroyHls();
        reject(new PlaybackFailure(status === 403 || status === 404 ? 'songMissing' : 'notPlayed'));
      });
      hls.on(HlsClass.Events.MANIFEST_PARSED, () => {
        audio.currentTime = at();
        resolve();
      });
      hls.loadSource(url);
      hls.attachMedia(audio);
    });
  }

  private async start(): Promise<void> {
    try {
      await this.ctx.audio.play();
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'NotAllowedError') throw new PlaybackFailure('blocked');
      if (name !== 'AbortError') throw new PlaybackFailure('notPlayed');
    }
  }

  position(): Promise<number | undefined> {
    const audio = this.ctx.audio;
    return Promise.resolve(audio.paused || !audio.src ? undefined : audio.currentTime);
  }

  seek(seconds: number): Promise<void> {
    this.ctx.audio.currentTime = seconds;
    return Promise.resolve();
  }

  pause(): Promise<void> {
    this.ctx.audio.pause();
    return Promise.resolve();
  }

  resume(): Promise<void> {
    return this.start();
  }

  setVolume(volume: number): void {
    this.ctx.audio.volume = volume;
  }

  private destroyHls() {
    this.hls?.destroy();
    this.hls = undefined;
  }

  stop(): void {
    this.stopped = true;
    this.destroyHls();
    const audio = this.ctx.audio;
    audio.pause();
    audio.removeAttribute('src');
    audio.load();
  }
}

/** 7digital: a signed stream (or preview) URL for the listener's country, from the catalogue. */
export class SevenDigitalPlayer extends MediaElementPlayer {
  constructor(ctx: PlayerContext) {
    super('sevenDigital', ctx);
  }

  protected override async resolve(source: PlaySource) {
    if (!source.songId) throw new PlaybackFailure('songMissing');
    try {
      const stream = await api.get<{ url: string; kind: 'hls' | 'stream' | 'preview' }>(
        `/api/playlist-service/song-data/stream/${encodeURIComponent(this.ctx.country())}/${encodeURIComponent(source.songId)}`,
        { query: { quality: this.ctx.quality() } },
      );
      return { url: stream.url, hls: stream.kind === 'hls' };
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) throw new PlaybackFailure('songMissing');
      throw new PlaybackFailure('notPlayed');
    }
  }
}

interface SoundCloudStreams {
  hls_aac_160_url?: string;
  hls_aac_96_url?: string;
  /** Removed by SoundCloud (the progressive MP3 on 2026-08-12; HLS MP3 announced with it): read only if still answered. */
  hls_mp3_128_url?: string;
  http_mp3_128_url?: string;
  preview_mp3_128_url?: string;
}

/**
 * SoundCloud: the track's stream URLs (GET /tracks/{id}/streams): its AAC HLS (160k, else 96k), as
 * SoundCloud asks since it removed the MP3 and Opus transcodings, else an MP3 one still answered;
 * a 401 or 403 is retried once with a new token.
 */
export class SoundCloudPlayer extends MediaElementPlayer {
  constructor(ctx: PlayerContext) {
    super('soundCloudPublic', ctx);
  }

  protected override async resolve(source: PlaySource) {
    if (!source.id) throw new PlaybackFailure('songMissing');
    const query = source.secret ? `?secret_token=${encodeURIComponent(source.secret)}` : '';
    const url = `${PLAYBACK_ADDRESSES.soundCloudApi}/tracks/${encodeURIComponent(source.id)}/streams${query}`;
    const ask = async (fresh: boolean) =>
      fetch(url, {
        headers: { accept: 'application/json; charset=utf-8', authorization: `OAuth ${await this.ctx.tokens.soundCloud(fresh)}` },
      });
    let res = await ask(false);
    if (res.status === 401 || res.status === 403) res = await ask(true);
    if (res.status === 401 || res.status === 403) throw new PlaybackFailure('tokenExpired');
    if (res.status === 404) throw new PlaybackFailure('songMissing');
    if (!res.ok) throw new PlaybackFailure('notPlayed');
    const streams = (await res.json()) as SoundCloudStreams;
    const hls = streams.hls_aac_160_url ?? streams.hls_aac_96_url ?? streams.hls_mp3_128_url;
    if (hls) return { url: hls, hls: true };
    if (streams.http_mp3_128_url) return { url: streams.http_mp3_128_url, hls: false };
    throw new PlaybackFailure('songMissing');
  }
}

/** Audius: its stream endpoint (a redirect to a content node's MP3). */
export class AudiusPlayer extends MediaElementPlayer {
  constructor(ctx: PlayerContext) {
    super('audius', ctx);
  }

  protected override resolve(source: PlaySource) {
    if (!source.id) return Promise.reject(new PlaybackFailure('songMissing'));
    const url = `${PLAYBACK_ADDRESSES.audiusApi}/v1/tracks/${encodeURIComponent(source.id)}/stream?app_name=${encodeURIComponent(APP_NAME)}`;
    return Promise.resolve({ url, hls: false });
  }
}
