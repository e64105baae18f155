import { timingSafeEqual } from 'node:crypto';
import { badRequest, forbidden, unauthorized, unavailable, type Caller, type TokenIssuer } from '@spinroom/platform';

/** Service tokens live minutes, not days: a leaked one is soon useless. */
export const SERVICE_TOKEN_TTL_SECONDS = 15 * 60;
const SERVICE_NAME = /^[a-z][a-z0-9-]{1,39}$/;

/**
 * Client-credentials for Spinroom's own services: a service that proves the
 * shared secret gets an RS256 token with role `service`, verifiable like any
 * other with the public key alone.
 */
export class ServiceTokens {
  private readonly secret: Buffer | undefined;

  constructor(
    private readonly tokens: TokenIssuer,
    secret: string | undefined,
  ) {
    this.secret = secret ? Buffer.from(secret) : undefined;
  }

  async issue(serviceName: string, clientSecret: string): Promise<{ accessToken: string; expiresInSeconds: number }> {
    if (!this.secret) throw unavailable('Service tokens are not configured (SERVICE_CLIENT_SECRET)');
    if (!SERVICE_NAME.test(serviceName)) throw badRequest('service_name must be a kebab-case service name');
    const given = Buffer.from(clientSecret);
    if (given.length !== this.secret.length || !timingSafeEqual(given, this.secret)) throw unauthorized();
    const accessToken = await this.tokens.sign(
      { sub: `service:${serviceName}`, role: 'service', capabilities: [] },
      SERVICE_TOKEN_TTL_SECONDS,
    );
    return { accessToken, expiresInSeconds: SERVICE_TOKEN_TTL_SECONDS };
  }
}

/** Chat tokens outlive access tokens: bots fetch one at start and keep it (as CometChat's auth tokens). */
export const CHAT_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

/**
 * The chat API's token for a caller: same subject, role and capabilities, plus
 * `use: "chat"`, so it opens the chat API only and no access-token path.
 */
export async function issueChatToken(tokens: TokenIssuer, caller: Caller): Promise<{ chatToken: string; expiresInSeconds: number }> {
  if (caller.role === 'service') throw forbidden('Services have no chat identity');
  const chatToken = await tokens.sign(
    { sub: caller.userUuid, role: caller.role, capabilities: caller.capabilities, use: 'chat' },
    CHAT_TOKEN_TTL_SECONDS,
  );
  return { chatToken, expiresInSeconds: CHAT_TOKEN_TTL_SECONDS };
}
