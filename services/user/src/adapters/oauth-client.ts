import { AppError, badRequest, unavailable, type Logger } from '@spinroom/platform';
import type { OAuthClient, OAuthTokens } from '../domain/providers/ports.js';

type Grant = 'authorization_code' | 'refresh_token' | 'client_credentials';

/** How an app proves itself at a token endpoint: an HTTP Basic header or client_id and client_secret in the form. */
export type ClientAuth = 'basic' | 'body';

export interface OAuthAppConfig {
  /** The provider's name in messages ("Spotify"). */
  label: string;
  /** The token endpoint, e.g. https://accounts.spotify.com/api/token. */
  tokenUrl: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** Per grant, as the provider documents it. */
  clientAuth: Record<Grant, ClientAuth>;
}

export interface HttpDeps {
  fetch: typeof fetch;
  timeoutMs: number;
  logger: Logger;
}

/** An RFC 6749 error answer ({error, error_description}). */
interface OAuthAnswer {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
  scope?: unknown;
  error?: unknown;
}

/** A provider's failure as the caller sees it; the details go to the log (never a token or code). */
export function providerFailed(label: string): AppError {
  return new AppError(502, `${label} did not answer as expected`);
}

/**
 * One OAuth 2.0 app at one token endpoint: form-encoded POSTs of the three
 * grants (RFC 6749 sections 4.1.3, 6 and 4.4). A refused code or refresh
 * token (`invalid_grant`) is the caller's 400; anything else is a 502.
 */
export class OAuthTokenEndpoint implements OAuthClient {
  constructor(
    private readonly config: OAuthAppConfig,
    private readonly deps: HttpDeps,
  ) {}

  get label(): string {
    return this.config.label;
  }

  exchangeCode(input: { code: string; redirectUri: string; codeVerifier?: string }): Promise<OAuthTokens> {
    const form: Record<string, string> = { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri };
    if (input.codeVerifier) form.code_verifier = input.codeVerifier;
    return this.request('authorization_code', form, `${this.label} refused the authorization code`);
  }

  refresh(refreshToken: string): Promise<OAuthTokens> {
    return this.request(
      'refresh_token',
      { grant_type: 'refresh_token', refresh_token: refreshToken },
      `${this.label} refused the refresh token; link the account again`,
    );
  }

  clientCredentials(): Promise<OAuthTokens> {
    return this.request('client_credentials', { grant_type: 'client_credentials' }, `${this.label} refused the app's credentials`);
  }

  private async request(grant: Grant, form: Record<string, string>, refusal: string): Promise<OAuthTokens> {
    const { clientId, clientSecret, label, tokenUrl } = this.config;
    if (!clientId || !clientSecret) throw unavailable(`${label} is not configured`);
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    const body = new URLSearchParams(form);
    if (this.config.clientAuth[grant] === 'basic') {
      // RFC 6749 2.3.1: the id and secret are form-encoded before they are joined.
      const id = encodeURIComponent(clientId);
      headers.authorization = `Basic ${Buffer.from(`${id}:${encodeURIComponent(clientSecret)}`).toString('base64')}`;
    } else {
      body.set('client_id', clientId);
      body.set('client_secret', clientSecret);
    }
    let response: Response;
    try {
      response = await this.deps.fetch(tokenUrl, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(this.deps.timeoutMs),
      });
    } catch (error) {
      this.deps.logger.warn({ provider: label, grant, err: error instanceof Error ? error.name : 'error' }, 'OAuth token request failed');
      throw providerFailed(label);
    }
    const answer = (await response.json().catch(() => ({}))) as OAuthAnswer;
    if (!response.ok) {
      const code = typeof answer.error === 'string' ? answer.error.slice(0, 64) : undefined;
      this.deps.logger.warn({ provider: label, grant, status: response.status, error: code }, 'OAuth token request refused');
      if (grant !== 'client_credentials' && code === 'invalid_grant') throw badRequest(refusal);
      throw providerFailed(label);
    }
    if (typeof answer.access_token !== 'string' || !answer.access_token) {
      this.deps.logger.warn({ provider: label, grant, reason: 'no access_token' }, 'OAuth token request failed');
      throw providerFailed(label);
    }
    return {
      accessToken: answer.access_token,
      refreshToken: typeof answer.refresh_token === 'string' && answer.refresh_token ? answer.refresh_token : undefined,
      // An hour when the provider leaves it out (RFC 6749 makes expires_in a recommendation).
      expiresInSeconds: typeof answer.expires_in === 'number' && answer.expires_in > 0 ? Math.floor(answer.expires_in) : 3600,
      scope: typeof answer.scope === 'string' ? answer.scope : undefined,
    };
  }
}

/** `base` (with or without a trailing slash) joined with `path`. */
export function endpointUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}
