import { timingSafeEqual } from 'node:crypto';
import { badRequest, unauthorized, unavailable, type TokenIssuer } from '@spinroom/platform';

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
    const accessToken = await this.tokens.sign({ sub: `service:${serviceName}`, role: 'service', capabilities: [] }, SERVICE_TOKEN_TTL_SECONDS);
    return { accessToken, expiresInSeconds: SERVICE_TOKEN_TTL_SECONDS };
  }
}
