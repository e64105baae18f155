import type { KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { AppError } from '@spinroom/platform';
import { PLAYLIST_TRACKS_MAX, type PlaylistProvider, type ProviderTrack, type SearchOptions } from './provider.js';
import {
  ARTWORK_SIZE,
  CatalogueProvider,
  compact,
  endpoint,
  isrcOf,
  keyed,
  ProviderHttp,
  seconds,
  TokenCache,
  yearOf,
  type ProviderDeps,
  type TokenAuth,
} from './support.js';

export interface AppleMusicConfig {
  apiUrl: string;
  teamId?: string;
  keyId?: string;
  /** The MusicKit .p8 key (ES256, P-256), already parsed. */
  privateKey?: KeyObject;
}

/** Apple Music API song resource (the fields we read). */
interface AppleSong {
  id: string;
  type?: string;
  attributes?: {
    name: string;
    artistName: string;
    albumName?: string;
    durationInMillis?: number;
    isrc?: string;
    genreNames?: string[];
    releaseDate?: string;
    contentRating?: 'explicit' | 'clean';
    url?: string;
    artwork?: { url?: string; width?: number; height?: number };
    previews?: Array<{ url?: string }>;
  };
}

interface AppleSongs {
  data?: AppleSong[];
}

interface ApplePlaylistTracks {
  data?: AppleSong[];
  next?: string;
}

interface AppleLibraryPlaylists {
  data?: Array<{ id?: string; attributes?: { name?: string } }>;
}

interface AppleSearch {
  results?: { songs?: { data?: AppleSong[]; next?: string } };
}

/** Developer tokens may live up to six months; we sign short ones and sign again well before they end. */
const DEVELOPER_TOKEN_TTL_SECONDS = 12 * 60 * 60;
const APPLE_ID = /^\d{1,20}$/;
/** Catalog playlists ("pl.<hex>") and shared user playlists ("pl.u-<id>"). */
const APPLE_PLAYLIST_ID = /^pl\.[A-Za-z0-9-]{1,64}$/;

/**
 * Apple Music API: a developer token (ES256 JWT signed with the team's MusicKit
 * key: kid = key id, iss = team id) as Bearer on /v1/catalog/{storefront}/search
 * ?types=songs, /songs/{id} and /songs?filter[isrc]=. The storefront is the
 * caller's country, lower-cased (spec 002's default appleStorefrontId: us).
 */
export class AppleMusicProvider extends CatalogueProvider implements PlaylistProvider {
  readonly name = 'apple' as const;
  readonly label = 'Apple Music';
  /** Spec 002: Apple search pages hold 25 (also the API's largest search page). */
  readonly pageSize = 25;
  protected readonly maxPageSize = 25;
  readonly enabled: boolean;
  private readonly http: ProviderHttp;
  private readonly auth: TokenAuth;

  constructor(
    private readonly config: AppleMusicConfig,
    deps: ProviderDeps,
  ) {
    super();
    this.enabled = !!(config.teamId && config.keyId && config.privateKey);
    this.http = new ProviderHttp(this.label, deps);
    this.auth = {
      tokens: new TokenCache(() => this.signDeveloperToken(deps.now), deps.now),
      headers: (token) => ({ authorization: `Bearer ${token}` }),
      retryOn: [401],
    };
  }

  async search(query: string, options: SearchOptions = {}): Promise<ProviderTrack[]> {
    this.ensureOn();
    if (!query.trim()) return [];
    const { limit, offset } = this.page(options);
    const url = endpoint(this.config.apiUrl, `/v1/catalog/${storefront(options.country)}/search`, {
      term: query,
      types: 'songs',
      limit,
      offset,
    });
    const answer = await this.http.get<AppleSearch>(url, { failure: 'Apple Music search failed', auth: this.auth });
    return (answer.results?.songs?.data ?? []).flatMap(toTracks);
  }

  async track(providerSongId: string, options: { country?: string } = {}): Promise<ProviderTrack | null> {
    this.ensureOn();
    if (!APPLE_ID.test(providerSongId)) return null;
    const url = endpoint(this.config.apiUrl, `/v1/catalog/${storefront(options.country)}/songs/${providerSongId}`);
    const answer = await this.http.find<AppleSongs>(url, { failure: 'Get Apple info by ID failed', auth: this.auth });
    return answer?.data?.flatMap(toTracks)[0] ?? null;
  }

  async trackByIsrc(isrc: string, options: { country?: string } = {}): Promise<ProviderTrack | null> {
    this.ensureOn();
    const code = isrcOf(isrc);
    if (!code) return null;
    const url = endpoint(this.config.apiUrl, `/v1/catalog/${storefront(options.country)}/songs`, { 'filter[isrc]': code });
    const answer = await this.http.find<AppleSongs>(url, { failure: 'Get Apple info by ISRC failed', auth: this.auth });
    const tracks = answer?.data?.flatMap(toTracks) ?? [];
    return tracks.find((track) => track.isrc === code) ?? tracks[0] ?? null;
  }

  /** GET /v1/catalog/{storefront}/playlists/{id}/tracks, 100 at a time, following `next`; music videos are skipped. */
  async playlistTracks(playlistId: string, options: { country?: string; max?: number } = {}): Promise<ProviderTrack[] | null> {
    this.ensureOn();
    if (!APPLE_PLAYLIST_ID.test(playlistId)) return null;
    const max = Math.min(options.max ?? PLAYLIST_TRACKS_MAX, PLAYLIST_TRACKS_MAX);
    const origin = new URL(this.config.apiUrl).origin;
    const tracks: ProviderTrack[] = [];
    let url: URL | null = endpoint(this.config.apiUrl, `/v1/catalog/${storefront(options.country)}/playlists/${playlistId}/tracks`, {
      limit: 100,
    });
    while (url && tracks.length < max) {
      const page: ApplePlaylistTracks | null = await this.http.find<ApplePlaylistTracks>(url, {
        failure: 'Get Apple playlist tracks failed',
        auth: this.auth,
      });
      if (!page) return tracks.length === 0 ? null : tracks;
      tracks.push(...(page.data ?? []).flatMap(toTracks));
      // `next` is a path on the API ("/v1/catalog/us/playlists/.../tracks?offset=100").
      const next: URL | null = page.next ? new URL(page.next, `${this.config.apiUrl.replace(/\/+$/, '')}/`) : null;
      url = next && next.origin === origin ? next : null;
      if (url && !url.searchParams.has('limit')) url.searchParams.set('limit', '100');
    }
    return tracks.slice(0, max);
  }

  /**
   * Creates a playlist in the library of the Music User Token's owner (POST
   * /v1/me/library/playlists, developer token as Bearer plus Music-User-Token)
   * holding the catalogue songs. A refused user token is 401.
   */
  async exportPlaylist(
    musicUserToken: string,
    name: string,
    description: string,
    songIds: string[],
  ): Promise<{ playlistId: string; url: string; added: number }> {
    this.ensureOn();
    const answer = await this.http.get<AppleLibraryPlaylists>(endpoint(this.config.apiUrl, '/v1/me/library/playlists'), {
      failure: 'Apple Music export failed',
      method: 'POST',
      auth: this.auth,
      headers: { 'music-user-token': musicUserToken, 'content-type': 'application/json' },
      body: JSON.stringify({
        attributes: { name, description },
        relationships: { tracks: { data: songIds.map((id) => ({ id, type: 'songs' })) } },
      }),
      onStatus: { 403: new AppError(401, 'Apple Music refused the music user token') },
    });
    const playlistId = answer.data?.[0]?.id;
    if (!playlistId) throw this.http.failed('Apple Music export failed', { reason: 'no playlist id' });
    return { playlistId, url: `https://music.apple.com/library/playlist/${playlistId}`, added: songIds.length };
  }

  private async signDeveloperToken(now: () => number) {
    const { teamId, keyId, privateKey } = this.config;
    if (!teamId || !keyId || !privateKey) throw this.http.failed('Apple Music developer token failed', { reason: 'off' });
    const issuedAt = Math.floor(now() / 1000);
    const value = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: keyId })
      .setIssuer(teamId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + DEVELOPER_TOKEN_TTL_SECONDS)
      .sign(privateKey);
    return { value, expiresAt: (issuedAt + DEVELOPER_TOKEN_TTL_SECONDS) * 1000 };
  }
}

function storefront(country: string | undefined): string {
  return country && /^[A-Za-z]{2}$/.test(country) ? country.toLowerCase() : 'us';
}

function toTracks(song: AppleSong): ProviderTrack[] {
  const a = song.attributes;
  if (!a || (song.type && song.type !== 'songs')) return [];
  return [
    compact({
      provider: 'apple',
      providerSongId: song.id,
      trackName: a.name,
      artistName: a.artistName,
      duration: seconds(a.durationInMillis),
      isrc: isrcOf(a.isrc),
      // "Music" is the catch-all Apple lists after the real genre.
      genre: a.genreNames?.find((genre) => genre !== 'Music') ?? a.genreNames?.[0],
      explicit: a.contentRating === 'explicit',
      albumName: a.albumName || undefined,
      releaseYear: yearOf(a.releaseDate),
      thumbnails: keyed('apple', artworkUrl(a.artwork?.url)),
      links: keyed('apple', a.url),
      previews: keyed('apple', a.previews?.find((preview) => preview.url)?.url),
    }),
  ];
}

/** Artwork urls are templates: ".../{w}x{h}bb.jpg" (sometimes "{f}" for the format). */
function artworkUrl(template: string | undefined): string | undefined {
  return template?.replace('{w}', String(ARTWORK_SIZE)).replace('{h}', String(ARTWORK_SIZE)).replace('{f}', 'jpg');
}
