import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, jwtVerify, SignJWT } from 'jose';
import { unauthorized } from './errors.js';
import type { SessionRevocations } from './sessions.js';
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
  /** When the token was issued (milliseconds): a session ended later refuses it. */
  issuedAtMs?: number;
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

/** The `aud` claim by use: each verifier accepts its own audience only. */
export function tokenAudience(use: TokenUse | undefined): string {
  return use === 'chat' ? 'spinroom-chat' : 'spinroom-api';
}

/** A public key as the user service publishes it: its `kid` (RFC 7638 thumbprint) and SPKI PEM. */
export interface PublishedKey {
  kid: string;
  publicKeyPem: string;
}

/** The RFC 7638 thumbprint of a public key, which is its `kid`. */
export async function keyIdOf(publicKey: KeyObject): Promise<string> {
  return calculateJwkThumbprint(await exportJWK(publicKey));
}

/** Every PEM block of a text (several keys in one variable, one after the other). */
export function splitPemBlocks(text: string): string[] {
  return text.match(/-----BEGIN ([A-Z ]+)-----[\s\S]+?-----END \1-----/g) ?? [];
}

export function kindOfRole(role: Role): CallerKind {
  return role === 'guest' || role === 'bot' || role === 'service' ? role : 'user';
}

const ALG = 'RS256';

/**
 * Signs access tokens with the user service's current private key (RS256, with
 * a `kid`), and publishes that key with the previous ones still trusted, so a
 * rotation leaves the tokens signed before it valid until they expire.
 */
export class TokenIssuer {
  private constructor(
    private readonly privateKey: KeyObject,
    readonly publicKeyPem: string,
    readonly keyId: string,
    /** Every published key, the current one first. */
    readonly publishedKeys: PublishedKey[],
    private readonly issuer: string,
    private readonly ttlSeconds: number,
  ) {}

  /** `previousPublicKeysPem`: the public keys of earlier signing keys (PEM blocks one after the other). */
  static async fromPem(privateKeyPem: string, options: { issuer: string; ttlSeconds: number; previousPublicKeysPem?: string }) {
    const privateKey = createPrivateKey(privateKeyPem);
    if (privateKey.asymmetricKeyType !== 'rsa') throw new Error('JWT key must be an RSA private key');
    const publicKey = createPublicKey(privateKey);
    const keyId = await keyIdOf(publicKey);
    const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const published: PublishedKey[] = [{ kid: keyId, publicKeyPem }];
    for (const pem of splitPemBlocks(options.previousPublicKeysPem ?? '')) {
      const previous = createPublicKey(pem);
      if (previous.asymmetricKeyType !== 'rsa') throw new Error('JWT previous keys must be RSA public keys');
      const kid = await keyIdOf(previous);
      if (!published.some((key) => key.kid === kid)) {
        published.push({ kid, publicKeyPem: previous.export({ type: 'spki', format: 'pem' }).toString() });
      }
    }
    return new TokenIssuer(privateKey, publicKeyPem, keyId, published, options.issuer, options.ttlSeconds);
  }

  /**
   * `iat` keeps milliseconds (a NumericDate may be fractional, RFC 7519 §2), so
   * a session ended in the same second as a sign-in tells the two apart.
   */
  sign(claims: AccessClaims, ttlSeconds = this.ttlSeconds): Promise<string> {
    const { sub, ...rest } = claims;
    const issuedAt = Date.now() / 1000;
    return new SignJWT({ ...rest, subscriptionId: claims.subscriptionId ?? null })
      .setProtectedHeader({ alg: ALG, kid: this.keyId, typ: 'JWT' })
      .setSubject(sub)
      .setIssuer(this.issuer)
      .setAudience(tokenAudience(claims.use))
      .setJti(randomUUID())
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ttlSeconds)
      .sign(this.privateKey);
  }
}

export interface TokenVerifierOptions {
  issuer: string;
  /** Unset: access tokens only (no `use` claim); set: only tokens with that `use`. */
  use?: TokenUse;
  /** Refuses tokens of ended sessions (every verifier in a running platform has it). */
  sessions?: SessionRevocations;
  /** Asked once when a token names a `kid` not held yet (a key published since the last load). */
  onUnknownKey?: () => Promise<void>;
}

/**
 * Verifies tokens with the published public keys alone, by `kid`. Only RS256
 * is accepted, so `alg: none` and HMAC tokens made with a public key as secret
 * are refused; `iss`, `aud` and the use are checked, then (with `sessions`)
 * that the user's sessions did not end after the token was issued.
 */
export class TokenVerifier {
  // Every request carries its token through the BFF and a service: each
  // checks it, and an RS256 check costs more than the rest of a read. A token
  // that verified once is remembered until it expires (bounded, oldest out);
  // its session is still checked on every use.
  private readonly verified = new Map<string, { caller: Caller; expiresAtMs: number }>();
  private keys = new Map<string, KeyObject>();
  private currentKeyId = '';

  private constructor(
    private readonly options: TokenVerifierOptions,
    private readonly cacheSize = 10_000,
  ) {}

  static async fromPem(publicKeyPem: string, options: TokenVerifierOptions) {
    return TokenVerifier.fromKeys([publicKeyPem], options);
  }

  /** The published keys' PEMs, the current one first (a token without `kid` is checked with it). */
  static async fromKeys(publicKeyPems: string[], options: TokenVerifierOptions) {
    const verifier = new TokenVerifier(options);
    await verifier.useKeys(publicKeyPems);
    return verifier;
  }

  /** Replaces the trusted keys (a reload of the published ones). */
  async useKeys(publicKeyPems: string[]): Promise<void> {
    if (publicKeyPems.length === 0) throw new Error('no public key to verify tokens with');
    const keys = new Map<string, KeyObject>();
    for (const pem of publicKeyPems) {
      const key = createPublicKey(pem);
      keys.set(await keyIdOf(key), key);
    }
    this.keys = keys;
    this.currentKeyId = keys.keys().next().value!;
  }

  /** The caller a bearer token proves, or a 401. */
  async verify(token: string): Promise<Caller> {
    const known = this.verified.get(token);
    let caller: Caller;
    if (known && known.expiresAtMs > Date.now()) caller = known.caller;
    else {
      if (known) this.verified.delete(token);
      caller = await this.verifySignature(token);
    }
    const sessions = this.options.sessions;
    // Service tokens are no user's session; they live minutes.
    if (sessions && caller.kind !== 'service' && !(await sessions.isCurrent(caller.userUuid, caller.issuedAtMs ?? 0))) {
      throw unauthorized();
    }
    return caller;
  }

  /**
   * The caller a token proves when that is known at once: the token verified
   * before and not expired, and (with `sessions`) its user's session checked
   * within the cache's time. Undefined otherwise, a refusal included: `verify`
   * then decides. For callers that check many tokens in one go (a batch of
   * records, each with its own token) without a promise each.
   */
  verifiedNow(token: string): Caller | undefined {
    const known = this.verified.get(token);
    if (!known || known.expiresAtMs <= Date.now()) return undefined;
    const { caller } = known;
    const sessions = this.options.sessions;
    if (!sessions || caller.kind === 'service') return caller;
    const validAfterMs = sessions.knownValidAfterMs(caller.userUuid);
    return validAfterMs !== undefined && (caller.issuedAtMs ?? 0) >= validAfterMs ? caller : undefined;
  }

  private async keyFor(kid: string | undefined): Promise<KeyObject> {
    if (kid === undefined) return this.keys.get(this.currentKeyId)!;
    if (!this.keys.has(kid)) await this.options.onUnknownKey?.();
    const key = this.keys.get(kid);
    if (!key) throw new Error('unknown kid');
    return key;
  }

  private async verifySignature(token: string): Promise<Caller> {
    try {
      const { payload } = await jwtVerify(token, async (header) => this.keyFor(header.kid), {
        algorithms: [ALG],
        issuer: this.options.issuer,
        audience: tokenAudience(this.options.use),
        requiredClaims: ['sub', 'exp', 'role', 'iat'],
      });
      if ((payload.use ?? undefined) !== this.options.use) throw new Error('token made for another use');
      const role = payload.role as Role;
      if (!ROLES.includes(role)) throw new Error('unknown role');
      const capabilities = Array.isArray(payload.capabilities) ? payload.capabilities.map(String) : [];
      const caller: Caller = {
        userUuid: payload.sub!,
        role,
        kind: kindOfRole(role),
        capabilities,
        token,
        issuedAtMs: Math.round(payload.iat! * 1000),
      };
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
