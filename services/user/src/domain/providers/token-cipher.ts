import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** One AES-256 key and the id stored with everything it encrypts. */
export interface TokenKey {
  id: string;
  key: Buffer;
}

export class UnknownTokenKeyError extends Error {}

/**
 * Provider tokens at rest: AES-256-GCM, a fresh 96-bit nonce per value, and
 * `context` (whose token, which field) as associated data, so a ciphertext
 * copied onto another row does not decrypt. The stored form is
 * `v1.<key id>.<nonce>.<tag>.<ciphertext>` (base64url): the first key encrypts,
 * every key decrypts, which is what lets a key be rotated.
 */
export class TokenCipher {
  private readonly byId: Map<string, Buffer>;

  constructor(private readonly keys: readonly TokenKey[]) {
    if (keys.length === 0) throw new Error('TokenCipher needs at least one key');
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  /** The id of the key new values are encrypted with. */
  get currentKeyId(): string {
    return this.keys[0]!.id;
  }

  encrypt(plaintext: string, context: string): string {
    const { id, key } = this.keys[0]!;
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(Buffer.from(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', id, nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  /** Throws UnknownTokenKeyError for a key no longer configured, and on any tampering. */
  decrypt(stored: string, context: string): string {
    const [version, id = '', nonce = '', tag = '', ciphertext = ''] = stored.split('.');
    const key = this.byId.get(id);
    if (version !== 'v1' || !key) throw new UnknownTokenKeyError(`No key "${id}" to decrypt a provider token`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** The key id a stored value was encrypted with. */
  static keyIdOf(stored: string): string {
    return stored.split('.')[1] ?? '';
  }
}
