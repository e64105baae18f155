/**
 * The feed's own refusals' codes. A refusal answers `{error, code}`: `error`
 * the text (what ttfm-socket reads), `code` what clients decide by; the room
 * service's refusals bring their AppError's code.
 */
export const FEED_ERROR_CODES = {
  tooManyMessages: 'FEED_TOO_MANY_MESSAGES',
  malformedMessage: 'FEED_MALFORMED_MESSAGE',
  unsupportedEvent: 'FEED_UNSUPPORTED_EVENT',
  invalidAction: 'FEED_INVALID_ACTION',
  notJoined: 'FEED_NOT_JOINED',
} as const;
