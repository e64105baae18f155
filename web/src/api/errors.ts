// Errors as spec 002 §8 shows them to people: below 500 the server's message
// (or the first of a list), capitalised; from 500 a fixed sentence. Shown in
// the reader's language: a coded refusal by the dictionary's text for its
// code (the server's message when the dictionary has none), the fixed
// sentence and the client's own failures by theirs.
import type { ErrorCode } from '@spinroom/platform/vocabulary';
import type { Strings } from '../i18n/en';
import { currentLocale, stringsFor, type Locale } from '../i18n/i18n';
export const GENERIC_ERROR = 'Something went wrong, please try again';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly userMessage: string,
    readonly code?: string,
  ) {
    super(userMessage);
  }
}

/** The client's own failures (no server answer), each a dictionary entry. */
export type LocalFailure = 'genericError' | 'feedUnreachable' | 'feedNotConnected' | 'feedLost' | 'signInFirst';

/**
 * A refusal on the room feed: the answer's `error` text and its `code`, when
 * it has one; or the client's own failure (`local`), shown from the dictionary.
 */
export class FeedError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    readonly local?: LocalFailure,
  ) {
    super(message);
    this.name = 'FeedError';
  }

  /** The client's own failure, its English text as the message (for logs), shown in the reader's language. */
  static local(failure: LocalFailure): FeedError {
    return new FeedError(stringsFor('en')[failure], undefined, failure);
  }
}

/**
 * The error codes the client decides by (the services' AppError codes, listed
 * once in packages/platform/src/vocabulary/error-codes.ts and checked against
 * it here): never by the message text, which is for people and may change.
 */
export const ERROR_CODES = {
  roomBanned: 'ROOM_BANNED',
  roomKicked: 'ROOM_KICKED',
  roomPasswordRequired: 'ROOM_PASSWORD_REQUIRED',
  roomPasswordWrong: 'ROOM_PASSWORD_WRONG',
  /** A paid room's joinRoom: the balance is short of the fee; a guest past the free entries; no token account. */
  roomEntryFeeShort: 'ROOM_ENTRY_FEE_SHORT',
  roomEntryFeeGuest: 'ROOM_ENTRY_FEE_GUEST',
  tokenAccountMissing: 'TOKEN_ACCOUNT_MISSING',
  /** The feed's per-connection message budget (bff/src/feed): a moment later it passes. */
  feedTooManyMessages: 'FEED_TOO_MANY_MESSAGES',
} as const satisfies Record<string, ErrorCode>;

/** Refusals that keep a person out of a room for now (the kicked screen). */
export const KEPT_OUT_CODES: ReadonlySet<string> = new Set([ERROR_CODES.roomBanned, ERROR_CODES.roomKicked]);
/** Refusals a (right) room password lifts. */
export const PASSWORD_CODES: ReadonlySet<string> = new Set([ERROR_CODES.roomPasswordRequired, ERROR_CODES.roomPasswordWrong]);

/** An error answer's code: REST's `{code}` or CometChat's `{error: {code}}`. */
export function codeOf(body: unknown): string | undefined {
  const b = body as { code?: unknown; error?: { code?: unknown } } | undefined;
  const code = b?.code ?? (typeof b?.error === 'object' ? b.error?.code : undefined);
  return typeof code === 'string' && code ? code : undefined;
}

/** The code of anything thrown (undefined for network failures and uncoded refusals). */
export function errorCode(error: unknown): string | undefined {
  return error instanceof ApiError || error instanceof FeedError ? error.code : undefined;
}

const capitalise = (text: string) => (text ? text[0]!.toUpperCase() + text.slice(1) : text);

/** What a person reads for an answer with this status and body (REST or CometChat shape). */
export function userMessageFor(status: number, body: unknown): string {
  if (status >= 500 || status === 0) return GENERIC_ERROR;
  const b = body as { message?: unknown; error?: { message?: unknown } } | undefined;
  let message: unknown = b?.message ?? b?.error?.message;
  if (Array.isArray(message)) message = message[0];
  if (typeof message !== 'string' || !message.trim()) return GENERIC_ERROR;
  return capitalise(message.trim());
}

/** The dictionary's text for a server's code, when it has one. */
export function codeText(code: string | undefined, t: Strings): string | undefined {
  return code ? (t.errorCodes as Partial<Record<string, string>>)[code] : undefined;
}

/** The message for anything thrown (network failures count as 500s), in the locale (the chosen one by default). */
export function errorText(error: unknown, locale: Locale = currentLocale()): string {
  const t = stringsFor(locale);
  if (error instanceof ApiError) {
    if (error.status >= 500 || error.status === 0 || error.userMessage === GENERIC_ERROR) return t.genericError;
    return codeText(error.code, t) ?? error.userMessage;
  }
  if (error instanceof FeedError) {
    if (error.local) return t[error.local];
    return codeText(error.code, t) ?? capitalise(error.message);
  }
  if (typeof error === 'string' && error) return capitalise(error);
  return t.genericError;
}
