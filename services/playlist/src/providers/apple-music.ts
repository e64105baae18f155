import type { KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { ProviderTrack, SearchOptions } from './provider.js';
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

interface AppleSearch {
  results?: { songs?: { data?: AppleSong[]; next?: string } };
}

/** Developer tokens may live up to six months; we sign short ones and sign again well before they end. */
const DEVELOPER_TOKEN_TTL_SECONDS = 12 * 60 * 60;
const APPLE_ID = /^\d{1,20}$/;

/**
 * Apple Music API: a developer token (ES256 JWT signed with the team's MusicKit
 * key: kid = key id, iss = team id) as Bearer on /v1/catalog/{storefront}/search
 * ?types=songs, /songs/{id} and /songs?filter[isrc]=. The storefront is the
 * caller's country, lower-cased (spec 002's default appleStorefrontId: us).
 */
export class AppleMusicProvider extends CatalogueProvider {
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
    const url = endpoint(this.config.apiUrl, `/v1/catalog/${storefront(options.country)}/search`, { term: query, types: 'songs', limit, offset });
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
