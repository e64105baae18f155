import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A 10-character base-62 id for public URLs (songs, artists, albums). */
export function shortId(): string {
  return [...randomBytes(10)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
}
