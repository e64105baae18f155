import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { UserServiceConfig } from '../../services/user/src/config.js';
import {
  basicCredentials,
  credential,
  StandIn,
  type StandInReply,
  type StandInRequest,
} from '../../services/playlist/test/stand-ins/server.js';

/** The apps the stand-ins know, as each provider would have registered them. */
export const OAUTH_APPS = {
  spotify: { id: 'spotify-link-client', secret: 'spotify-link-secret' },
  youtube: { id: '1234567890-link.apps.googleusercontent.com', secret: 'GOCSPX-link-secret' },
  soundcloud: { id: 'soundcloud-web-client', secret: 'soundcloud-web-secret' },
  soundcloudMobile: { id: 'soundcloud-mobile-client', secret: 'soundcloud-mobile-secret' },
  discord: { id: '1100000000000000001', secret: 'discord-link-secret' },
} as const;

type Provider = 'spotify' | 'youtube' | 'soundcloud' | 'discord';

/** A Discord user as GET /users/@me answers it (with the `email` scope). */
export interface DiscordProfile {
  id: string;
  username: string;
  global_name: string | null;
  email: string | null;
  verified: boolean;
}

interface Grant {
  provider: Provider;
  clientId: string;
  scope: string;
  discord?: DiscordProfile;
}

const token = (prefix: string) => `${prefix}-${randomBytes(12).toString('base64url')}`;

/**
 * One local server answering as the providers' OAuth token endpoints do, each
 * under a path prefix so each adapter's base URL points at "its" provider:
 * `/spotify/api/token` (accounts.spotify.com), `/google/token`
 * (oauth2.googleapis.com), `/soundcloud/oauth/token` (secure.soundcloud.com),
 * `/discord/api/oauth2/token` and `/discord/api/users/@me` (discord.com/api).
 * Requests are form-encoded; answers are the providers' JSON and error shapes
 * (RFC 6749 `{error, error_description}`; Discord's `{message, code}` on its API).
 */
export class OAuthStandIns {
  /** Authorization codes issued (single use), with the redirect URI they were issued for. */
  private readonly codes = new Map<string, Grant & { redirectUri: string }>();
  private readonly refreshTokens = new Map<string, Grant>();
  private readonly accessTokens = new Map<string, Grant>();
  /** Seconds each provider's access tokens live (tests shorten one to force refreshes). */
  readonly expiresIn: Record<Provider, number> = { spotify: 3600, youtube: 3599, soundcloud: 3599, discord: 604800 };

  private constructor(private readonly server: StandIn) {}

  static async start(): Promise<OAuthStandIns> {
    let standIns: OAuthStandIns | undefined;
    const server = await StandIn.start({
      routes: [
        { method: 'POST', path: /^\/spotify\/api\/token$/, token: true, handle: (r) => standIns!.spotify(r) },
        { method: 'POST', path: /^\/google\/token$/, token: true, handle: (r) => standIns!.google(r) },
        { method: 'POST', path: /^\/soundcloud\/oauth\/token$/, token: true, handle: (r) => standIns!.soundcloud(r) },
        { method: 'POST', path: /^\/discord\/api\/oauth2\/token$/, token: true, handle: (r) => standIns!.discordToken(r) },
        { method: 'GET', path: /^\/discord\/api\/users\/@me$/, handle: (r) => standIns!.discordMe(r) },
      ],
      errorBody: (status, message) => ({ status, json: { error: 'server_error', error_description: message } }),
    });
    standIns = new OAuthStandIns(server);
    return standIns;
  }

  get url(): string {
    return this.server.url;
  }

  /** Every request seen (tests check what was sent, e.g. that a refresh used the stored token). */
  get requests(): StandInRequest[] {
    return this.server.requests;
  }

  /** What the consent screen would hand the client: a code for this app and redirect URI. */
  issueCode(provider: Provider, redirectUri: string, options: { clientId?: string; discord?: DiscordProfile } = {}): string {
    const code = token(`${provider}-code`);
    const clientId = options.clientId ?? OAUTH_APPS[provider].id;
    this.codes.set(code, { provider, clientId, redirectUri, scope: scopeOf(provider), discord: options.discord });
    return code;
  }

  /** A refresh token the provider's own SDK would have obtained for the app (SoundCloud's mobile and web SDKs). */
  issueRefreshToken(provider: Provider, clientId: string = OAUTH_APPS[provider].id): string {
    const refresh = token(`${provider}-refresh`);
    this.refreshTokens.set(refresh, { provider, clientId, scope: scopeOf(provider) });
    return refresh;
  }

  /** The user revoked the app at the provider: its refresh tokens stop working. */
  revokeRefreshTokens(provider: Provider): void {
    for (const [value, grant] of this.refreshTokens) if (grant.provider === provider) this.refreshTokens.delete(value);
  }

  /** Access tokens the provider considers live. */
  isLiveAccessToken(value: string): boolean {
    return this.accessTokens.has(value);
  }

  close(): Promise<void> {
    return this.server.close();
  }

  // Spotify: client id and secret as HTTP Basic; a refresh may or may not return a new refresh token (here: not).
  private spotify(request: StandInRequest): StandInReply {
    const basic = basicCredentials(request);
    const app = OAUTH_APPS.spotify;
    if (!basic || basic.id !== app.id || basic.secret !== app.secret) return oauthError(400, 'invalid_client', 'Invalid client');
    return this.grant('spotify', app.id, form(request), { rotateRefresh: false, tokenType: 'Bearer' });
  }

  // Google: client_id and client_secret in the form; a refresh answers no refresh token.
  private google(request: StandInRequest): StandInReply {
    const body = form(request);
    const app = OAUTH_APPS.youtube;
    if (body.get('client_id') !== app.id || body.get('client_secret') !== app.secret) {
      return oauthError(401, 'invalid_client', 'The OAuth client was not found.');
    }
    if (body.get('grant_type') === 'client_credentials')
      return oauthError(400, 'unsupported_grant_type', 'Invalid grant_type: client_credentials');
    return this.grant('youtube', app.id, body, { rotateRefresh: false, tokenType: 'Bearer' });
  }

  // SoundCloud: Basic for client_credentials, credentials in the form for the user grants; refresh tokens rotate.
  private soundcloud(request: StandInRequest): StandInReply {
    const body = form(request);
    const basic = basicCredentials(request);
    const presented =
      body.get('grant_type') === 'client_credentials'
        ? basic
        : { id: body.get('client_id') ?? '', secret: body.get('client_secret') ?? '' };
    const app = [OAUTH_APPS.soundcloud, OAUTH_APPS.soundcloudMobile].find((a) => a.id === presented?.id && a.secret === presented?.secret);
    if (!app) return oauthError(401, 'invalid_client', 'Client authentication failed');
    return this.grant('soundcloud', app.id, body, { rotateRefresh: true, tokenType: 'bearer' });
  }

  private discordToken(request: StandInRequest): StandInReply {
    const basic = basicCredentials(request);
    const app = OAUTH_APPS.discord;
    if (!basic || basic.id !== app.id || basic.secret !== app.secret) return oauthError(401, 'invalid_client', undefined);
    return this.grant('discord', app.id, form(request), { rotateRefresh: true, tokenType: 'Bearer' });
  }

  private discordMe(request: StandInRequest): StandInReply {
    const grant = this.accessTokens.get(credential(request, 'Bearer') ?? '');
    if (!grant?.discord) return { status: 401, json: { message: '401: Unauthorized', code: 0 } };
    const { id, username, global_name, email, verified } = grant.discord;
    const user: Record<string, unknown> = {
      id,
      username,
      global_name,
      avatar: null,
      discriminator: '0',
      public_flags: 0,
      flags: 0,
      mfa_enabled: false,
      locale: 'en-US',
      premium_type: 0,
    };
    if (grant.scope.split(' ').includes('email')) Object.assign(user, { email, verified });
    return { json: user };
  }

  /** The three grants of RFC 6749 as the providers answer them. */
  private grant(
    provider: Provider,
    clientId: string,
    body: URLSearchParams,
    options: { rotateRefresh: boolean; tokenType: string },
  ): StandInReply {
    const grantType = body.get('grant_type');
    let grant: Grant;
    let newRefresh = true;
    if (grantType === 'authorization_code') {
      const issued = this.codes.get(body.get('code') ?? '');
      if (!issued || issued.provider !== provider || issued.clientId !== clientId)
        return oauthError(400, 'invalid_grant', 'Invalid authorization code');
      if (issued.redirectUri !== body.get('redirect_uri')) return oauthError(400, 'invalid_grant', 'Invalid redirect URI');
      this.codes.delete(body.get('code')!);
      grant = issued;
    } else if (grantType === 'refresh_token') {
      const refresh = body.get('refresh_token') ?? '';
      const known = this.refreshTokens.get(refresh);
      if (!known || known.provider !== provider || known.clientId !== clientId)
        return oauthError(400, 'invalid_grant', 'Invalid refresh token');
      if (options.rotateRefresh) this.refreshTokens.delete(refresh);
      newRefresh = options.rotateRefresh;
      grant = known;
    } else if (grantType === 'client_credentials') {
      grant = { provider, clientId, scope: '' };
      newRefresh = false;
    } else {
      return oauthError(400, 'unsupported_grant_type', `Invalid grant_type: ${grantType ?? ''}`);
    }
    const access = token(`${provider}-access`);
    this.accessTokens.set(access, grant);
    const answer: Record<string, unknown> = {
      access_token: access,
      token_type: options.tokenType,
      expires_in: this.expiresIn[provider],
      scope: grant.scope,
    };
    if (newRefresh) {
      const refresh = token(`${provider}-refresh`);
      this.refreshTokens.set(refresh, grant);
      answer.refresh_token = refresh;
    }
    return { json: answer, headers: { 'cache-control': 'no-store', pragma: 'no-cache' } };
  }
}

function form(request: StandInRequest): URLSearchParams {
  if (!String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return new URLSearchParams();
  return new URLSearchParams(request.body);
}

function oauthError(status: number, error: string, description: string | undefined): StandInReply {
  return { status, json: description ? { error, error_description: description } : { error } };
}

function scopeOf(provider: Provider): string {
  return {
    spotify: 'user-read-email streaming',
    youtube: 'https://www.googleapis.com/auth/youtube.readonly',
    soundcloud: '',
    discord: 'identify email',
  }[provider];
}

/** Agora test credentials (32 hex digits each, as Agora issues them). */
export const TEST_AGORA = { appId: '970ca35de60c44645bbae8a215061b33', certificate: '5cfd2fd1755d40ecb72977518be15d3b' };
/** The MusicKit key the test user service signs Apple developer tokens with. */
export const TEST_APPLE_MUSIC = { teamId: 'TEAM123456', keyId: 'KEY1234567', ...generateKeyPairSync('ec', { namedCurve: 'prime256v1' }) };
/** The provider-token key of the test user service (id "a"). */
export const TEST_PROVIDER_TOKEN_KEY = { id: 'a', key: randomBytes(32) };

/** The user service's providers config pointing every adapter at these stand-ins (pass as the platform's `user`). */
export function providersUserConfig(oauth: OAuthStandIns): Partial<UserServiceConfig> {
  return {
    PROVIDER_TOKEN_KEYS: [TEST_PROVIDER_TOKEN_KEY],
    SPOTIFY_ACCOUNTS_URL: `${oauth.url}/spotify`,
    SPOTIFY_CLIENT_ID: OAUTH_APPS.spotify.id,
    SPOTIFY_CLIENT_SECRET: OAUTH_APPS.spotify.secret,
    GOOGLE_OAUTH_URL: `${oauth.url}/google`,
    YOUTUBE_CLIENT_ID: OAUTH_APPS.youtube.id,
    YOUTUBE_CLIENT_SECRET: OAUTH_APPS.youtube.secret,
    SOUNDCLOUD_AUTH_URL: `${oauth.url}/soundcloud`,
    SOUNDCLOUD_CLIENT_ID: OAUTH_APPS.soundcloud.id,
    SOUNDCLOUD_CLIENT_SECRET: OAUTH_APPS.soundcloud.secret,
    SOUNDCLOUD_MOBILE_CLIENT_ID: OAUTH_APPS.soundcloudMobile.id,
    SOUNDCLOUD_MOBILE_CLIENT_SECRET: OAUTH_APPS.soundcloudMobile.secret,
    DISCORD_API_URL: `${oauth.url}/discord/api`,
    DISCORD_CLIENT_ID: OAUTH_APPS.discord.id,
    DISCORD_CLIENT_SECRET: OAUTH_APPS.discord.secret,
    APPLE_MUSIC_TEAM_ID: TEST_APPLE_MUSIC.teamId,
    APPLE_MUSIC_KEY_ID: TEST_APPLE_MUSIC.keyId,
    APPLE_MUSIC_PRIVATE_KEY: TEST_APPLE_MUSIC.privateKey,
    AGORA_APP_ID: TEST_AGORA.appId,
    AGORA_APP_CERTIFICATE: TEST_AGORA.certificate,
  };
}
