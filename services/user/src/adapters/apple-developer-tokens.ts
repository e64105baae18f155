import type { KeyObject } from 'node:crypto';
import { unavailable } from '@spinroom/platform';
import { SignJWT } from 'jose';
import type { AppleDeveloperTokens } from '../domain/providers/ports.js';

/** Developer tokens may live up to six months; short ones, signed again well before they end. */
const DEVELOPER_TOKEN_TTL_SECONDS = 12 * 60 * 60;

/**
 * MusicKit developer tokens: ES256 JWTs with header kid = the key id, claims
 * iss = the team id, iat and exp (Apple's "Generating Developer Tokens").
 * One is kept until the last tenth of its life.
 */
export class AppleMusicDeveloperTokens implements AppleDeveloperTokens {
  private current?: { value: string; expiresAt: number };

  constructor(
    private readonly config: { teamId?: string; keyId?: string; privateKey?: KeyObject },
    private readonly now: () => number = Date.now,
  ) {}

  async token(): Promise<string> {
    const { teamId, keyId, privateKey } = this.config;
    if (!teamId || !keyId || !privateKey) throw unavailable('Apple Music is not configured');
    if (this.current && this.now() < this.current.expiresAt - (DEVELOPER_TOKEN_TTL_SECONDS * 1000) / 10) return this.current.value;
    const issuedAt = Math.floor(this.now() / 1000);
    const value = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: keyId })
      .setIssuer(teamId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + DEVELOPER_TOKEN_TTL_SECONDS)
      .sign(privateKey);
    this.current = { value, expiresAt: (issuedAt + DEVELOPER_TOKEN_TTL_SECONDS) * 1000 };
    return value;
  }
}
