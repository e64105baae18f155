import { AppError } from '@spinroom/platform';
import type { ProviderTrack, SearchOptions } from './provider.js';
import {
  basicAuth,
  CatalogueProvider,
  compact,
  endpoint,
  expiresAt,
  isrcOf,
  keyed,
  ProviderHttp,
  seconds,
  TokenCache,
  yearOf,
  type AccessToken,
  type ProviderDeps,
  type TokenAuth,
} from './support.js';

export interface SoundCloudConfig {
  apiUrl: string;
  /** Where tokens come from (https://secure.soundcloud.com). */
  authUrl: string;
  clientId?: string;
  clientSecret?: string;
}

/** SoundCloud public API track (the fields we read). */
interface SoundCloudTrack {
  id: number;
  title: string;
  duration?: number;
  genre?: string | null;
  isrc?: string | null;
  artwork_url?: string | null;
  permalink_url?: string;
  release_year?: number | null;
  secret_token?: string | null;
  sharing?: string;
  user?: { username?: string; avatar_url?: string | null };
}

interface OAuthAnswer {
  access_token?: string;
  expires_in?: number;
  refresh_token?: string;
}

/** Numeric ids, or the "soundcloud:tracks:123" URNs the API also accepts. */
const SOUNDCLOUD_ID = /^(?:soundcloud:tracks:)?\d{1,20}$/;

/**
 * SoundCloud public API with OAuth 2.1 client credentials: POST
 * {auth}/oauth/token (Basic client id:secret), then "Authorization: OAuth
 * <token>" on /tracks?q= and /tracks/{id}. Expired tokens are renewed with the
 * refresh token (SoundCloud limits client-credentials grants per app), falling
 * back to a new client-credentials grant. A refused token (401, or the 403 spec
 * 002 names for SoundCloud) is renewed and the call tried once more.
 * SoundCloud has no ISRC lookup.
 */
export class SoundCloudProvider extends CatalogueProvider {
  readonly name = 'soundCloudPublic' as const;
  readonly label = 'SoundCloud';
  /** Spec 002: SoundCloud search pages hold 20. */
  readonly pageSize = 20;
  protected readonly maxPageSize = 200;
  readonly enabled: boolean;
  private readonly http: ProviderHttp;
  private readonly auth: TokenAuth;

  constructor(
    private readonly config: SoundCloudConfig,
    deps: ProviderDeps,
  ) {
    super();
    this.enabled = !!(config.clientId && config.clientSecret);
    this.http = new ProviderHttp(this.label, deps);
    this.auth = {
      tokens: new TokenCache((previous) => this.issueToken(previous, deps.now), deps.now),
      headers: (token) => ({ authorization: `OAuth ${token}` }),
      retryOn: [401, 403],
    };
  }

  async search(query: string, options: SearchOptions = {}): Promise<ProviderTrack[]> {
    this.ensureOn();
    if (!query.trim()) return [];
    const { limit, offset } = this.page(options);
    const url = endpoint(this.config.apiUrl, '/tracks', { q: query, access: 'playable', limit, offset, linked_partitioning: 'true' });
    const answer = await this.http.get<{ collection?: SoundCloudTrack[] } | SoundCloudTrack[]>(url, {
      failure: 'SoundCloud search failed',
      auth: this.auth,
    });
    // linked_partitioning answers { collection, next_href }; the older plain array is still accepted.
    const tracks = Array.isArray(answer) ? answer : (answer.collection ?? []);
    return tracks.filter((track) => track?.id !== undefined).map(toTrack);
  }

  async track(providerSongId: string): Promise<ProviderTrack | null> {
    this.ensureOn();
    if (!SOUNDCLOUD_ID.test(providerSongId)) return null;
    const url = endpoint(this.config.apiUrl, `/tracks/${encodeURIComponent(providerSongId)}`);
    const track = await this.http.find<SoundCloudTrack>(url, { failure: 'Get SoundCloud track by ID failed', auth: this.auth });
    return track ? toTrack(track) : null;
  }

  private async issueToken(previous: AccessToken | undefined, now: () => number): Promise<AccessToken> {
    if (previous?.refreshToken) {
      try {
        return await this.grant({ grant_type: 'refresh_token', refresh_token: previous.refreshToken }, now);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        // A used or revoked refresh token: start again with client credentials.
      }
    }
    return this.grant({ grant_type: 'client_credentials' }, now);
  }

  private async grant(form: Record<string, string>, now: () => number): Promise<AccessToken> {
    const { clientId = '', clientSecret = '' } = this.config;
    // As SoundCloud's own examples do: Basic credentials for client_credentials, body credentials for refresh_token.
    const basic = form.grant_type === 'client_credentials';
    const answer = await this.http.get<OAuthAnswer>(endpoint(this.config.authUrl, '/oauth/token'), {
      failure: `SoundCloud ${form.grant_type} grant failed`,
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(basic ? { authorization: basicAuth(clientId, clientSecret) } : {}),
      },
      body: new URLSearchParams(basic ? form : { ...form, client_id: clientId, client_secret: clientSecret }).toString(),
    });
    if (!answer.access_token) throw this.http.failed('SoundCloud token request failed', { reason: 'no access_token' });
    return { value: answer.access_token, expiresAt: expiresAt(now(), answer.expires_in), refreshToken: answer.refresh_token };
  }
}

function toTrack(track: SoundCloudTrack): ProviderTrack {
  return compact({
    provider: 'soundCloudPublic',
    providerSongId: String(track.id),
    trackName: track.title,
    artistName: track.user?.username ?? '',
    duration: seconds(track.duration),
    isrc: isrcOf(track.isrc),
    genre: track.genre || undefined,
    releaseYear: yearOf(track.release_year),
    thumbnails: keyed('soundCloudPublic', artwork(track.artwork_url ?? track.user?.avatar_url)),
    links: keyed('soundCloudPublic', track.permalink_url),
    playbackToken: track.sharing === 'private' ? (track.secret_token ?? undefined) : undefined,
  });
}

/** SoundCloud serves "-large" (100x100) images; the same image exists as "-t300x300". */
function artwork(url: string | null | undefined): string | undefined {
  return url ? url.replace(/-large(\.\w+)(\?.*)?$/, '-t300x300$1$2') : undefined;
}
