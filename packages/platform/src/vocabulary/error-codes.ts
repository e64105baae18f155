/**
 * The error codes clients decide by (AppError.code), named once: the room
 * service raises the ROOM_ ones, the BFF's feed its FEED_ ones, and the web
 * client type-checks the codes it reacts to against this list (a type-only
 * import). A client tells "needs a password" from "kicked" by these, never by
 * the message text. The chat API's CometChat codes are the chat service's own.
 */
export const ERROR_CODES = {
  roomBanned: 'ROOM_BANNED',
  roomKicked: 'ROOM_KICKED',
  roomPasswordRequired: 'ROOM_PASSWORD_REQUIRED',
  roomPrivate: 'ROOM_PRIVATE',
  roomPasswordWrong: 'ROOM_PASSWORD_WRONG',
  roomPasswordLimited: 'ROOM_PASSWORD_LIMITED',
  roomNotFound: 'ROOM_NOT_FOUND',
  roomFull: 'ROOM_FULL',
  feedTooManyMessages: 'FEED_TOO_MANY_MESSAGES',
  feedMalformedMessage: 'FEED_MALFORMED_MESSAGE',
  feedUnsupportedEvent: 'FEED_UNSUPPORTED_EVENT',
  feedInvalidAction: 'FEED_INVALID_ACTION',
  feedNotJoined: 'FEED_NOT_JOINED',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
