import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, jwtVerify, SignJWT } from 'jose';
import { unauthorized } from './errors.js';
import { ROLES, type Role } from './vocabulary/roles.js';
export type CallerKind = 'user' | 'guest' | 'bot' | 'service';

/** Who is calling, as proven by a verified access token. */
export interface Caller {
  userUuid: string;
  role: Role;
  kind: CallerKind;
  capabilities: string[];
  /** The raw token, so it can be passed on to other services unchanged. */
  token: string;
}

export interface AccessClaims {
  sub: string;
  role: Role;
  capabilities: string[];
  subscriptionId?: string | null;
  /**
   * What else than access the token is for (claim `use`): `chat` marks the
   * chat API's token. Access tokens have none, and each verifier accepts only
   * the one use it was made for, so neither passes for the other.
   */
  use?: TokenUse;
}

/** The `use` claim of a token that is not an access token. */
export type TokenUse = 'chat';

export function kindOfRole(role: Role): CallerKind {
  return role === 'guest' || role === 'bot' || role === 'service' ? role : 'user';
}

const ALG = 'RS256';

/** Signs access tokens with the user service's private key (RS256, with a `kid`). */
export class TokenIssuer {
  private constructor(
    private readonly privateKey: KeyObject,
    readonly publicKeyPem: string,
    readonly keyId: string,
    private readonly issuer: string,
    private readonly ttlSeconds: number,
  ) {}

  static async fromPem(privateKeyPem: string, options: { issuer: string; ttlSeconds: number }) {
    const privateKey = createPrivateKey(privateKeyPem);
    if (privateKey.asymmetricKeyType !== 'rsa') throw new Error('JWT key must be an RSA private key');
    const publicKey = createPublicKey(privateKey);
    const keyId = await calculateJwkThumbprint(await exportJWK(publicKey));
    const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    return new TokenIssuer(privateKey, publicKeyPem, keyId, options.issuer, options.ttlSeconds);
  }

  sign(claims: AccessClaims, ttlSeconds = this.ttlSeconds): Promise<string> {
    const { sub, ...rest } = claims;
    return new SignJWT({ ...rest, subscriptionId: claims.subscriptionId ?? null })
      .setProtectedHeader({ alg: ALG, kid: this.keyId, typ: 'JWT' })
      .setSubject(sub)
      .setIssuer(this.issuer)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(this.privateKey);
  }
}

/**
 * Verifies access tokens with the public key alone. Only RS256 is accepted, so
 * `alg: none` and HMAC tokens made with the public key as secret are refused.
 */
export class TokenVerifier {
  // Every request carries its token through the BFF and a service: each
  // checks it, and an RS256 check costs more than the rest of a read. A token
  // that verified once is remembered until it expires (bounded, oldest out).
  private readonly verified = new Map<string, { caller: Caller; expiresAtMs: number }>();

  private constructor(
    private readonly publicKey: KeyObject,
    private readonly keyId: string,
    private readonly issuer: string,
    private readonly use: TokenUse | undefined,
    private readonly cacheSize = 10_000,
  ) {}

  /** `use` unset: access tokens only (no `use` claim); set: only tokens with that `use`. */
  static async fromPem(publicKeyPem: string, options: { issuer: string; use?: TokenUse }) {
    const publicKey = createPublicKey(publicKeyPem);
    const keyId = await calculateJwkThumbprint(await exportJWK(publicKey));
    return new TokenVerifier(publicKey, keyId, options.issuer, options.use);
  }

  /** The caller a bearer token proves, or a 401. */
  async verify(token: string): Promise<Caller> {
    const known = this.verified.get(token);
    if (known && known.expiresAtMs > Date.now()) return known.caller;
    if (known) this.verified.delete(token);
    return this.verifySignature(token);
  }

  private async verifySignature(token: string): Promise<Caller> {
    try {
      const { payload, protectedHeader } = await jwtVerify(token, this.publicKey, {
        algorithms: [ALG],
        issuer: this.issuer,
        requiredClaims: ['sub', 'exp', 'role'],
      });
      if (protectedHeader.kid !== undefined && protectedHeader.kid !== this.keyId) throw new Error('unknown kid');
      if ((payload.use ?? undefined) !== this.use) throw new Error('token made for another use');
      const role = payload.role as Role;
      if (!ROLES.includes(role)) throw new Error('unknown role');
      const capabilities = Array.isArray(payload.capabilities) ? payload.capabilities.map(String) : [];
      const caller: Caller = { userUuid: payload.sub!, role, kind: kindOfRole(role), capabilities, token };
      if (this.verified.size >= this.cacheSize) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { caller, expiresAtMs: payload.exp! * 1000 });
      return caller;
    } catch {
      throw unauthorized();
    }
  }

  /** Reads `Bearer <jwt>` from an Authorization header value. */
  async verifyHeader(header: string | undefined): Promise<Caller> {
    const match = header?.match(/^Bearer\s+(\S+)$/i);
    if (!match) throw unauthorized();
    return this.verify(match[1]!);
  }
}

/** A fresh RSA key for signing tokens (3072 bits), as PKCS#8 PEM. */
export function generateSigningKeyPem(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 3072 });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}
