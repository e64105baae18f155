import { createHash } from 'node:crypto';
import { AppError, badRequest, ERROR_CODES } from '@spinroom/platform';

/**
 * Idempotency keys, as Stripe's: every write names one; the same key with the
 * same request answers the first answer again and changes nothing, the same
 * key with another request is refused. Keys are per caller (their scope: the
 * caller's user uuid, or `service:<name>`), so one caller's key never meets
 * another's. A request that is refused keeps no key (nothing happened).
 */
export interface IdempotencyClaim {
  scope: string;
  key: string;
  /** sha256 of the operation and its request as sent. */
  fingerprint: string;
}

const KEY = /^[\x21-\x7e]{1,255}$/;

export function checkIdempotencyKey(key: string): void {
  if (!KEY.test(key)) {
    throw badRequest('idempotencyKey is required: 1 to 255 visible ASCII characters (a UUID, say), new for each new request');
  }
}

/** The claim a caller's write makes on its key: the operation and its fields, in a fixed order. */
export function claimKey(scope: string, key: string, operation: string, request: Record<string, string | number | null>): IdempotencyClaim {
  checkIdempotencyKey(key);
  const fields = Object.keys(request)
    .sort()
    .map((name) => [name, request[name] ?? null]);
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([operation, fields]))
    .digest('hex');
  return { scope, key, fingerprint };
}

export function keyReused(): AppError {
  return new AppError(409, 'This idempotency key was already used for a different request: use a new key for a new request', {
    code: ERROR_CODES.tokenIdempotencyKeyReused,
  });
}
