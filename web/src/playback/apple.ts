// Apple Music: MusicKit on the Web (v3), configured with the developer token
// the BFF signs and signed in with the listener's stored Music User Token
// (GET /apple/user-token/{id}), in the session's storefront (default `us`).
// The song is queued to start at the room's position. A refused token is asked
// for again once (a new developer token, the user token as last linked).
// Linking (the settings screen) also goes through MusicKit: configured with a
// developer token alone (GET /apple/developer-token), its authorize() has the
// user sign in with Apple in Apple's window and answers the Music User Token.
import { api } from '../api/client';
import { APP_NAME, PLAYBACK_ADDRESSES } from './config';
import { loadScript, PlaybackFailure } from './loadScript';
import type { PlayerContext, PlaySource, ProviderPlayer } from './types';

interface MusicKitInstance {
  readonly isAuthorized: boolean;
  readonly isPlaying: boolean;
  readonly currentPlaybackTime: number;
  volume: number;
  setQueue(options: { song: string; startTime?: number; startPlaying?: boolean }): Promise<unknown>;
  play(): Promise<void>;
  pause(): Promise<void> | void;
  stop(): Promise<void> | void;
  seekToTime(seconds: number): Promise<void>;
  /** Apple's sign-in window; the Music User Token once the user allows the app (kept by MusicKit in this browser). */
  authorize(): Promise<string | undefined>;
  /** Forgets this browser's Music User Token. */
  unauthorize(): Promise<void> | void;
}
interface MusicKitNamespace {
  configure(options: { developerToken: string; app: { name: string; build: string }; storefrontId?: string }): Promise<MusicKitInstance>;
}
declare global {
  interface Window {
    MusicKit?: MusicKitNamespace;
  }
}

const EXPIRED = new Set(['UNAUTHORIZED', 'AUTHORIZATION_ERROR', 'TOKEN_EXPIRED', 'USER_TOKEN_EXPIRED', 'SUBSCRIPTION_ERROR']);
const MISSING = new Set(['CONTENT_UNAVAILABLE', 'CONTENT_RESTRICTED', 'NOT_FOUND', 'MEDIA_DESCRIPTOR']);

function errorCode(error: unknown): string {
  const e = error as { errorCode?: string; name?: string } | undefined;
  return String(e?.errorCode ?? e?.name ?? '');
}

function loadMusicKit(): Promise<MusicKitNamespace> {
  if (window.MusicKit) return Promise.resolve(window.MusicKit);
  const loaded = new Promise<MusicKitNamespace>((resolve) => {
    document.addEventListener('musickitloaded', () => window.MusicKit && resolve(window.MusicKit), { once: true });
  });
  return loadScript(PLAYBACK_ADDRESSES.musicKit).then(() => (window.MusicKit ? window.MusicKit : loaded));
}

/** MusicKit keeps the signed-in listener's token under its developer's team id: where it will look for it. */
function storeUserToken(developerToken: string, userToken: string) {
  try {
    const claims = JSON.parse(atob((developerToken.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/'))) as { iss?: string };
    localStorage.setItem(`music.${String(claims.iss ?? '').toLowerCase()}.media-user-token`, userToken);
  } catch {
    // a token that is not a JWT: MusicKit will refuse it and say so
  }
}

const USER = '/api/user-service';

/** Apple Music was not linked: the sign-in with Apple did not finish (closed, not allowed, refused). */
export class AppleLinkRefused extends Error {
  constructor() {
    super('Apple Music was not linked');
    this.name = 'AppleLinkRefused';
  }
}

let linking: Promise<MusicKitInstance> | undefined;

/**
 * MusicKit loaded and configured for linking, once per page. Started before the click where the
 * page can (the button's hover or focus): Apple's sign-in is a window, and browsers open one only
 * shortly after the click that asked for it.
 */
export function prepareAppleLink(storefront: string): Promise<MusicKitInstance> {
  if (!linking) {
    // The token first: a server without the MusicKit key (503) has Apple's script loaded for nothing.
    const started = api
      .get<{ developerToken: string }>(`${USER}/apple/developer-token`)
      .then(async ({ developerToken }) =>
        (await loadMusicKit()).configure({ developerToken, app: { name: APP_NAME, build: '1' }, storefrontId: storefront }),
      );
    linking = started;
    // A failure (not configured, Apple's script unreachable) is asked again on the next try.
    started.catch(() => {
      if (linking === started) linking = undefined;
    });
  }
  return linking;
}

/** The user signs in with Apple and allows Spinroom; the Music User Token is stored (POST /apple/user-token). */
export async function linkAppleMusic(storefront: string): Promise<void> {
  const music = await prepareAppleLink(storefront);
  // Closed, not allowed, or refused by Apple: MusicKit rejects, or answers no token.
  const userToken = await music.authorize().catch(() => undefined);
  if (!userToken) throw new AppleLinkRefused();
  await api.post(`${USER}/apple/user-token`, { userToken });
}

/** After an unlink: this browser's MusicKit forgets the Music User Token too. */
export async function forgetAppleMusic(): Promise<void> {
  const music = await linking?.catch(() => undefined);
  await music?.unauthorize();
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const key = localStorage.key(i);
    if (key && /^music\.[^.]*\.media-user-token$/.test(key)) localStorage.removeItem(key);
  }
}

export class ApplePlayer implements ProviderPlayer {
  readonly provider = 'apple' as const;
  private music: MusicKitInstance | undefined;
  private volume = 0.8;

  constructor(private readonly ctx: PlayerContext) {}

  private async signIn(): Promise<MusicKitInstance> {
    const MusicKit = await loadMusicKit();
    const { developerToken, userToken } = await this.ctx.tokens.apple();
    storeUserToken(developerToken, userToken);
    const music = await MusicKit.configure({
      developerToken,
      app: { name: APP_NAME, build: '1' },
      storefrontId: this.ctx.storefront(),
    });
    if (!music.isAuthorized) throw new PlaybackFailure('tokenExpired');
    music.volume = this.volume;
    this.music = music;
    return music;
  }

  async play(source: PlaySource, at: () => number): Promise<void> {
    if (!source.id) throw new PlaybackFailure('songMissing');
    const id = source.id;
    const queue = async (music: MusicKitInstance) => {
      await music.setQueue({ song: id, startTime: at(), startPlaying: true });
      if (!music.isPlaying) await music.play();
    };
    try {
      await queue(this.music ?? (await this.signIn()));
    } catch (error) {
      if (error instanceof PlaybackFailure && error.reason !== 'tokenExpired') throw error;
      const code = errorCode(error);
      if (MISSING.has(code)) throw new PlaybackFailure('songMissing');
      if (!(error instanceof PlaybackFailure) && !EXPIRED.has(code)) {
        throw new PlaybackFailure(code === 'NotAllowedError' ? 'blocked' : 'notPlayed');
      }
      // A token refused: sign in again with new tokens, once.
      this.music = undefined;
      try {
        await queue(await this.signIn());
      } catch (again) {
        if (again instanceof PlaybackFailure) throw again;
        throw new PlaybackFailure(MISSING.has(errorCode(again)) ? 'songMissing' : 'tokenExpired');
      }
    }
  }

  position(): Promise<number | undefined> {
    const music = this.music;
    return Promise.resolve(music?.isPlaying ? music.currentPlaybackTime : undefined);
  }

  async seek(seconds: number): Promise<void> {
    await this.music?.seekToTime(seconds);
  }

  async pause(): Promise<void> {
    await this.music?.pause();
  }

  async resume(): Promise<void> {
    await this.music?.play();
  }

  setVolume(volume: number): void {
    this.volume = volume;
    if (this.music) this.music.volume = volume;
  }

  stop(): void {
    void this.music?.stop();
  }
}
