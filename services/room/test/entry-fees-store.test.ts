import { randomUUID } from 'node:crypto';
import { AppError, createLogger, dropDatabase, ERROR_CODES, openServiceDatabase, type MikroORM } from '@spinroom/platform';
import { uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { roomDatabase } from '../src/db/database.js';
import { entryKeys, type Entrant, type RoomFee } from '../src/domain/entry-fees.js';
import { EntryFees, type TokenLedger } from '../src/live-rooms/entry-fees.js';

/**
 * The points service's ledger as the entry fee sees it, in memory: holds that
 * end once, idempotency keys that replay their first answer (and are not kept
 * for refused requests), and failures to inject.
 */
class FakeLedger implements TokenLedger {
  balance = new Map<string, number>();
  credited = new Map<string, number>();
  holds = new Map<string, { userUuid: string; amount: number; state: 'open' | 'committed' | 'voided' | 'expired' }>();
  private readonly answers = new Map<string, string>();
  /** A short balance's refusal is its key's answer, as in the points service. */
  private readonly refusals = new Map<string, AppError>();
  /** Thrown (once) by the next call of that name, after it took effect when `after` is set. */
  fail: Partial<Record<'commit' | 'credit', { error: Error; after?: boolean }>> = {};

  async hold(userUuid: string, amount: number, key: string): Promise<string> {
    const seen = this.answers.get(key);
    if (seen) return seen;
    const refused = this.refusals.get(key);
    if (refused) throw refused;
    const available = this.balance.get(userUuid);
    if (available === undefined) throw new AppError(404, 'Token account not found');
    if (available < amount) {
      const short = new AppError(402, 'short', { code: ERROR_CODES.tokenBalanceShort });
      this.refusals.set(key, short);
      throw short;
    }
    const id = randomUUID();
    this.balance.set(userUuid, available - amount);
    this.holds.set(id, { userUuid, amount, state: 'open' });
    this.answers.set(key, id);
    return id;
  }

  async commit(holdId: string, key: string): Promise<void> {
    const injected = this.fail.commit;
    if (injected && !injected.after) {
      delete this.fail.commit;
      throw injected.error;
    }
    if (!this.answers.has(key)) {
      const hold = this.holds.get(holdId)!;
      if (hold.state !== 'open') throw new AppError(409, 'ended', { code: ERROR_CODES.tokenHoldEnded });
      hold.state = 'committed';
      this.answers.set(key, holdId);
    }
    if (injected) {
      delete this.fail.commit;
      throw injected.error;
    }
  }

  async void(holdId: string, key: string): Promise<void> {
    if (this.answers.has(key)) return;
    const hold = this.holds.get(holdId)!;
    if (hold.state !== 'open') throw new AppError(409, 'ended', { code: ERROR_CODES.tokenHoldEnded });
    hold.state = 'voided';
    this.balance.set(hold.userUuid, this.balance.get(hold.userUuid)! + hold.amount);
    this.answers.set(key, holdId);
  }

  async credit(userUuid: string, amount: number, key: string): Promise<void> {
    const injected = this.fail.credit;
    if (injected) {
      delete this.fail.credit;
      throw injected.error;
    }
    if (this.answers.has(key)) return;
    this.credited.set(userUuid, (this.credited.get(userUuid) ?? 0) + amount);
    this.answers.set(key, userUuid);
  }

  /** A hold running out of time: its tokens come back. */
  expire(holdId: string): void {
    const hold = this.holds.get(holdId)!;
    hold.state = 'expired';
    this.balance.set(hold.userUuid, this.balance.get(hold.userUuid)! + hold.amount);
  }

  spent(userUuid: string): number {
    return [...this.holds.values()].filter((h) => h.userUuid === userUuid && h.state === 'committed').reduce((n, h) => n + h.amount, 0);
  }
}

const OWNER = randomUUID();
const fee: RoomFee = { entryFee: 30, freeEntries: 0, ownerUuid: OWNER };

describe('entering a paid room on PostgreSQL, with the ledger failing in between', () => {
  const databaseUrl = uniqueDatabaseUrl('room_entry_fees');
  let orm: MikroORM;
  let ledger: FakeLedger;
  let fees: EntryFees;
  let room: string;
  let who: Entrant;
  let undone: number;
  const undo = async () => {
    undone += 1;
  };
  const joined = async () => 'joined';
  const failing = async (): Promise<string> => {
    throw new AppError(403, 'This room is full. Try again when someone leaves.');
  };
  const message = async (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (error: AppError) => `${error.status} ${error.message}`,
    );

  beforeAll(async () => {
    orm = await openServiceDatabase('room', databaseUrl, roomDatabase);
  });
  afterAll(async () => {
    await orm?.close();
    await dropDatabase(databaseUrl);
  });
  beforeEach(() => {
    ledger = new FakeLedger();
    fees = new EntryFees(orm, ledger, createLogger('test', { level: 'silent' }));
    room = randomUUID();
    who = { userUuid: randomUUID(), kind: 'user', tokenRole: 'user', highestRole: undefined, present: false };
    ledger.balance.set(who.userUuid, 100);
    undone = 0;
  });

  it('voids the hold of a failed join and charges the next one under new keys, once', async () => {
    expect(await message(fees.enter(room, fee, who, failing, undo))).toBe('403 This room is full. Try again when someone leaves.');
    expect(ledger.balance.get(who.userUuid)).toBe(100);
    expect(await fees.record(room, who.userUuid)).toEqual({ entries: 0, paid: false, attempt: 1 });
    expect(await fees.enter(room, fee, who, joined, undo)).toBe('joined');
    expect([ledger.balance.get(who.userUuid), ledger.spent(who.userUuid), ledger.credited.get(OWNER)]).toEqual([70, 30, 30]);
    expect(await fees.record(room, who.userUuid)).toEqual({ entries: 1, paid: true, attempt: 1 });
    expect(await fees.enter(room, fee, who, joined, undo)).toBe('joined');
    expect(ledger.spent(who.userUuid)).toBe(30);
  });

  it('takes the join back when the commit fails, and the retry replays the same hold', async () => {
    ledger.fail.commit = { error: new AppError(503, 'Service Unavailable') };
    expect(await message(fees.enter(room, fee, who, joined, undo))).toBe('503 Service Unavailable');
    expect(undone).toBe(1);
    expect(await fees.record(room, who.userUuid)).toEqual({ entries: 0, paid: false, attempt: 0 });
    expect(await fees.enter(room, fee, who, joined, undo)).toBe('joined');
    expect(ledger.holds.size).toBe(1);
    expect([ledger.balance.get(who.userUuid), ledger.spent(who.userUuid), ledger.credited.get(OWNER)]).toEqual([70, 30, 30]);
  });

  it('charges nothing more when a commit that took effect was answered with an error (and the credit failed)', async () => {
    ledger.fail.commit = { error: new AppError(504, 'Gateway Timeout'), after: true };
    expect(await message(fees.enter(room, fee, who, joined, undo))).toBe('504 Gateway Timeout');
    ledger.fail.credit = { error: new AppError(503, 'Service Unavailable') };
    expect(await message(fees.enter(room, fee, who, joined, undo))).toBe('503 Service Unavailable');
    expect(undone).toBe(2);
    expect(await fees.enter(room, fee, who, joined, undo)).toBe('joined');
    expect([ledger.balance.get(who.userUuid), ledger.spent(who.userUuid), ledger.credited.get(OWNER)]).toEqual([70, 30, 30]);
    expect(await fees.record(room, who.userUuid)).toEqual({ entries: 1, paid: true, attempt: 0 });
  });

  it('holds again under the next attempt when an earlier attempt’s hold ran out of time', async () => {
    const earlier = await ledger.hold(who.userUuid, 30, entryKeys(room, who.userUuid, 0).hold);
    ledger.expire(earlier);
    expect(await fees.enter(room, fee, who, joined, undo)).toBe('joined');
    expect([ledger.balance.get(who.userUuid), ledger.spent(who.userUuid), ledger.credited.get(OWNER)]).toEqual([70, 30, 30]);
    expect(await fees.record(room, who.userUuid)).toEqual({ entries: 1, paid: true, attempt: 1 });
  });

  it('records the payment of an earlier attempt that committed before it crashed, even when this join fails', async () => {
    const keys = entryKeys(room, who.userUuid, 0);
    const earlier = await ledger.hold(who.userUuid, 30, keys.hold);
    await ledger.commit(earlier, keys.commit);
    expect(await message(fees.enter(room, fee, who, failing, undo))).toBe('403 This room is full. Try again when someone leaves.');
    expect(await fees.record(room, who.userUuid)).toEqual({ entries: 0, paid: true, attempt: 0 });
    expect(ledger.credited.get(OWNER)).toBe(30);
    expect(await fees.enter(room, fee, who, joined, undo)).toBe('joined');
    expect([ledger.balance.get(who.userUuid), ledger.spent(who.userUuid), ledger.credited.get(OWNER)]).toEqual([70, 30, 30]);
  });

  it('lets parallel joins of one user in one after the other, charging once', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => fees.enter(room, fee, who, joined, undo)));
    expect(answers).toEqual(Array(6).fill('joined'));
    expect([ledger.balance.get(who.userUuid), ledger.spent(who.userUuid), ledger.credited.get(OWNER)]).toEqual([70, 30, 30]);
    expect(await fees.record(room, who.userUuid)).toEqual({ entries: 6, paid: true, attempt: 0 });
  });

  it('counts free entries and refuses a short balance without counting or holding', async () => {
    const free = { ...fee, freeEntries: 2 };
    expect(await fees.enter(room, free, who, joined, undo)).toBe('joined');
    expect(await fees.enter(room, free, who, joined, undo)).toBe('joined');
    ledger.balance.set(who.userUuid, 10);
    expect(await message(fees.enter(room, free, who, joined, undo))).toBe('402 Not enough tokens to enter this room: 30 needed');
    // The ledger keeps that refusal under the attempt's keys: the next charge uses the next attempt's.
    expect(await fees.record(room, who.userUuid)).toEqual({ entries: 2, paid: false, attempt: 1 });
    expect(ledger.holds.size).toBe(0);
    ledger.balance.set(who.userUuid, 100);
    expect(await fees.enter(room, free, who, joined, undo)).toBe('joined');
    expect([ledger.balance.get(who.userUuid), ledger.spent(who.userUuid), ledger.credited.get(OWNER)]).toEqual([70, 30, 30]);
    expect(await fees.record(room, who.userUuid)).toEqual({ entries: 3, paid: true, attempt: 1 });
  });
});
