/**
 * The error codes clients decide by (AppError.code), named once: the room
 * service raises the ROOM_ ones, the BFF's feed its FEED_ ones, the user
 * service its USER_ ones, and the web client type-checks the codes it reacts
 * to (and the ones its dictionaries translate) against this list (a type-only
 * import). A client tells "needs a password" from "kicked" by these, never by
 * the message text, and shows a coded refusal in the reader's language. The
 * chat API's CometChat codes are the chat service's own; the points service
 * raises the TOKEN_ ones.
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
  // A paid room (services/room/README.md, Paid rooms): the fee is more than the joiner's tokens; a guest past the free entries.
  roomEntryFeeShort: 'ROOM_ENTRY_FEE_SHORT',
  roomEntryFeeGuest: 'ROOM_ENTRY_FEE_GUEST',
  feedTooManyMessages: 'FEED_TOO_MANY_MESSAGES',
  feedMalformedMessage: 'FEED_MALFORMED_MESSAGE',
  feedUnsupportedEvent: 'FEED_UNSUPPORTED_EVENT',
  feedInvalidAction: 'FEED_INVALID_ACTION',
  feedNotJoined: 'FEED_NOT_JOINED',
  // The user service's refusals on the sign-in and settings screens (spec 002's messages).
  userBadCredentials: 'USER_BAD_CREDENTIALS',
  userEmailTaken: 'USER_EMAIL_TAKEN',
  userEmailCodeWrong: 'USER_EMAIL_CODE_WRONG',
  userEmailVerified: 'USER_EMAIL_VERIFIED',
  userEmailTooSoon: 'USER_EMAIL_TOO_SOON',
  userEmailNotVerified: 'USER_EMAIL_NOT_VERIFIED',
  userPasswordUnchanged: 'USER_PASSWORD_UNCHANGED',
  userPasswordTooCommon: 'USER_PASSWORD_TOO_COMMON',
  userPasswordResetRefused: 'USER_PASSWORD_RESET_REFUSED',
  userPhoneInvalid: 'USER_PHONE_INVALID',
  userPhoneCodeWrong: 'USER_PHONE_CODE_WRONG',
  userPhoneTaken: 'USER_PHONE_TAKEN',
  userProfileNotFound: 'USER_PROFILE_NOT_FOUND',
  userLinkInvalid: 'USER_LINK_INVALID',
  // The points service's token ledger (services/points/README.md, Tokens).
  tokenAccountMissing: 'TOKEN_ACCOUNT_MISSING',
  tokenAccountDisabled: 'TOKEN_ACCOUNT_DISABLED',
  tokenBalanceShort: 'TOKEN_BALANCE_SHORT',
  tokenBalanceStale: 'TOKEN_BALANCE_STALE',
  tokenHoldEnded: 'TOKEN_HOLD_ENDED',
  tokenIdempotencyKeyReused: 'TOKEN_IDEMPOTENCY_KEY_REUSED',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
