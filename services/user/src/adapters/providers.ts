import type { MikroORM } from '@mikro-orm/postgresql';
import { createLogger, type OutboxEntry } from '@spinroom/platform';
import { PgDiscordAccountStore, PgProviderLinkStore } from '../db/providers-store.js';
import type { Accounts, UserStore } from '../domain/accounts.js';
import { AgoraTokens } from '../domain/providers/agora.js';
import { DiscordAccounts } from '../domain/providers/discord.js';
import { ProviderLinks } from '../domain/providers/links.js';
import { TokenCipher } from '../domain/providers/token-cipher.js';
import type { User } from '../domain/user.js';
import type { ProvidersConfig } from '../providers-config.js';
import { AppleMusicDeveloperTokens } from './apple-developer-tokens.js';
import { DiscordOAuthClient } from './discord.js';
import { endpointUrl, type HttpDeps, OAuthTokenEndpoint } from './oauth-client.js';

/**
 * The providers area's objects from its config: each provider's adapter at
 * its real token endpoint (base URLs from the environment), the cipher, stores.
 */
export function buildProviders(
  config: ProvidersConfig & { LOG_LEVEL: string },
  deps: { orm: MikroORM; accounts: Accounts; store: UserStore; announceSignUp: (user: User) => OutboxEntry },
) {
  const logger = createLogger('user', { level: config.LOG_LEVEL });
  const http: HttpDeps = { fetch: (input, init) => fetch(input, init), timeoutMs: config.PROVIDER_HTTP_TIMEOUT_MS, logger };
  // Spotify: HTTP Basic for every grant ("Authorization Code Flow", "Client Credentials Flow").
  const spotify = new OAuthTokenEndpoint(
    {
      label: 'Spotify',
      tokenUrl: endpointUrl(config.SPOTIFY_ACCOUNTS_URL, '/api/token'),
      clientId: config.SPOTIFY_CLIENT_ID,
      clientSecret: config.SPOTIFY_CLIENT_SECRET,
      clientAuth: { authorization_code: 'basic', refresh_token: 'basic', client_credentials: 'basic' },
    },
    http,
  );
  // Google: client_id and client_secret in the form ("Using OAuth 2.0 for Web Server Applications").
  const youtube = new OAuthTokenEndpoint(
    {
      label: 'YouTube',
      tokenUrl: endpointUrl(config.GOOGLE_OAUTH_URL, '/token'),
      clientId: config.YOUTUBE_CLIENT_ID,
      clientSecret: config.YOUTUBE_CLIENT_SECRET,
      clientAuth: { authorization_code: 'body', refresh_token: 'body', client_credentials: 'body' },
    },
    http,
  );
  // SoundCloud's guide: Basic for client_credentials, the credentials in the form for the user grants.
  const soundcloud = (label: string, clientId: string | undefined, clientSecret: string | undefined) =>
    new OAuthTokenEndpoint(
      {
        label,
        tokenUrl: endpointUrl(config.SOUNDCLOUD_AUTH_URL, '/oauth/token'),
        clientId,
        clientSecret,
        clientAuth: { authorization_code: 'body', refresh_token: 'body', client_credentials: 'basic' },
      },
      http,
    );
  const cipher = config.PROVIDER_TOKEN_KEYS ? new TokenCipher(config.PROVIDER_TOKEN_KEYS) : undefined;
  const links = new ProviderLinks(
    new PgProviderLinkStore(deps.orm),
    cipher,
    {
      spotify,
      youtube,
      soundcloud: {
        web: soundcloud('SoundCloud', config.SOUNDCLOUD_CLIENT_ID, config.SOUNDCLOUD_CLIENT_SECRET),
        mobile: soundcloud('SoundCloud', config.SOUNDCLOUD_MOBILE_CLIENT_ID, config.SOUNDCLOUD_MOBILE_CLIENT_SECRET),
      },
    },
    new AppleMusicDeveloperTokens({
      teamId: config.APPLE_MUSIC_TEAM_ID,
      keyId: config.APPLE_MUSIC_KEY_ID,
      privateKey: config.APPLE_MUSIC_PRIVATE_KEY,
    }),
  );
  const discord = new DiscordAccounts(
    new DiscordOAuthClient(
      { apiUrl: config.DISCORD_API_URL, clientId: config.DISCORD_CLIENT_ID, clientSecret: config.DISCORD_CLIENT_SECRET },
      http,
    ),
    new PgDiscordAccountStore(deps.orm),
    deps.store,
    deps.accounts,
    deps.announceSignUp,
  );
  const agora = new AgoraTokens({
    appId: config.AGORA_APP_ID,
    appCertificate: config.AGORA_APP_CERTIFICATE,
    ttlSeconds: config.AGORA_TOKEN_TTL_SECONDS,
  });
  return { links, discord, agora };
}
