import { unavailable } from '@spinroom/platform';
import type { DiscordOAuth, DiscordUser } from '../domain/providers/discord.js';
import { endpointUrl, type HttpDeps, OAuthTokenEndpoint, providerFailed } from './oauth-client.js';

/** What GET /users/@me answers (Discord's User object; email and verified with the `email` scope). */
interface DiscordUserObject {
  id?: unknown;
  username?: unknown;
  global_name?: unknown;
  email?: unknown;
  verified?: unknown;
}

/**
 * Discord's OAuth2: the code exchanged at {api}/oauth2/token (client id and
 * secret as HTTP Basic), then the user read from {api}/users/@me with the
 * bearer token. Discord's token is used once and not kept.
 */
export class DiscordOAuthClient implements DiscordOAuth {
  private readonly tokens: OAuthTokenEndpoint;

  constructor(
    private readonly config: { apiUrl: string; clientId?: string; clientSecret?: string },
    private readonly deps: HttpDeps,
  ) {
    this.tokens = new OAuthTokenEndpoint(
      {
        label: 'Discord',
        tokenUrl: endpointUrl(config.apiUrl, '/oauth2/token'),
        clientId: config.clientId,
        clientSecret: config.clientSecret,
        clientAuth: { authorization_code: 'basic', refresh_token: 'basic', client_credentials: 'basic' },
      },
      deps,
    );
  }

  async userFromCode(input: { code: string; redirectUri: string }): Promise<DiscordUser> {
    if (!this.config.clientId || !this.config.clientSecret) throw unavailable('Discord is not configured');
    const { accessToken } = await this.tokens.exchangeCode(input);
    let response: Response;
    try {
      response = await this.deps.fetch(endpointUrl(this.config.apiUrl, '/users/@me'), {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(this.deps.timeoutMs),
      });
    } catch (error) {
      this.deps.logger.warn({ provider: 'Discord', err: error instanceof Error ? error.name : 'error' }, 'Discord user request failed');
      throw providerFailed('Discord');
    }
    const user = (await response.json().catch(() => ({}))) as DiscordUserObject;
    if (!response.ok || typeof user.id !== 'string' || !/^\d{1,20}$/.test(user.id) || typeof user.username !== 'string') {
      this.deps.logger.warn({ provider: 'Discord', status: response.status }, 'Discord user request failed');
      throw providerFailed('Discord');
    }
    return {
      id: user.id,
      username: user.username,
      globalName: typeof user.global_name === 'string' ? user.global_name : null,
      email: typeof user.email === 'string' ? user.email : null,
      verified: user.verified === true,
    };
  }
}
