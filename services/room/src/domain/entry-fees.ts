import { AppError, ERROR_CODES, forbidden, isGlobalRole, notFound, type CallerKind } from '@spinroom/platform';

/**
 * Paid rooms (issue 16): a room with an `entryFee` above 0 lets each user in
 * `freeEntries` times for free; past those, entering holds the fee from the
 * joiner's token account, commits it when the join succeeds (voids it when
 * it fails) and credits it to the owner's account. A user pays once per
 * room: after that they enter free. The room's owner, coOwners, moderators
 * and global roles never pay; guests (who have no token account) cannot enter
 * past the free entries. These are the rules, as plain functions; the I/O is
 * live-rooms/entry-fees.ts.
 */

/** Spec 002's message when the joiner has no token account. */
export const TOKEN_ACCOUNT_MISSING = 'We were unable to find your token account. Please try again.';
export const GUESTS_CANNOT_PAY = 'Guests cannot enter a paid room: sign up to enter it';
export const entryFeeShortMessage = (fee: number) => `Not enough tokens to enter this room: ${fee} needed`;

export const entryFeeShort = (fee: number) => new AppError(402, entryFeeShortMessage(fee), { code: ERROR_CODES.roomEntryFeeShort });
export const guestCannotPay = () => forbidden(GUESTS_CANNOT_PAY, ERROR_CODES.roomEntryFeeGuest);
export const tokenAccountMissing = () => notFound(TOKEN_ACCOUNT_MISSING, ERROR_CODES.tokenAccountMissing);

/** What a room asks at its door. */
export interface RoomFee {
  entryFee: number;
  freeEntries: number;
  /** Who the fee goes to; null for a room without an owner (nobody to pay: entering is free). */
  ownerUuid: string | null;
}

/** Who enters, as the fee sees them. */
export interface Entrant {
  userUuid: string;
  kind: CallerKind;
  tokenRole: string;
  /** Their highest room role (owner, coOwner, moderator, dj) or undefined. */
  highestRole: string | undefined;
  /** Already in the live room (another tab, a reconnect): not a new entry. */
  present: boolean;
}

/** What is known of this user's entries to this room. */
export interface EntryRecord {
  /** Entries counted so far (free or paid). */
  entries: number;
  /** They paid the fee once. */
  paid: boolean;
}

export type EntryDecision =
  /** No fee applies at all: nothing is counted or recorded. */
  | { kind: 'exempt'; reason: 'noFee' | 'role' | 'noOwner' | 'present' }
  /** Counted, and free: within the free entries, or paid before. */
  | { kind: 'free'; reason: 'freeEntry' | 'paid' }
  /** Counted, and the fee is charged. */
  | { kind: 'charge'; amount: number; ownerUuid: string };

const FEE_FREE_ROLES = new Set(['owner', 'coOwner', 'moderator']);

/** Whether the fee can apply to this entrant at all (before their record is read). */
export function feeApplies(room: RoomFee, who: Entrant): EntryDecision | null {
  if (room.entryFee <= 0) return { kind: 'exempt', reason: 'noFee' };
  if (room.ownerUuid === null) return { kind: 'exempt', reason: 'noOwner' };
  if (room.ownerUuid === who.userUuid || FEE_FREE_ROLES.has(who.highestRole ?? '') || isGlobalRole(who.tokenRole)) {
    return { kind: 'exempt', reason: 'role' };
  }
  if (who.present) return { kind: 'exempt', reason: 'present' };
  return null;
}

/**
 * The entry itself, given the user's record (read under its lock): the first
 * `freeEntries` entries are free, so is every entry after the fee was paid;
 * otherwise the fee is charged, and a guest is refused.
 */
export function decideEntry(room: RoomFee, who: Entrant, record: EntryRecord): EntryDecision {
  const before = feeApplies(room, who);
  if (before) return before;
  if (record.paid) return { kind: 'free', reason: 'paid' };
  if (record.entries < room.freeEntries) return { kind: 'free', reason: 'freeEntry' };
  if (who.kind === 'guest' || who.tokenRole === 'guest') throw guestCannotPay();
  return { kind: 'charge', amount: room.entryFee, ownerUuid: room.ownerUuid! };
}

/**
 * The idempotency keys of one charge: derived from the room, the user and the
 * attempt (which grows only when a charge ended without payment), so a join
 * retried after a crash replays the same hold, commit and credit instead of
 * charging again.
 */
export function entryKeys(roomUuid: string, userUuid: string, attempt: number) {
  const base = `room-entry:${roomUuid}:${userUuid}:${attempt}`;
  return {
    hold: `${base}:hold`,
    commit: `${base}:commit`,
    void: `${base}:void`,
    credit: `${base}:credit`,
    reference: `room-entry:${roomUuid}:${userUuid}`,
  };
}

/** The points service's refusal of the hold, as the joiner should read it. */
export function holdRefusal(error: unknown, fee: number): unknown {
  if (!(error instanceof AppError)) return error;
  if (error.status === 402 || error.code === ERROR_CODES.tokenBalanceShort) return entryFeeShort(fee);
  if (error.status === 404) return tokenAccountMissing();
  return error;
}
