import type { ProviderTrack, SearchOptions } from './provider.js';
import { CatalogueProvider, compact, endpoint, isrcOf, keyed, ProviderHttp, yearOf, type ProviderDeps } from './support.js';

export interface AudiusConfig {
  /** A discovery node or the API gateway, e.g. https://api.audius.co; Audius is off without one. */
  apiUrl?: string;
  /** Sent as app_name, as Audius asks every caller to. */
  appName: string;
  /** Where track permalinks are opened. */
  webUrl: string;
}

/** Audius v1 track (the fields we read). */
interface AudiusTrack {
  id: string;
  title: string;
  /** Seconds. */
  duration?: number;
  genre?: string | null;
  isrc?: string | null;
  release_date?: string | null;
  permalink?: string;
  artwork?: { '150x150'?: string; '480x480'?: string; '1000x1000'?: string } | null;
  user?: { name?: string; handle?: string };
  album_backlink?: { playlist_name?: string } | null;
}

/** Audius ids are short hash ids ("D7KyD"). */
const AUDIUS_ID = /^[A-Za-z0-9]{1,32}$/;

/**
 * Audius public API (no credentials; app_name on every call): /v1/tracks/search
 * ?query=, /v1/tracks/{id} and /v1/tracks?isrc=. Answers are wrapped in `data`.
 */
export class AudiusProvider extends CatalogueProvider {
  readonly name = 'audius' as const;
  readonly label = 'Audius';
  readonly pageSize = 20;
  protected readonly maxPageSize = 100;
  readonly enabled: boolean;
  private readonly http: ProviderHttp;

  constructor(
    private readonly config: AudiusConfig,
    deps: ProviderDeps,
  ) {
    super();
    this.enabled = !!config.apiUrl;
    this.http = new ProviderHttp(this.label, deps);
  }

  async search(query: string, options: SearchOptions = {}): Promise<ProviderTrack[]> {
    this.ensureOn();
    if (!query.trim()) return [];
    const { limit, offset } = this.page(options);
    const answer = await this.http.get<{ data?: AudiusTrack[] }>(this.url('/v1/tracks/search', { query, limit, offset }), {
      failure: 'Audius search failed',
    });
    return (answer.data ?? []).filter((track) => !!track?.id).map((track) => this.toTrack(track));
  }

  async track(providerSongId: string): Promise<ProviderTrack | null> {
    this.ensureOn();
    if (!AUDIUS_ID.test(providerSongId)) return null;
    const answer = await this.http.find<{ data?: AudiusTrack | null }>(this.url(`/v1/tracks/${providerSongId}`), {
      failure: 'Get Audius track by ID failed',
    });
    return answer?.data?.id ? this.toTrack(answer.data) : null;
  }

  async trackByIsrc(isrc: string): Promise<ProviderTrack | null> {
    this.ensureOn();
    const code = isrcOf(isrc);
    if (!code) return null;
    const answer = await this.http.get<{ data?: AudiusTrack[] }>(this.url('/v1/tracks', { isrc: code }), {
      failure: 'Get Audius track by ISRC failed',
    });
    const match = (answer.data ?? []).find((track) => !!track?.id && isrcOf(track.isrc) === code);
    return match ? this.toTrack(match) : null;
  }

  private url(path: string, query: Record<string, string | number> = {}): URL {
    return endpoint(this.config.apiUrl ?? '', path, { ...query, app_name: this.config.appName });
  }

  private toTrack(track: AudiusTrack): ProviderTrack {
    const artwork = track.artwork ?? {};
    return compact({
      provider: 'audius',
      providerSongId: track.id,
      trackName: track.title,
      artistName: track.user?.name || track.user?.handle || '',
      duration: Math.round(track.duration ?? 0),
      isrc: isrcOf(track.isrc),
      genre: track.genre || undefined,
      albumName: track.album_backlink?.playlist_name || undefined,
      releaseYear: yearOf(track.release_date),
      thumbnails: keyed('audius', artwork['480x480'] ?? artwork['1000x1000'] ?? artwork['150x150']),
      links: keyed('audius', track.permalink ? `${this.config.webUrl.replace(/\/+$/, '')}${track.permalink}` : undefined),
    });
  }
}
