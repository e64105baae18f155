// YouTube: the IFrame Player API plays the song's video in the room (spec 002:
// anonymous visitors' default, "video streaming"); no account is needed. The
// player is made once and given each new video at the room's position.
import { PLAYBACK_ADDRESSES } from './config';
import { loadScript, PlaybackFailure } from './loadScript';
import type { PlayerContext, PlaySource, ProviderPlayer } from './types';

interface YTPlayer {
  loadVideoById(options: { videoId: string; startSeconds?: number }): void;
  playVideo(): void;
  pauseVideo(): void;
  stopVideo(): void;
  seekTo(seconds: number, allowSeekAhead: boolean): void;
  getCurrentTime(): number;
  getPlayerState(): number;
  setVolume(volume: number): void;
  destroy(): void;
}
interface YTEvent {
  target: YTPlayer;
  data: number;
}
interface YTNamespace {
  Player: new (
    element: HTMLElement,
    options: {
      width?: number;
      height?: number;
      videoId?: string;
      playerVars?: Record<string, number | string>;
      events?: { onReady?: (e: YTEvent) => void; onStateChange?: (e: YTEvent) => void; onError?: (e: YTEvent) => void };
    },
  ) => YTPlayer;
}
declare global {
  interface Window {
    YT?: YTNamespace;
    onYouTubeIframeAPIReady?: () => void;
  }
}

const PLAYING = 1;
/** How long a video may take to start before the browser is taken to have blocked it. */
const START_TIMEOUT_MS = 10_000;

function loadApi(): Promise<YTNamespace> {
  if (window.YT?.Player) return Promise.resolve(window.YT);
  const ready = new Promise<YTNamespace>((resolve) => {
    const previous = window.onYouTubeIframeAPIReady;
    window.onYouTubeIframeAPIReady = () => {
      previous?.();
      if (window.YT) resolve(window.YT);
    };
  });
  return loadScript(PLAYBACK_ADDRESSES.youtubeIframeApi).then(() => ready);
}

export class YouTubePlayer implements ProviderPlayer {
  readonly provider = 'youtube' as const;
  private player: YTPlayer | undefined;
  private box: HTMLElement | undefined;
  private volume = 0.8;
  /** The play waiting for its video to start, settled by the player's events. */
  private waiting: { resolve: () => void; reject: (e: PlaybackFailure) => void } | undefined;

  constructor(private readonly ctx: PlayerContext) {}

  private settle(failure?: PlaybackFailure) {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (failure) waiting?.reject(failure);
    else waiting?.resolve();
  }

  async play(source: PlaySource, at: () => number): Promise<void> {
    const videoId = source.id;
    if (!videoId) throw new PlaybackFailure('songMissing');
    const YT = await loadApi();
    this.settle(new PlaybackFailure('notPlayed'));
    const started = new Promise<void>((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
    if (this.player) {
      this.player.loadVideoById({ videoId, startSeconds: at() });
    } else {
      this.box = document.createElement('div');
      this.box.className = 'playback-video';
      const slot = document.createElement('div');
      this.box.append(slot);
      this.ctx.videoHost().append(this.box);
      this.player = new YT.Player(slot, {
        width: 320,
        height: 180,
        videoId,
        playerVars: { autoplay: 1, controls: 0, playsinline: 1, rel: 0, start: Math.floor(at()) },
        events: {
          onReady: (e) => {
            e.target.setVolume(Math.round(this.volume * 100));
            e.target.seekTo(at(), true);
            e.target.playVideo();
          },
          onStateChange: (e) => {
            if (e.data === PLAYING) this.settle();
          },
          // 2: a bad id; 100: not found or private; 101 and 150: not playable embedded.
          onError: (e) => this.settle(new PlaybackFailure([2, 100, 101, 150].includes(e.data) ? 'songMissing' : 'notPlayed')),
        },
      });
    }
    const timer = setTimeout(() => this.settle(new PlaybackFailure('blocked')), START_TIMEOUT_MS);
    try {
      await started;
    } finally {
      clearTimeout(timer);
    }
  }

  position(): Promise<number | undefined> {
    const p = this.player;
    return Promise.resolve(p && p.getPlayerState() === PLAYING ? p.getCurrentTime() : undefined);
  }

  seek(seconds: number): Promise<void> {
    this.player?.seekTo(seconds, true);
    return Promise.resolve();
  }

  pause(): Promise<void> {
    this.player?.pauseVideo();
    return Promise.resolve();
  }

  resume(): Promise<void> {
    this.player?.playVideo();
    return Promise.resolve();
  }

  setVolume(volume: number): void {
    this.volume = volume;
    this.player?.setVolume(Math.round(volume * 100));
  }

  stop(): void {
    this.settle(new PlaybackFailure('notPlayed'));
    this.player?.destroy();
    this.player = undefined;
    this.box?.remove();
    this.box = undefined;
  }
}
