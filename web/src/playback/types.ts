// One player interface (spec 002 "Playback"), one adapter per provider: each
// loads its SDK or stream, signs in with the listener's tokens, plays from a
// position, reports and seeks its position, pauses, and lets go when another
// provider takes over. The room's player (rooms/player.ts) holds one at a time.

/** The client-side playable set (spec 002 §3), and a provider's preview clip. */
export type PlayableProvider = 'apple' | 'spotify' | 'youtube' | 'soundCloudPublic' | 'audius' | 'sevenDigital' | 'uploadService';

export interface PlaySource {
  provider: PlayableProvider;
  /** The provider's id for the song. */
  id?: string;
  /** A URL to play as it is: an upload's HLS playlist, a preview clip. */
  url?: string;
  /** A preview clip (of `previewOf`'s song), not the whole song. */
  preview?: boolean;
  /** The catalogue's song id (7digital's signed streams are asked for by it). */
  songId?: string;
  /** SoundCloud's secret token of a private track. */
  secret?: string;
}

export interface ProviderPlayer {
  readonly provider: PlayableProvider;
  /**
   * Loads the provider's player, signs in and plays `source` from the room's
   * position (`at()` is asked as late as possible). Rejects with a PlaybackFailure.
   */
  play(source: PlaySource, at: () => number): Promise<void>;
  /** Seconds into the song as the provider reports them (undefined before it plays). */
  position(): Promise<number | undefined>;
  seek(seconds: number): Promise<void>;
  pause(): Promise<void>;
  /** Plays again after a pause or a blocked start (a click on "turn on sound"). */
  resume(): Promise<void>;
  setVolume(volume: number): void;
  /** Stops and lets go of the song: another provider takes over, or the song ended. */
  stop(): void;
}

/** What the adapters are given: the page's audio element, a place for video, the listener's tokens. */
export interface PlayerContext {
  audio: HTMLAudioElement;
  /** Where a video player goes (YouTube). */
  videoHost: () => HTMLElement;
  tokens: ProviderTokens;
  /** The listener's country for catalogue streams (two letters). */
  country: () => string;
  /** The Apple Music storefront (the session's, default `us`). */
  storefront: () => string;
  /** The session's audio quality, for the catalogue's streams. */
  quality: () => 'low' | 'medium' | 'high';
}

export interface ProviderTokens {
  /** The BFF session's bearer token. */
  bearer(): string | null;
  /** An access token of the listener's Spotify link (a new one when `fresh`). */
  spotify(fresh?: boolean): Promise<string>;
  /** The MusicKit developer token and the listener's Music User Token. */
  apple(): Promise<{ developerToken: string; userToken: string }>;
  /** The listener's SoundCloud token, else the app's public one (a new one when `fresh`). */
  soundCloud(fresh?: boolean): Promise<string>;
}
