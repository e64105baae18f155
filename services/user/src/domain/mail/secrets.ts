import { createHash, randomBytes, randomInt } from 'node:crypto';

/** A link's secret: 32 random bytes, URL-safe. Only its hash is stored. */
export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A six-digit verification code. Only its hash is stored. */
export function newVerificationCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** What the database keeps of a code or token: a leaked table gives no working link. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
