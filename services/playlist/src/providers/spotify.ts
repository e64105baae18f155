import { AppError } from '@spinroom/platform';
import { PLAYLIST_TRACKS_MAX, type PlaylistProvider, type ProviderTrack, type SearchOptions } from './provider.js';
import {
  basicAuth,
  CatalogueProvider,
  compact,
  endpoint,
  expiresAt,
  isrcOf,
  keyed,
  pickImage,
  ProviderHttp,
  seconds,
  TokenCache,
  yearOf,
  type ProviderDeps,
  type TokenAuth,
} from './support.js';

export interface SpotifyConfig {
  apiUrl: string;
  accountsUrl: string;
  clientId?: string;
  clientSecret?: string;
}

/** Spotify Web API track object (the fields we read). */
interface SpotifyTrack {
  id: string;
  name: string;
  duration_ms: number;
  explicit?: boolean;
  preview_url?: string | null;
  external_ids?: { isrc?: string };
  external_urls?: { spotify?: string };
  artists?: Array<{ name: string }>;
  album?: {
    name?: string;
    release_date?: string;
    images?: Array<{ url: string; width?: number | null; height?: number | null }>;
  };
}

interface SpotifyPlaylistTracks {
  items?: Array<{ track?: (SpotifyTrack & { type?: string; is_local?: boolean }) | null } | null>;
  next?: string | null;
}

/** What an export answers: the new playlist, how many tracks went in, which crate songs could not be found there. */
export interface PlaylistExport {
  playlistId: string;
  url: string;
  added: number;
}

interface SpotifySearch {
  tracks?: { items?: Array<SpotifyTrack | null> };
}

/** Base-62, 22 characters: anything else Spotify answers 400 "invalid id", which we treat as not found. */
const SPOTIFY_ID = /^[0-9A-Za-z]{22}$/;

/**
 * Spotify Web API with the client-credentials flow: POST {accounts}/api/token
 * (Basic client id:secret), then Bearer calls to /v1/search?type=track and
 * /v1/tracks/{id}; an ISRC is looked up with the `isrc:` search filter.
 */
export class SpotifyProvider extends CatalogueProvider implements PlaylistProvider {
  readonly name = 'spotify' as const;
  readonly label = 'Spotify';
  readonly pageSize = 20;
  protected readonly maxPageSize = 50;
  readonly enabled: boolean;
  private readonly http: ProviderHttp;
  private readonly auth: TokenAuth;

  constructor(
    private readonly config: SpotifyConfig,
    deps: ProviderDeps,
  ) {
    super();
    this.enabled = !!(config.clientId && config.clientSecret);
    this.http = new ProviderHttp(this.label, deps);
    this.auth = {
      tokens: new TokenCache(() => this.issueToken(deps.now), deps.now),
      headers: (token) => ({ authorization: `Bearer ${token}` }),
      retryOn: [401],
    };
  }

  async search(query: string, options: SearchOptions = {}): Promise<ProviderTrack[]> {
    this.ensureOn();
    if (!query.trim()) return [];
    const { limit, offset } = this.page(options);
    const found = await this.searchTracks(query, limit, offset, options.country, 'Spotify search failed');
    return found.map(toTrack);
  }

  async track(providerSongId: string, options: { country?: string } = {}): Promise<ProviderTrack | null> {
    this.ensureOn();
    if (!SPOTIFY_ID.test(providerSongId)) return null;
    const url = endpoint(this.config.apiUrl, `/v1/tracks/${providerSongId}`, { market: market(options.country) });
    const track = await this.http.find<SpotifyTrack>(url, { failure: 'Get Spotify track by ID failed', auth: this.auth });
    return track ? toTrack(track) : null;
  }

  async trackByIsrc(isrc: string, options: { country?: string } = {}): Promise<ProviderTrack | null> {
    this.ensureOn();
    const code = isrcOf(isrc);
    if (!code) return null;
    const found = await this.searchTracks(`isrc:${code}`, 1, 0, options.country, 'Get Spotify track by ISRC failed');
    const match = found.find((track) => isrcOf(track.external_ids?.isrc) === code);
    return match ? toTrack(match) : null;
  }

  /** GET /v1/playlists/{id}/tracks, 100 at a time, following `next`; episodes and local files are skipped. */
  async playlistTracks(playlistId: string, options: { country?: string; max?: number } = {}): Promise<ProviderTrack[] | null> {
    this.ensureOn();
    if (!SPOTIFY_ID.test(playlistId)) return null;
    const max = Math.min(options.max ?? PLAYLIST_TRACKS_MAX, PLAYLIST_TRACKS_MAX);
    const tracks: ProviderTrack[] = [];
    let url: URL | null = endpoint(this.config.apiUrl, `/v1/playlists/${playlistId}/tracks`, {
      limit: 100,
      offset: 0,
      market: market(options.country),
    });
    while (url && tracks.length < max) {
      const page: SpotifyPlaylistTracks | null = await this.http.find<SpotifyPlaylistTracks>(url, {
        failure: 'Get Spotify playlist tracks failed',
        auth: this.auth,
      });
      if (!page) return tracks.length === 0 ? null : tracks;
      for (const item of page.items ?? []) {
        const track = item?.track;
        if (track?.id && track.type !== 'episode' && !track.is_local) tracks.push(toTrack(track));
      }
      url = page.next ? this.sameOrigin(page.next) : null;
    }
    return tracks.slice(0, max);
  }

  /**
   * Creates a private playlist in the account of `accessToken`'s user
   * (GET /v1/me, POST /v1/users/{id}/playlists) and adds the tracks, 100 per
   * POST /v1/playlists/{id}/tracks. A refused token is 401, a missing scope 403.
   */
  async exportPlaylist(accessToken: string, name: string, description: string, trackIds: string[]): Promise<PlaylistExport> {
    const user = { authorization: `Bearer ${accessToken}` };
    const onStatus = {
      401: new AppError(401, 'Spotify refused the access token'),
      403: new AppError(403, 'The Spotify access token may not create playlists (scope playlist-modify-private)'),
    };
    const me = await this.http.get<{ id?: string }>(endpoint(this.config.apiUrl, '/v1/me'), {
      failure: 'Spotify export failed',
      headers: user,
      onStatus,
    });
    if (!me.id) throw this.http.failed('Spotify export failed', { reason: 'no user id' });
    const playlist = await this.http.get<{ id?: string; external_urls?: { spotify?: string } }>(
      endpoint(this.config.apiUrl, `/v1/users/${encodeURIComponent(me.id)}/playlists`),
      {
        failure: 'Spotify export failed',
        method: 'POST',
        onStatus,
        headers: { ...user, 'content-type': 'application/json' },
        body: JSON.stringify({ name, description, public: false }),
      },
    );
    if (!playlist.id) throw this.http.failed('Spotify export failed', { reason: 'no playlist id' });
    for (let i = 0; i < trackIds.length; i += 100) {
      await this.http.get(endpoint(this.config.apiUrl, `/v1/playlists/${playlist.id}/tracks`), {
        failure: 'Spotify export failed',
        method: 'POST',
        onStatus,
        headers: { ...user, 'content-type': 'application/json' },
        body: JSON.stringify({ uris: trackIds.slice(i, i + 100).map((id) => `spotify:track:${id}`) }),
      });
    }
    return {
      playlistId: playlist.id,
      url: playlist.external_urls?.spotify ?? `https://open.spotify.com/playlist/${playlist.id}`,
      added: trackIds.length,
    };
  }

  /** The track with this ISRC as the user's token sees it (exports work without the app's credentials). */
  async trackIdByIsrcAs(accessToken: string, isrc: string, country?: string): Promise<string | null> {
    const code = isrcOf(isrc);
    if (!code) return null;
    const url = endpoint(this.config.apiUrl, '/v1/search', { q: `isrc:${code}`, type: 'track', limit: 1, market: market(country) });
    const answer = await this.http.get<SpotifySearch>(url, {
      failure: 'Spotify export failed',
      headers: { authorization: `Bearer ${accessToken}` },
      onStatus: { 401: new AppError(401, 'Spotify refused the access token') },
    });
    return answer.tracks?.items?.find((t) => t?.id && isrcOf(t.external_ids?.isrc) === code)?.id ?? null;
  }

  /** A paging link, only when it points at the configured API (never elsewhere with our token). */
  private sameOrigin(link: string): URL | null {
    const url = new URL(link, this.config.apiUrl);
    return url.origin === new URL(this.config.apiUrl).origin ? url : null;
  }

  private async searchTracks(
    q: string,
    limit: number,
    offset: number,
    country: string | undefined,
    failure: string,
  ): Promise<SpotifyTrack[]> {
    const url = endpoint(this.config.apiUrl, '/v1/search', { q, type: 'track', limit, offset, market: market(country) });
    const answer = await this.http.get<SpotifySearch>(url, { failure, auth: this.auth });
    return (answer.tracks?.items ?? []).filter((item): item is SpotifyTrack => !!item?.id);
  }

  private async issueToken(now: () => number) {
    const answer = await this.http.get<{ access_token?: string; expires_in?: number }>(endpoint(this.config.accountsUrl, '/api/token'), {
      failure: 'Spotify token request failed',
      method: 'POST',
      headers: {
        authorization: basicAuth(this.config.clientId ?? '', this.config.clientSecret ?? ''),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials' }).toString(),
    });
    if (!answer.access_token) throw this.http.failed('Spotify token request failed', { reason: 'no access_token' });
    return { value: answer.access_token, expiresAt: expiresAt(now(), answer.expires_in) };
  }
}

function market(country: string | undefined): string | undefined {
  return country && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : undefined;
}

function toTrack(track: SpotifyTrack): ProviderTrack {
  return compact({
    provider: 'spotify',
    providerSongId: track.id,
    trackName: track.name,
    artistName: (track.artists ?? []).map((artist) => artist.name).join(', '),
    duration: seconds(track.duration_ms),
    isrc: isrcOf(track.external_ids?.isrc),
    explicit: track.explicit,
    albumName: track.album?.name || undefined,
    releaseYear: yearOf(track.album?.release_date),
    thumbnails: keyed('spotify', pickImage(track.album?.images ?? [])),
    links: keyed('spotify', track.external_urls?.spotify),
    previews: keyed('spotify', track.preview_url),
  });
}
