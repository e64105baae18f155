import { createHmac, randomBytes } from 'node:crypto';
import type { ProviderTrack, SearchOptions } from './provider.js';
import { CatalogueProvider, compact, endpoint, isrcOf, keyed, ProviderHttp, yearOf, type ProviderDeps } from './support.js';

export interface SevenDigitalConfig {
  apiUrl: string;
  /** Where signed preview clips are served (https://previews.7digital.com). */
  previewsUrl: string;
  /** The streaming service (https://stream.svc.7digital.net). */
  streamUrl: string;
  consumerKey?: string;
  /** Only needed to sign preview clip urls. */
  consumerSecret?: string;
  /** The usage types the account is licensed for (download, subscriptionstreaming, adsupportedstreaming). */
  usageTypes: string;
}

/** 7digital 1.2 track (JSON flavour; the fields we read). */
interface SevenDigitalTrack {
  id: number | string;
  title: string;
  version?: string | null;
  duration?: number;
  isrc?: string | null;
  explicitContent?: boolean;
  url?: string;
  artist?: { name?: string; appearsAs?: string };
  release?: { title?: string; image?: string; year?: number | string | null; releaseDate?: string | null };
  download?: { releaseDate?: string | null };
}

interface SevenDigitalAnswer {
  status?: 'ok' | 'error';
  error?: { code?: number; errorMessage?: string };
  searchResults?: { searchResult?: Array<{ type?: string; track?: SevenDigitalTrack }> };
  track?: SevenDigitalTrack;
}

const SEVEN_DIGITAL_ID = /^\d{1,20}$/;
export type StreamQuality = 'low' | 'medium' | 'high';
/** 7digital stream format ids by quality: AAC 48 kb/s, AAC 160 kb/s (its usual streaming format), MP3 320 kb/s. */
export const STREAM_FORMATS: Record<StreamQuality, number> = { low: 52, medium: 26, high: 17 };
/** Release artwork is served in fixed steps (33, 50, 100, 180, 182, 200, 350, 500, 800); 350 is the smallest >= 256. */
const IMAGE_SIZE = 350;
/** 7digital's error code for a resource that does not exist. */
const NOT_FOUND = 2001;

/**
 * 7digital API 1.2: the OAuth 1.0 consumer key as `oauth_consumer_key` on the
 * query (catalogue calls need no signature), JSON asked for with
 * `Accept: application/json`: /1.2/track/search (paged by page/pageSize) and
 * /1.2/track/details?trackId=. An ISRC is searched for and matched exactly.
 * Preview clips need a signed url, which `previewUrl` makes on demand (it
 * expires, so it is never stored on a track).
 */
export class SevenDigitalProvider extends CatalogueProvider {
  readonly name = 'sevenDigital' as const;
  readonly label = '7digital';
  /** Spec 002: seven-digital search pages hold 20. */
  readonly pageSize = 20;
  protected readonly maxPageSize = 100;
  readonly enabled: boolean;
  private readonly http: ProviderHttp;

  constructor(
    private readonly config: SevenDigitalConfig,
    private readonly deps: ProviderDeps,
  ) {
    super();
    this.enabled = !!config.consumerKey;
    this.http = new ProviderHttp(this.label, deps);
  }

  async search(query: string, options: SearchOptions = {}): Promise<ProviderTrack[]> {
    this.ensureOn();
    if (!query.trim()) return [];
    const { limit, offset } = this.page(options);
    // Pages, not offsets: the page holding `offset`, trimmed to start there.
    const page = Math.floor(offset / limit) + 1;
    const skip = offset - (page - 1) * limit;
    const tracks = await this.searchTracks(query, page, limit, options.country, '7digital search failed');
    return tracks.slice(skip).map(toTrack);
  }

  async track(providerSongId: string, options: { country?: string } = {}): Promise<ProviderTrack | null> {
    this.ensureOn();
    if (!SEVEN_DIGITAL_ID.test(providerSongId)) return null;
    const answer = await this.http.find<SevenDigitalAnswer>(this.url('/1.2/track/details', { trackId: providerSongId }, options.country), {
      failure: 'Get 7digital track by ID failed',
    });
    if (!answer || answer.error?.code === NOT_FOUND) return null;
    this.checkStatus(answer, 'Get 7digital track by ID failed');
    return answer.track?.id !== undefined ? toTrack(answer.track) : null;
  }

  async trackByIsrc(isrc: string, options: { country?: string } = {}): Promise<ProviderTrack | null> {
    this.ensureOn();
    const code = isrcOf(isrc);
    if (!code) return null;
    const tracks = await this.searchTracks(code, 1, 10, options.country, 'Get 7digital track by ISRC failed');
    const match = tracks.find((track) => isrcOf(track.isrc) === code);
    return match ? toTrack(match) : null;
  }

  /** A signed url for the track's preview clip (OAuth 1.0 HMAC-SHA1, consumer key and secret only); null without a secret. */
  previewUrl(providerSongId: string, options: { country?: string } = {}): string | null {
    this.ensureOn();
    const { consumerKey, consumerSecret } = this.config;
    if (!consumerKey || !consumerSecret || !SEVEN_DIGITAL_ID.test(providerSongId)) return null;
    const url = endpoint(this.config.previewsUrl, `/clip/${providerSongId}`, { country: country(options.country) });
    return signOAuth1(url, consumerKey, consumerSecret, {
      nonce: randomBytes(12).toString('hex'),
      timestamp: Math.floor(this.deps.now() / 1000),
    }).toString();
  }

  /**
   * A signed url of the track's full-length catalogue stream
   * (`/stream/catalogue?trackId&country&formatId`, OAuth 1.0 like previews;
   * 7digital honours it for an hour, once); null without a secret.
   */
  streamUrl(providerSongId: string, options: { country?: string; quality?: StreamQuality } = {}): string | null {
    this.ensureOn();
    const { consumerKey, consumerSecret } = this.config;
    if (!consumerKey || !consumerSecret || !SEVEN_DIGITAL_ID.test(providerSongId)) return null;
    const url = endpoint(this.config.streamUrl, '/stream/catalogue', {
      trackId: providerSongId,
      country: country(options.country),
      formatId: STREAM_FORMATS[options.quality ?? 'medium'],
    });
    return signOAuth1(url, consumerKey, consumerSecret, {
      nonce: randomBytes(12).toString('hex'),
      timestamp: Math.floor(this.deps.now() / 1000),
    }).toString();
  }

  private async searchTracks(q: string, page: number, pageSize: number, countryCode: string | undefined, failure: string) {
    const answer = await this.http.get<SevenDigitalAnswer>(this.url('/1.2/track/search', { q, page, pageSize }, countryCode), { failure });
    this.checkStatus(answer, failure);
    return (answer.searchResults?.searchResult ?? [])
      .map((result) => result.track)
      .filter((track): track is SevenDigitalTrack => track?.id !== undefined);
  }

  /** 7digital can also report an error inside a 200 answer. */
  private checkStatus(answer: SevenDigitalAnswer, failure: string): void {
    if (answer.status === 'error') throw this.http.failed(failure, { code: answer.error?.code });
  }

  private url(path: string, query: Record<string, string | number>, countryCode: string | undefined): URL {
    return endpoint(this.config.apiUrl, path, {
      ...query,
      country: country(countryCode),
      usageTypes: this.config.usageTypes,
      imageSize: IMAGE_SIZE,
      oauth_consumer_key: this.config.consumerKey,
    });
  }
}

function country(code: string | undefined): string {
  return code && /^[A-Za-z]{2}$/.test(code) ? code.toUpperCase() : 'US';
}

function toTrack(track: SevenDigitalTrack): ProviderTrack {
  const version = track.version?.trim();
  return compact({
    provider: 'sevenDigital',
    providerSongId: String(track.id),
    trackName: version ? `${track.title} (${version})` : track.title,
    artistName: track.artist?.appearsAs || track.artist?.name || '',
    duration: Math.round(track.duration ?? 0),
    isrc: isrcOf(track.isrc),
    explicit: track.explicitContent,
    albumName: track.release?.title || undefined,
    releaseYear: yearOf(track.download?.releaseDate) ?? yearOf(track.release?.releaseDate) ?? yearOf(track.release?.year ?? undefined),
    thumbnails: keyed('sevenDigital', track.release?.image),
    links: keyed('sevenDigital', track.url),
  });
}

/** RFC 3986 percent-encoding, as OAuth 1.0 signatures need it. */
function oauthEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Signs a GET url with OAuth 1.0 (RFC 5849, HMAC-SHA1) using only the consumer
 * credentials ("two-legged"): the oauth_* parameters and the signature are
 * added to its query.
 */
export function signOAuth1(url: URL, consumerKey: string, consumerSecret: string, at: { nonce: string; timestamp: number }): URL {
  const signed = new URL(url);
  const oauth: Record<string, string> = {
    oauth_consumer_key: consumerKey,
    oauth_nonce: at.nonce,
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: String(at.timestamp),
    oauth_version: '1.0',
  };
  for (const [key, value] of Object.entries(oauth)) signed.searchParams.set(key, value);
  signed.searchParams.set('oauth_signature', oauth1Signature('GET', signed, consumerSecret));
  return signed;
}

/** The HMAC-SHA1 signature of a request whose query already carries the oauth_* parameters (but no signature). */
export function oauth1Signature(method: string, url: URL, consumerSecret: string, tokenSecret = ''): string {
  const params = [...url.searchParams.entries()]
    .filter(([key]) => key !== 'oauth_signature')
    .map(([key, value]) => [oauthEncode(key), oauthEncode(value)] as const)
    .sort(([ak, av], [bk, bv]) => (ak === bk ? (av < bv ? -1 : av > bv ? 1 : 0) : ak < bk ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  // WHATWG URLs already lower-case the scheme and host and drop default ports, as RFC 5849 asks.
  const baseUrl = `${url.protocol}//${url.host}${url.pathname}`;
  const base = [method.toUpperCase(), oauthEncode(baseUrl), oauthEncode(params)].join('&');
  return createHmac('sha1', `${oauthEncode(consumerSecret)}&${oauthEncode(tokenSecret)}`)
    .update(base)
    .digest('base64');
}
