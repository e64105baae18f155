import { AppError } from '@spinroom/platform';
import { describe, expect, it } from 'vitest';
import {
  decideEntry,
  entryKeys,
  feeApplies,
  GUESTS_CANNOT_PAY,
  holdRefusal,
  TOKEN_ACCOUNT_MISSING,
  type Entrant,
  type RoomFee,
} from '../src/domain/entry-fees.js';

const OWNER = '00000000-0000-4000-8000-000000000001';
const USER = '00000000-0000-4000-8000-000000000002';
const paidRoom: RoomFee = { entryFee: 30, freeEntries: 2, ownerUuid: OWNER };
const someone = (extra: Partial<Entrant> = {}): Entrant => ({
  userUuid: USER,
  kind: 'user',
  tokenRole: 'user',
  highestRole: undefined,
  present: false,
  ...extra,
});

describe('paid rooms: who pays to enter', () => {
  it('charges nothing in a room without a fee, and counts nothing there', () => {
    expect(feeApplies({ ...paidRoom, entryFee: 0 }, someone())).toEqual({ kind: 'exempt', reason: 'noFee' });
    expect(decideEntry({ ...paidRoom, entryFee: 0 }, someone({ kind: 'guest' }), { entries: 99, paid: false })).toEqual({
      kind: 'exempt',
      reason: 'noFee',
    });
  });

  it('lets the first freeEntries entries in free, then charges the fee to the owner', () => {
    expect(decideEntry(paidRoom, someone(), { entries: 0, paid: false })).toEqual({ kind: 'free', reason: 'freeEntry' });
    expect(decideEntry(paidRoom, someone(), { entries: 1, paid: false })).toEqual({ kind: 'free', reason: 'freeEntry' });
    expect(decideEntry(paidRoom, someone(), { entries: 2, paid: false })).toEqual({ kind: 'charge', amount: 30, ownerUuid: OWNER });
    expect(decideEntry({ ...paidRoom, freeEntries: 0 }, someone(), { entries: 0, paid: false }).kind).toBe('charge');
  });

  it('charges once per user per room: after paying they enter free', () => {
    expect(decideEntry(paidRoom, someone(), { entries: 7, paid: true })).toEqual({ kind: 'free', reason: 'paid' });
  });

  it('never charges the owner, coOwners, moderators or global roles, nor someone already in the room', () => {
    expect(feeApplies(paidRoom, someone({ userUuid: OWNER }))).toEqual({ kind: 'exempt', reason: 'role' });
    for (const highestRole of ['owner', 'coOwner', 'moderator']) {
      expect(decideEntry(paidRoom, someone({ highestRole }), { entries: 5, paid: false })).toEqual({ kind: 'exempt', reason: 'role' });
    }
    for (const tokenRole of ['admin', 'superUser', 'globalModerator', 'staff']) {
      expect(feeApplies(paidRoom, someone({ tokenRole }))).toEqual({ kind: 'exempt', reason: 'role' });
    }
    expect(decideEntry(paidRoom, someone({ highestRole: 'dj' }), { entries: 5, paid: false }).kind).toBe('charge');
    expect(feeApplies(paidRoom, someone({ present: true }))).toEqual({ kind: 'exempt', reason: 'present' });
    expect(feeApplies({ ...paidRoom, ownerUuid: null }, someone())).toEqual({ kind: 'exempt', reason: 'noOwner' });
  });

  it('lets guests use the free entries and refuses them past those with a coded 403', () => {
    const guest = someone({ kind: 'guest', tokenRole: 'guest' });
    expect(decideEntry(paidRoom, guest, { entries: 1, paid: false }).kind).toBe('free');
    let refused: unknown;
    try {
      decideEntry(paidRoom, guest, { entries: 2, paid: false });
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ status: 403, message: GUESTS_CANNOT_PAY, code: 'ROOM_ENTRY_FEE_GUEST' });
  });

  it('derives the keys of a charge from the room, the user and the attempt', () => {
    const first = entryKeys('room-1', USER, 0);
    expect(entryKeys('room-1', USER, 0)).toEqual(first);
    expect(new Set(Object.values(first)).size).toBe(5);
    expect(entryKeys('room-1', USER, 1).hold).not.toBe(first.hold);
    expect(entryKeys('room-2', USER, 0).hold).not.toBe(first.hold);
    expect(first.credit.length).toBeLessThanOrEqual(255);
  });

  it("tells the joiner why the ledger refused the hold: a short balance names the fee, no account is spec 002's message", () => {
    const short = new AppError(402, 'Not enough tokens: 10 available, 30 needed', { code: 'TOKEN_BALANCE_SHORT' });
    expect(holdRefusal(short, 30)).toMatchObject({
      status: 402,
      message: 'Not enough tokens to enter this room: 30 needed',
      code: 'ROOM_ENTRY_FEE_SHORT',
    });
    expect(holdRefusal(new AppError(404, 'Token account not found'), 30)).toMatchObject({
      status: 404,
      message: TOKEN_ACCOUNT_MISSING,
      code: 'TOKEN_ACCOUNT_MISSING',
    });
    const disabled = new AppError(403, 'This token account is disabled');
    expect(holdRefusal(disabled, 30)).toBe(disabled);
  });
});
