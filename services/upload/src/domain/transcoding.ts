import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError, badRequest, isUuid } from '@spinroom/platform';

export interface RetryPolicy {
  maxAttempts: number;
  /** Wait before the first retry; doubled for each further attempt. */
  baseDelayMs: number;
}

/** After a failed attempt: try again later (and when), or give up. */
export function afterFailure(attempt: number, policy: RetryPolicy): { retry: true; delayMs: number } | { retry: false } {
  if (attempt >= policy.maxAttempts) return { retry: false };
  return { retry: true, delayMs: policy.baseDelayMs * 2 ** Math.max(0, attempt - 1) };
}

/** The outcome an external transcoder reports through `POST /upload/transcoder_sns`. */
export interface TranscoderNotification {
  songId: string;
  status: 'COMPLETE' | 'ERROR';
  error?: string;
}

export const SIGNATURE_INVALID = 'Invalid transcoder notification signature';
export const NOTIFICATION_MALFORMED = 'Malformed transcoder notification';
/** How far a notification's timestamp may be from now (replays of old notices are refused). */
export const NOTIFICATION_MAX_SKEW_SECONDS = 300;

/** `sha256=<hex>`: the HMAC-SHA256 of `<timestamp>.<body>` with the shared secret. */
export function signNotification(secret: string, timestamp: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
}

/**
 * Authenticates and reads a transcoder notification: 401 for a wrong
 * signature or a stale timestamp, 400 for a body that says nothing we know.
 * Takes the bare JSON or an SNS envelope whose `Message` holds it.
 */
export function readNotification(
  secret: string,
  input: { body: Buffer; timestamp: string; signature: string },
  now = new Date(),
): TranscoderNotification {
  const expected = Buffer.from(signNotification(secret, input.timestamp, input.body));
  const given = Buffer.from(input.signature);
  const fresh =
    /^\d{1,12}$/.test(input.timestamp) && Math.abs(now.getTime() / 1000 - Number(input.timestamp)) <= NOTIFICATION_MAX_SKEW_SECONDS;
  if (!fresh || given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError(401, SIGNATURE_INVALID);

  let parsed: unknown;
  try {
    parsed = JSON.parse(input.body.toString('utf8'));
    const envelope = parsed as { Type?: unknown; Message?: unknown };
    if (envelope.Type === 'Notification' && typeof envelope.Message === 'string') parsed = JSON.parse(envelope.Message);
  } catch {
    throw badRequest(NOTIFICATION_MALFORMED);
  }
  const notice = parsed as Partial<TranscoderNotification> | null;
  if (
    !notice ||
    typeof notice.songId !== 'string' ||
    !isUuid(notice.songId) ||
    (notice.status !== 'COMPLETE' && notice.status !== 'ERROR') ||
    (notice.error !== undefined && typeof notice.error !== 'string')
  ) {
    throw badRequest(NOTIFICATION_MALFORMED);
  }
  return { songId: notice.songId, status: notice.status, ...(notice.error ? { error: notice.error.slice(0, 500) } : {}) };
}
