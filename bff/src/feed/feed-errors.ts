import { ERROR_CODES } from '@spinroom/platform/vocabulary';

/**
 * The feed's own refusals' codes. A refusal answers `{error, code}`: `error`
 * the text (what ttfm-socket reads), `code` what clients decide by; the room
 * service's refusals bring their AppError's code.
 */
export const FEED_ERROR_CODES = {
  tooManyMessages: ERROR_CODES.feedTooManyMessages,
  malformedMessage: ERROR_CODES.feedMalformedMessage,
  unsupportedEvent: ERROR_CODES.feedUnsupportedEvent,
  invalidAction: ERROR_CODES.feedInvalidAction,
  notJoined: ERROR_CODES.feedNotJoined,
} as const;
