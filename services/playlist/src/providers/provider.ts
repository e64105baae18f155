import { AppError } from '@spinroom/platform';
import type { MusicProvider } from '../domain/song.js';

/** A track as an outside catalogue describes it, in Spinroom's words. */
export interface ProviderTrack {
  provider: MusicProvider;
  /** The provider's own id for the track. */
  providerSongId: string;
  trackName: string;
  artistName: string;
  /** Seconds (rounded). */
  duration: number;
  /** Upper-cased. */
  isrc?: string;
  genre?: string;
  explicit?: boolean;
  albumName?: string;
  releaseYear?: number;
  /** Image url keyed by provider, e.g. { spotify: 'https://...' }. */
  thumbnails?: Record<string, string>;
  /** Where the track lives on the provider, e.g. { spotify: 'https://open.spotify.com/track/...' }. */
  links?: Record<string, string>;
  /** A short preview clip url keyed by provider, where the provider offers one. */
  previews?: Record<string, string>;
  /** SoundCloud private tracks' secret token. */
  playbackToken?: string;
}

export interface SearchOptions {
  /** Results wanted; the provider's `pageSize` when left out, capped at what the provider allows. */
  limit?: number;
  /** Results to skip (0). */
  offset?: number;
  /** ISO 3166-1 alpha-2 market/storefront; providers that need one default to US. */
  country?: string;
}

/**
 * One outside music catalogue (Spotify, Apple Music, SoundCloud, YouTube,
 * Audius, 7digital): a real HTTP client whose base URL and credentials come
 * from the environment. A provider without credentials is off: `enabled` is
 * false and every call fails with 503 saying so. A provider that fails (network,
 * timeout, 5xx, an answer it should not give) fails with 502 naming it.
 */
export interface MusicCatalogueProvider {
  readonly name: MusicProvider;
  /** The provider's name for people ("Apple Music"), used in messages. */
  readonly label: string;
  readonly enabled: boolean;
  /** Default search page size (spec 002: 20 for SoundCloud and 7digital, 25 for Apple). */
  readonly pageSize: number;
  /** Tracks matching the query; an empty query finds nothing without asking the provider. */
  search(query: string, options?: SearchOptions): Promise<ProviderTrack[]>;
  /** The track, or null when the provider does not know it (a 404 there, or an id it could never have issued). */
  track(providerSongId: string, options?: { country?: string }): Promise<ProviderTrack | null>;
  /** The track with this ISRC, where the provider can look one up. */
  trackByIsrc?(isrc: string, options?: { country?: string }): Promise<ProviderTrack | null>;
}

/** Playlists read for a crate import and written for an export (Spotify and Apple Music). */
export interface PlaylistProvider {
  readonly label: string;
  readonly enabled: boolean;
  /** The playlist's tracks in order (at most `max`), or null when the provider does not know the playlist. */
  playlistTracks(playlistId: string, options?: { country?: string; max?: number }): Promise<ProviderTrack[] | null>;
}

/** The most tracks one playlist request pages through (a crate holds 5000). */
export const PLAYLIST_TRACKS_MAX = 5000;

/** The 503 a disabled provider answers with. */
export function providerOff(label: string): AppError {
  return new AppError(503, `${label} is not configured on this server`);
}

/** A provider that failed (network, 5xx, bad answer): a 502 naming it, never its raw error. */
export function providerFailed(label: string): AppError {
  return new AppError(502, `${label} did not answer as expected, please try again`);
}
