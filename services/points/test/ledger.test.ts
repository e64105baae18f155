import { randomUUID } from 'node:crypto';
import { AppError } from '@spinroom/platform';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claimKey } from '../src/domain/idempotency.js';
import {
  available,
  decideCommit,
  decideCredit,
  decideExpiry,
  decideHold,
  decideVoid,
  NO_TOTALS,
  replay,
  type Decision,
  type HoldView,
  type LedgerRow,
  type Totals,
} from '../src/domain/ledger.js';

const T0 = new Date('2026-12-01T12:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** An account in memory: its totals, its rows and its holds, driven only through the domain's decisions. */
class Model {
  totals: Totals = { ...NO_TOTALS };
  rows: LedgerRow[] = [];
  holds: HoldView[] = [];
  refused = 0;

  apply(decide: () => Decision): LedgerRow | undefined {
    const before = { ...this.totals };
    let decision: Decision;
    try {
      decision = decide();
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      this.refused += 1;
      expect(this.totals).toEqual(before); // a refusal changes nothing
      return undefined;
    }
    this.totals = decision.totals;
    const row: LedgerRow = {
      id: randomUUID(),
      sequence: this.rows.length + 1,
      type: decision.entry.type,
      amount: decision.entry.amount,
      holdId: decision.entry.holdId,
      balance: available(decision.totals),
      held: decision.totals.held,
    };
    this.rows.push(row);
    if (row.type === 'hold') {
      this.holds.push({ id: row.id, accountId: 'a', amount: row.amount, expiresAt: decision.entry.expiresAt!, state: 'open' });
    } else if (row.holdId) {
      const hold = this.holds.find((h) => h.id === row.holdId)!;
      hold.state = row.type === 'commit' ? 'committed' : decision.entry.expired ? 'expired' : 'voided';
    }
    return row;
  }
}

type Op =
  | { kind: 'credit'; amount: number }
  | { kind: 'hold'; amount: number; ttl: number }
  | { kind: 'commit'; pick: number; amount: number | undefined }
  | { kind: 'void'; pick: number }
  | { kind: 'tick'; seconds: number };

const amount = fc.integer({ min: 1, max: 500 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('credit' as const), amount }),
  fc.record({ kind: fc.constant('hold' as const), amount, ttl: fc.integer({ min: 1, max: 60 }) }),
  fc.record({ kind: fc.constant('commit' as const), pick: fc.nat(), amount: fc.option(amount, { nil: undefined }) }),
  fc.record({ kind: fc.constant('void' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('tick' as const), seconds: fc.integer({ min: 1, max: 30 }) }),
);

/** Runs the ops as the store does: due holds expire before each write. */
function run(ops: Op[]): Model {
  const model = new Model();
  let clock = 0;
  for (const o of ops) {
    const now = at(clock);
    for (const hold of model.holds.filter((h) => h.state === 'open' && h.expiresAt <= now)) {
      model.apply(() => decideExpiry(model.totals, hold, now));
    }
    switch (o.kind) {
      case 'credit':
        model.apply(() => decideCredit(model.totals, 'active', { amount: o.amount, reason: '', reference: '' }));
        break;
      case 'hold':
        model.apply(() => decideHold(model.totals, 'active', { amount: o.amount, expiresAt: at(clock + o.ttl), reference: '' }));
        break;
      case 'commit': {
        const hold = model.holds[o.pick % Math.max(model.holds.length, 1)];
        if (hold) model.apply(() => decideCommit(model.totals, { ...hold }, o.amount, now));
        break;
      }
      case 'void': {
        const hold = model.holds[o.pick % Math.max(model.holds.length, 1)];
        if (hold) model.apply(() => decideVoid(model.totals, { ...hold }, '', now));
        break;
      }
      case 'tick':
        clock += o.seconds;
        break;
    }
  }
  return model;
}

describe('the token ledger rules', () => {
  it('never let the balance go negative, and the ledger replays to the totals, whatever the operations', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const model = run(ops);
        const replayed = replay(model.rows);
        expect(replayed.problems).toEqual([]);
        expect(replayed.totals).toEqual(model.totals);
        expect(available(model.totals)).toBeGreaterThanOrEqual(0);
        // Every hold ended at most once, and the open ones are what `held` reserves.
        const open = model.holds.filter((h) => h.state === 'open');
        expect([...replayed.openHolds.keys()].sort()).toEqual(open.map((h) => h.id).sort());
        expect(model.totals.held).toBe(open.reduce((sum, h) => sum + h.amount, 0));
        // Spent never exceeds what was credited.
        expect(model.totals.spent).toBeLessThanOrEqual(model.totals.credited);
      }),
      { numRuns: 300 },
    );
  });

  it('lets a hold reserve only what is available (402 with the figures)', () => {
    const totals = { credited: 100, spent: 20, held: 50 };
    expect(decideHold(totals, 'active', { amount: 30, expiresAt: at(60), reference: '' }).totals).toEqual({
      credited: 100,
      spent: 20,
      held: 80,
    });
    expect(() => decideHold(totals, 'active', { amount: 31, expiresAt: at(60), reference: '' })).toThrow(
      expect.objectContaining({ status: 402, code: 'TOKEN_BALANCE_SHORT', message: 'Not enough tokens: 30 available, 31 needed' }),
    );
  });

  it('lets a commit spend at most what its hold holds and release the rest', () => {
    fc.assert(
      fc.property(amount, amount, fc.integer({ min: 0, max: 1000 }), (held, spend, spare) => {
        const totals = { credited: held + spare, spent: 0, held };
        const hold: HoldView = { id: randomUUID(), accountId: 'a', amount: held, expiresAt: at(60), state: 'open' };
        if (spend > held) {
          expect(() => decideCommit(totals, hold, spend, T0)).toThrow(expect.objectContaining({ status: 400 }));
          return;
        }
        const { totals: after, entry } = decideCommit(totals, hold, spend, T0);
        expect(entry).toMatchObject({ type: 'commit', amount: spend, holdId: hold.id });
        expect(after).toEqual({ credited: held + spare, spent: spend, held: 0 });
        expect(available(after)).toBe(available(totals) + held - spend); // the rest is released
      }),
    );
  });

  it('ends a hold once: a second commit, a void after a commit, anything after its expiry are refused (409)', () => {
    const totals = { credited: 10, spent: 0, held: 10 };
    const hold: HoldView = { id: randomUUID(), accountId: 'a', amount: 10, expiresAt: at(60), state: 'open' };
    for (const state of ['committed', 'voided', 'expired'] as const) {
      const ended = { ...hold, state };
      expect(() => decideCommit(totals, ended, undefined, T0)).toThrow(expect.objectContaining({ status: 409, code: 'TOKEN_HOLD_ENDED' }));
      expect(() => decideVoid(totals, ended, '', T0)).toThrow(expect.objectContaining({ status: 409, code: 'TOKEN_HOLD_ENDED' }));
    }
    // Past its time, an open hold can only expire.
    expect(() => decideCommit(totals, hold, 5, at(60))).toThrow(/expired at 2026-12-01T12:01:00.000Z/);
    expect(() => decideVoid(totals, hold, '', at(61))).toThrow(expect.objectContaining({ status: 409 }));
    expect(() => decideExpiry(totals, hold, at(59))).toThrow(/not due/);
    expect(decideExpiry(totals, hold, at(60))).toMatchObject({ entry: { type: 'voided', expired: true, amount: 10 }, totals: { held: 0 } });
  });

  it('refuses credits and holds on a disabled account, and amounts that are not whole positive numbers', () => {
    expect(() => decideCredit(NO_TOTALS, 'disabled', { amount: 5, reason: '', reference: '' })).toThrow(
      expect.objectContaining({ status: 403, code: 'TOKEN_ACCOUNT_DISABLED' }),
    );
    expect(() => decideHold({ credited: 9, spent: 0, held: 0 }, 'disabled', { amount: 5, expiresAt: at(1), reference: '' })).toThrow(
      expect.objectContaining({ status: 403 }),
    );
    for (const bad of [0, -1, 1.5, Number.NaN, 1_000_000_001]) {
      expect(() => decideCredit(NO_TOTALS, 'active', { amount: bad, reason: '', reference: '' })).toThrow(
        expect.objectContaining({ status: 400 }),
      );
    }
  });

  it('has a replay that finds what breaks the rules', () => {
    const hold = randomUUID();
    const row = (type: LedgerRow['type'], amount: number, balance: number, held: number, holdId: string | null = null): LedgerRow => ({
      id: type === 'hold' ? hold : randomUUID(),
      sequence: 0,
      type,
      amount,
      holdId,
      balance,
      held,
    });
    const numbered = (rows: LedgerRow[]) => rows.map((r, i) => ({ ...r, sequence: i + 1 }));
    const sound = numbered([row('credit', 10, 10, 0), row('hold', 6, 4, 6), row('commit', 5, 5, 0, hold)]);
    expect(replay(sound).problems).toEqual([]);
    expect(replay(sound).totals).toEqual({ credited: 10, spent: 5, held: 0 });
    const twice = numbered([...sound, row('voided', 6, 11, -6, hold)]);
    expect(replay(twice).problems.join('\n')).toMatch(/ended twice/);
    const above = numbered([row('credit', 10, 10, 0), row('hold', 6, 4, 6), row('commit', 7, 3, 0, hold)]);
    expect(replay(above).problems.join('\n')).toMatch(/spends 7 of a hold of 6/);
    const negative = numbered([row('credit', 5, 5, 0), row('hold', 6, -1, 6)]);
    expect(replay(negative).problems.join('\n')).toMatch(/negative/);
    const misrecorded = numbered([row('credit', 5, 4, 0)]);
    expect(replay(misrecorded).problems.join('\n')).toMatch(/records 4\/0, the replay gives 5\/0/);
  });
});

describe('idempotency keys', () => {
  it('fingerprint the operation and its request, not the order of its fields', () => {
    const a = claimKey('u', 'k-1', 'hold', { amount: 5, accountId: 'x', reference: '' });
    const b = claimKey('u', 'k-1', 'hold', { reference: '', accountId: 'x', amount: 5 });
    expect(a).toEqual(b);
    expect(claimKey('u', 'k-1', 'hold', { amount: 6, accountId: 'x', reference: '' }).fingerprint).not.toBe(a.fingerprint);
    expect(claimKey('u', 'k-1', 'credit', { amount: 5, accountId: 'x', reference: '' }).fingerprint).not.toBe(a.fingerprint);
  });

  it('are 1 to 255 visible ASCII characters', () => {
    for (const bad of ['', 'with space', 'x'.repeat(256), 'ключ']) {
      expect(() => claimKey('u', bad, 'hold', {})).toThrow(expect.objectContaining({ status: 400 }));
    }
    expect(() => claimKey('u', randomUUID(), 'hold', {})).not.toThrow();
  });
});
