import { createHash } from 'node:crypto';
import { AppError, badRequest, ERROR_CODES } from '@spinroom/platform';

/**
 * Idempotency keys, as Stripe's: every write names one; the same key with the
 * same request answers the first answer again and changes nothing, the same
 * key with another request is refused. Keys are per caller (their scope: the
 * caller's user uuid, or `service:<name>`), so one caller's key never meets
 * another's. A request refused for a short balance keeps that refusal as its
 * key's answer (as Stripe keeps a declined charge's); any other refused request
 * keeps no key (nothing happened), so it may be sent again once the refusal no
 * longer holds.
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

/** A refusal kept as its key's answer, as stored. */
export interface StoredRefusal {
  refused: { status: number; message: string; code?: string };
}

/**
 * The refusal a key keeps, if it keeps one: a short balance (402). Kept because
 * the balance may grow before a copy of the request arrives that its caller
 * gave up on (a lost answer): without it that late copy would spend what its
 * caller was told was refused. Other refusals (an account not there yet, a
 * hold already ended) keep no key.
 */
export function keptRefusal(error: unknown): StoredRefusal | undefined {
  if (!(error instanceof AppError) || error.status !== 402) return undefined;
  return { refused: { status: error.status, message: error.message, ...(error.code ? { code: error.code } : {}) } };
}

/** A stored answer that is a kept refusal, as the error to answer again. */
export function storedRefusal(response: Record<string, unknown>): AppError | undefined {
  const { refused } = response as Partial<StoredRefusal>;
  if (!refused) return undefined;
  return new AppError(refused.status, refused.message, refused.code ? { code: refused.code } : {});
}
