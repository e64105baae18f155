// Spotify: the Web Playback SDK makes this page a Spotify Connect device
// signed in with the listener's linked account (Premium); the Web API's
// PUT /v1/me/player/play starts the song on it at the room's position. A 401
// from the Web API, or the SDK's authentication_error, asks the BFF for a new
// access token (POST /spotify/refresh-token) and tries once more.
import { APP_NAME, PLAYBACK_ADDRESSES } from './config';
import { loadScript, PlaybackFailure } from './loadScript';
import type { PlayerContext, PlaySource, ProviderPlayer } from './types';

interface SpotifyState {
  position: number;
  paused: boolean;
}
interface SpotifySdkPlayer {
  connect(): Promise<boolean>;
  disconnect(): void;
  addListener(event: string, cb: (payload: { device_id?: string; message?: string }) => void): boolean;
  getCurrentState(): Promise<SpotifyState | null>;
  seek(ms: number): Promise<void>;
  pause(): Promise<void>;
  resume(): Promise<void>;
  setVolume(volume: number): Promise<void>;
  activateElement?(): Promise<void>;
}
interface SpotifyNamespace {
  Player: new (options: { name: string; getOAuthToken: (cb: (token: string) => void) => void; volume?: number }) => SpotifySdkPlayer;
}
declare global {
  interface Window {
    Spotify?: SpotifyNamespace;
    onSpotifyWebPlaybackSDKReady?: () => void;
  }
}

function loadSdk(): Promise<SpotifyNamespace> {
  if (window.Spotify) return Promise.resolve(window.Spotify);
  const ready = new Promise<SpotifyNamespace>((resolve) => {
    const previous = window.onSpotifyWebPlaybackSDKReady;
    window.onSpotifyWebPlaybackSDKReady = () => {
      previous?.();
      if (window.Spotify) resolve(window.Spotify);
    };
  });
  return loadScript(PLAYBACK_ADDRESSES.spotifySdk).then(() => ready);
}

export class SpotifyPlayer implements ProviderPlayer {
  readonly provider = 'spotify' as const;
  private player: SpotifySdkPlayer | undefined;
  private device: Promise<string> | undefined;
  private freshToken = false;
  private volume = 0.8;
  private failure: PlaybackFailure | undefined;

  constructor(private readonly ctx: PlayerContext) {}

  private connect(): Promise<string> {
    this.device ??= (async () => {
      const Spotify = await loadSdk();
      const player = new Spotify.Player({
        name: APP_NAME,
        volume: this.volume,
        getOAuthToken: (cb) => {
          const fresh = this.freshToken;
          this.freshToken = false;
          this.ctx.tokens.spotify(fresh).then(cb, (error: unknown) => {
            this.failure = error instanceof PlaybackFailure ? error : new PlaybackFailure('tokenExpired');
          });
        },
      });
      this.player = player;
      player.addListener('authentication_error', () => {
        this.freshToken = true;
      });
      player.addListener('account_error', () => {
        this.failure = new PlaybackFailure('notPremium');
      });
      const id = new Promise<string>((resolve, reject) => {
        player.addListener('ready', ({ device_id }) => device_id && resolve(device_id));
        player.addListener('initialization_error', () => reject(new PlaybackFailure('sdkUnavailable')));
        player.addListener('account_error', () => reject(new PlaybackFailure('notPremium')));
      });
      let connected = await player.connect();
      if (!connected && this.freshToken) connected = await player.connect(); // the token was refused: once more with a new one
      if (!connected) throw new PlaybackFailure(this.freshToken ? 'tokenExpired' : 'sdkUnavailable');
      return id;
    })();
    this.device.catch(() => {
      this.device = undefined;
    });
    return this.device;
  }

  /** What the SDK's listeners reported while connecting. */
  private failed(): PlaybackFailure | undefined {
    return this.failure;
  }

  async play(source: PlaySource, at: () => number): Promise<void> {
    if (!source.id) throw new PlaybackFailure('songMissing');
    this.failure = undefined;
    const device = await this.connect();
    const failure = this.failed();
    if (failure) throw failure;
    await this.player?.activateElement?.();
    const put = async (fresh: boolean) =>
      fetch(`${PLAYBACK_ADDRESSES.spotifyApi}/v1/me/player/play?device_id=${encodeURIComponent(device)}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${await this.ctx.tokens.spotify(fresh)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ uris: [`spotify:track:${source.id}`], position_ms: Math.round(at() * 1000) }),
      });
    let res = await put(false);
    if (res.status === 401) {
      this.freshToken = true;
      res = await put(true);
    }
    if (res.ok) return;
    if (res.status === 401) throw new PlaybackFailure('tokenExpired');
    if (res.status === 403) throw new PlaybackFailure('notPremium');
    if (res.status === 400 || res.status === 404) throw new PlaybackFailure('songMissing');
    throw new PlaybackFailure('notPlayed');
  }

  async position(): Promise<number | undefined> {
    const state = await this.player?.getCurrentState();
    return state && !state.paused ? state.position / 1000 : undefined;
  }

  async seek(seconds: number): Promise<void> {
    await this.player?.seek(Math.round(seconds * 1000));
  }

  async pause(): Promise<void> {
    await this.player?.pause();
  }

  async resume(): Promise<void> {
    await this.player?.resume();
  }

  setVolume(volume: number): void {
    this.volume = volume;
    void this.player?.setVolume(volume);
  }

  stop(): void {
    void this.player?.pause();
  }
}
