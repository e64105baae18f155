import { badRequest, forbidden, notFound, unavailable, type Caller } from '@spinroom/platform';
import { type TokenCipher, UnknownTokenKeyError } from './token-cipher.js';
import type {
  AppleDeveloperTokens,
  LinkedProvider,
  OAuthClient,
  OAuthTokens,
  ProviderClient,
  ProviderLinkStore,
  StoredLink,
} from './ports.js';

/** An access token as the paths answer it. */
export interface AccessTokenView {
  accessToken: string;
  expiresInSeconds: number;
  scope: string;
}

export const NOT_LINKED: Record<LinkedProvider, string> = {
  apple: 'No Apple Music account is linked',
  soundcloud: 'No SoundCloud account is linked',
  spotify: 'No Spotify account is linked',
  youtube: 'No YouTube account is linked',
};
export const TOKENS_OF_OTHERS = "Only the token's owner or a service may read it";
export const SERVICES_ONLY = 'Only services may read this token';
export const NO_ENCRYPTION_KEY = 'Provider tokens cannot be stored: PROVIDER_TOKEN_KEYS is not set';

/** An access token is used until this close to its end, then refreshed. */
const EXPIRY_MARGIN_MS = 60_000;
const MAX_TOKEN_LENGTH = 8192;

/** Who may read a user's provider tokens: the user, or a service (and only a service where the path says so). */
export function checkTokenReader(caller: Caller, userUuid: string, servicesOnly: boolean): void {
  if (caller.role === 'service') return;
  if (servicesOnly) throw forbidden(SERVICES_ONLY);
  if (caller.userUuid !== userUuid) throw forbidden(TOKENS_OF_OTHERS);
}

/** Linking is for accounts that last: guests and services have no provider accounts. */
export function checkLinker(caller: Caller): void {
  if (caller.role === 'guest' || caller.role === 'service') throw forbidden('Only signed-in users can link a music provider');
}

function checkToken(value: string, name: string): string {
  const token = value.trim();
  if (!token || token.length > MAX_TOKEN_LENGTH || !/^[\x21-\x7E]+$/.test(token)) throw badRequest(`${name} must be a token`);
  return token;
}

/**
 * The music-provider links of users: OAuth codes exchanged and refresh tokens
 * kept (encrypted), access tokens handed out and refreshed when expired, the
 * apps' own public tokens cached, Apple Music user tokens kept as given.
 */
export class ProviderLinks {
  /** Refreshes in flight per link, so concurrent readers share one (SoundCloud's refresh tokens are single use). */
  private readonly refreshing = new Map<string, Promise<AccessTokenView>>();
  private readonly publicTokens = new Map<string, { view: Promise<AccessTokenView>; expiresAt: number }>();

  constructor(
    private readonly store: ProviderLinkStore,
    private readonly cipher: TokenCipher | undefined,
    private readonly oauth: {
      spotify: OAuthClient;
      youtube: OAuthClient;
      soundcloud: Record<ProviderClient, OAuthClient>;
    },
    private readonly apple: AppleDeveloperTokens,
    private readonly now: () => number = Date.now,
  ) {}

  async saveAppleUserToken(userUuid: string, userToken: string): Promise<void> {
    const token = checkToken(userToken, 'userToken');
    const cipher = this.requireCipher();
    await this.store.save({
      userUuid,
      provider: 'apple',
      client: 'web',
      accessToken: cipher.encrypt(token, context(userUuid, 'apple', 'web', 'access')),
      accessExpiresAt: null,
      refreshToken: null,
      scope: null,
    });
  }

  async appleUserToken(userUuid: string): Promise<{ userToken: string; developerToken: string }> {
    const link = await this.find(userUuid, 'apple', 'web');
    const userToken = this.open(link.accessToken, link, 'access');
    if (!userToken) throw notFound(NOT_LINKED.apple);
    return { userToken, developerToken: await this.apple.token() };
  }

  /** A MusicKit developer token alone: MusicKit on the Web needs one to authorize a user who has linked nothing yet. */
  appleDeveloperToken(): Promise<string> {
    return this.apple.token();
  }

  /** Authorization code -> tokens, kept as the caller's link (Spotify, YouTube). */
  async exchangeCode(
    userUuid: string,
    provider: 'spotify' | 'youtube',
    input: { code: string; redirectUri: string; codeVerifier?: string },
  ): Promise<AccessTokenView> {
    const code = checkToken(input.code, 'code');
    // Web callbacks and the apps' custom schemes (spinroom://callback) alike.
    if (!/^[a-z][a-z0-9+.-]*:\S{1,2000}$/i.test(input.redirectUri)) throw badRequest('redirectUri must be a URI');
    this.requireCipher();
    const tokens = await this.oauth[provider].exchangeCode({
      code,
      redirectUri: input.redirectUri,
      codeVerifier: input.codeVerifier ? checkToken(input.codeVerifier, 'codeVerifier') : undefined,
    });
    return this.keep(userUuid, provider, 'web', tokens, null);
  }

  /** A refresh token the client obtained itself (SoundCloud's SDKs): proved by using it, then kept. */
  async saveRefreshToken(userUuid: string, provider: 'soundcloud', client: ProviderClient, refreshToken: string): Promise<AccessTokenView> {
    const token = checkToken(refreshToken, 'refreshToken');
    this.requireCipher();
    const tokens = await this.oauth[provider][client].refresh(token);
    return this.keep(userUuid, provider, client, tokens, token);
  }

  /** A new access token for the caller's link now, whether or not the old one expired. */
  async refresh(
    userUuid: string,
    provider: 'spotify' | 'youtube' | 'soundcloud',
    client: ProviderClient = 'web',
  ): Promise<AccessTokenView> {
    const link = await this.find(userUuid, provider, client);
    return this.refreshLink(link);
  }

  /**
   * The user's links, without their tokens. A link whose tokens are under a retired key is left out: it
   * reads as "not linked" on every other path too, and the user links again; without keys, none reads.
   */
  async links(userUuid: string): Promise<Array<{ provider: LinkedProvider; client: ProviderClient; updatedAt: Date }>> {
    const cipher = this.cipher;
    if (!cipher) return [];
    const usable = (link: StoredLink): boolean => {
      const field = link.refreshToken ? 'refresh' : 'access';
      const stored = link.refreshToken ?? link.accessToken;
      if (!stored) return false;
      try {
        cipher.decrypt(stored, context(link.userUuid, link.provider, link.client, field));
        return true;
      } catch (error) {
        if (error instanceof UnknownTokenKeyError) return false;
        throw error;
      }
    };
    return (await this.store.list(userUuid)).filter(usable).map(({ provider, client, updatedAt }) => ({ provider, client, updatedAt }));
  }

  async deleteLink(userUuid: string, provider: LinkedProvider, client: ProviderClient = 'web'): Promise<boolean> {
    return this.store.delete(userUuid, provider, client);
  }

  /** The user's access token, refreshed first when it has expired (or is about to). */
  async accessToken(
    userUuid: string,
    provider: 'spotify' | 'youtube' | 'soundcloud',
    client: ProviderClient = 'web',
  ): Promise<AccessTokenView> {
    const link = await this.find(userUuid, provider, client);
    const expiresAt = link.accessExpiresAt?.getTime() ?? 0;
    const accessToken = this.open(link.accessToken, link, 'access');
    if (accessToken && expiresAt - EXPIRY_MARGIN_MS > this.now()) {
      return { accessToken, expiresInSeconds: Math.floor((expiresAt - this.now()) / 1000), scope: link.scope ?? '' };
    }
    return this.refreshLink(link);
  }

  /** The app's own token (client credentials), shared by every caller until shortly before it ends. */
  async publicToken(provider: 'soundcloud', client: ProviderClient): Promise<AccessTokenView> {
    const key = `${provider}:${client}`;
    const cached = this.publicTokens.get(key);
    if (cached && cached.expiresAt - EXPIRY_MARGIN_MS > this.now()) {
      const view = await cached.view;
      return { ...view, expiresInSeconds: Math.floor((cached.expiresAt - this.now()) / 1000) };
    }
    const started = this.now();
    const view = this.oauth[provider][client].clientCredentials().then((t) => ({
      accessToken: t.accessToken,
      expiresInSeconds: t.expiresInSeconds,
      scope: t.scope ?? '',
    }));
    // Until it answers, concurrent callers wait for this one request.
    this.publicTokens.set(key, { view, expiresAt: Number.POSITIVE_INFINITY });
    try {
      const answered = await view;
      this.publicTokens.set(key, { view, expiresAt: started + answered.expiresInSeconds * 1000 });
      return answered;
    } catch (error) {
      this.publicTokens.delete(key);
      throw error;
    }
  }

  private refreshLink(link: StoredLink): Promise<AccessTokenView> {
    const key = `${link.userUuid}:${link.provider}:${link.client}`;
    let pending = this.refreshing.get(key);
    if (!pending) {
      pending = (async () => {
        // The caller's copy may predate a refresh that just ended (read before it was stored): its
        // refresh token would then be used up (SoundCloud's are single use). The stored one is current.
        const current = await this.find(link.userUuid, link.provider, link.client);
        const refreshToken = this.open(current.refreshToken, current, 'refresh');
        if (!refreshToken) throw notFound(NOT_LINKED[current.provider]);
        const tokens = await this.oauthFor(current).refresh(refreshToken);
        return this.keep(current.userUuid, current.provider, current.client, tokens, refreshToken, current.scope);
      })().finally(() => this.refreshing.delete(key));
      this.refreshing.set(key, pending);
    }
    return pending;
  }

  private oauthFor(link: StoredLink): OAuthClient {
    if (link.provider === 'soundcloud') return this.oauth.soundcloud[link.client];
    if (link.provider === 'apple') throw badRequest('Apple Music user tokens are not refreshed');
    return this.oauth[link.provider];
  }

  /** Stores the tokens (a provider that sends no new refresh token keeps the old one) and answers the access token. */
  private async keep(
    userUuid: string,
    provider: LinkedProvider,
    client: ProviderClient,
    tokens: OAuthTokens,
    previousRefreshToken: string | null,
    previousScope: string | null = null,
  ): Promise<AccessTokenView> {
    const cipher = this.requireCipher();
    const refreshToken = tokens.refreshToken ?? previousRefreshToken;
    const scope = tokens.scope ?? previousScope;
    await this.store.save({
      userUuid,
      provider,
      client,
      accessToken: cipher.encrypt(tokens.accessToken, context(userUuid, provider, client, 'access')),
      accessExpiresAt: new Date(this.now() + tokens.expiresInSeconds * 1000),
      refreshToken: refreshToken ? cipher.encrypt(refreshToken, context(userUuid, provider, client, 'refresh')) : null,
      scope,
    });
    return { accessToken: tokens.accessToken, expiresInSeconds: tokens.expiresInSeconds, scope: scope ?? '' };
  }

  private async find(userUuid: string, provider: LinkedProvider, client: ProviderClient): Promise<StoredLink> {
    const link = await this.store.find(userUuid, provider, client);
    if (!link) throw notFound(NOT_LINKED[provider]);
    return link;
  }

  private open(stored: string | null, link: StoredLink, field: 'access' | 'refresh'): string | null {
    if (!stored) return null;
    try {
      return this.requireCipher().decrypt(stored, context(link.userUuid, link.provider, link.client, field));
    } catch (error) {
      // Encrypted with a key since retired: as good as no link, the user links again.
      if (error instanceof UnknownTokenKeyError) throw notFound(NOT_LINKED[link.provider]);
      throw error;
    }
  }

  private requireCipher(): TokenCipher {
    if (!this.cipher) throw unavailable(NO_ENCRYPTION_KEY);
    return this.cipher;
  }
}

/** The associated data that binds a ciphertext to its user, provider, app and field. */
function context(userUuid: string, provider: LinkedProvider, client: ProviderClient, field: 'access' | 'refresh'): string {
  return `${userUuid}/${provider}/${client}/${field}`;
}
