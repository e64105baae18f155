import { describe, expect, it } from 'vitest';
import { checkPasswordPolicy, PasswordHasher } from '../src/domain/passwords.js';

describe('password policy', () => {
  it('takes 8 to 128 characters', () => {
    expect(() => checkPasswordPolicy('a'.repeat(7))).toThrow('Password must be between 8 and 128 characters');
    expect(() => checkPasswordPolicy('x7$kq9Lm')).not.toThrow();
    expect(() => checkPasswordPolicy('Zq8!'.repeat(32))).not.toThrow();
    expect(() => checkPasswordPolicy(`${'Zq8!'.repeat(32)}a`)).toThrow('Password must be between 8 and 128 characters');
  });

  it('refuses the most common passwords, whatever their case', () => {
    for (const common of ['password', 'Password1', '12345678', 'QWERTYUIOP', 'iloveyou']) {
      expect(() => checkPasswordPolicy(common)).toThrow('This password is too common, please choose another one');
    }
  });
});

describe('PasswordHasher', () => {
  it('hashes with argon2id, 19 MiB, 2 passes, 1 lane, and verifies', async () => {
    const hasher = new PasswordHasher();
    const hash = await hasher.hash('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hasher.verify(hash, 'correct horse battery')).toBe(true);
    expect(await hasher.verify(hash, 'wrong horse battery')).toBe(false);
    expect(await hasher.verify('not a hash', 'anything')).toBe(false);
    expect(await hasher.verifyDecoy('anything')).toBe(false);
  });

  it('runs at most `concurrency` hashes at once and refuses past its queue', async () => {
    const hasher = new PasswordHasher(1, 2);
    const calls = Array.from({ length: 4 }, () =>
      hasher.hash('correct horse battery').then(
        () => 'ok',
        (e) => e.status,
      ),
    );
    // One runs, two wait, the fourth is refused at once.
    expect(await Promise.all(calls)).toEqual(['ok', 'ok', 'ok', 503]);
  });
});
