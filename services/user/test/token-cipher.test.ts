import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TokenCipher, UnknownTokenKeyError } from '../src/domain/providers/token-cipher.js';
import { providersConfig } from '../src/providers-config.js';

const key = (id: string) => ({ id, key: randomBytes(32) });
const CONTEXT = '6f1c1d0e-0000-4000-8000-000000000001/spotify/web/refresh';

describe('provider tokens at rest (AES-256-GCM, rotatable keys)', () => {
  it('encrypts with a fresh nonce each time, and names the key', () => {
    const cipher = new TokenCipher([key('k1')]);
    const one = cipher.encrypt('refresh-token-value', CONTEXT);
    const two = cipher.encrypt('refresh-token-value', CONTEXT);
    expect(one).not.toBe(two);
    expect(one).not.toContain('refresh-token-value');
    expect(TokenCipher.keyIdOf(one)).toBe('k1');
    expect(cipher.decrypt(one, CONTEXT)).toBe('refresh-token-value');
  });

  it('rotates: a new first key encrypts, the old key still decrypts, and dropping it leaves old values unreadable', () => {
    const old = key('2025');
    const fresh = key('2026');
    const before = new TokenCipher([old]).encrypt('token-sealed-under-2025', CONTEXT);

    const rotated = new TokenCipher([fresh, old]);
    expect(rotated.currentKeyId).toBe('2026');
    expect(rotated.decrypt(before, CONTEXT)).toBe('token-sealed-under-2025');
    const after = rotated.encrypt('token-sealed-under-2026', CONTEXT);
    expect(TokenCipher.keyIdOf(after)).toBe('2026');

    const retired = new TokenCipher([fresh]);
    expect(retired.decrypt(after, CONTEXT)).toBe('token-sealed-under-2026');
    expect(() => retired.decrypt(before, CONTEXT)).toThrow(UnknownTokenKeyError);
  });

  it('refuses a value moved to another row or field, or altered', () => {
    const cipher = new TokenCipher([key('k1')]);
    const sealed = cipher.encrypt('secret', CONTEXT);
    expect(() => cipher.decrypt(sealed, CONTEXT.replace('refresh', 'access'))).toThrow();
    const [v, id, nonce, tag, body] = sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => cipher.decrypt([v, id, nonce, tag, flipped.toString('base64url')].join('.'), CONTEXT)).toThrow();
    // Same id, another key: the tag does not match.
    expect(() => new TokenCipher([key('k1')]).decrypt(sealed, CONTEXT)).toThrow();
  });

  it('reads PROVIDER_TOKEN_KEYS as kid:base64 entries, first one current', () => {
    const a = randomBytes(32).toString('base64');
    const b = randomBytes(32).toString('base64');
    const parsed = providersConfig.PROVIDER_TOKEN_KEYS.parse(`new:${b}, old:${a}`);
    expect(parsed?.map((k) => k.id)).toEqual(['new', 'old']);
    expect(parsed?.[1]?.key.toString('base64')).toBe(a);
    expect(providersConfig.PROVIDER_TOKEN_KEYS.parse('')).toBeUndefined();
    for (const wrong of [`k:${randomBytes(16).toString('base64')}`, `k:${a},k:${b}`, `bad id!:${a}`]) {
      expect(providersConfig.PROVIDER_TOKEN_KEYS.safeParse(wrong).success).toBe(false);
    }
  });
});
