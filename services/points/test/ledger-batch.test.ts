import { randomUUID } from 'node:crypto';
import { AppError } from '@spinroom/platform';
import { describe, expect, it } from 'vitest';
import { GroupCommit, type Settled } from '../src/db/group-commit.js';
import { applyBatch, type BatchWrite } from '../src/domain/ledger-batch.js';
import { decideCommit, decideCredit, decideHold, decideVoid, type HoldView } from '../src/domain/ledger.js';
import type { TokenAccount } from '../src/domain/ports.js';

const T0 = new Date('2026-12-01T12:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

function account(credited: number, held = 0): TokenAccount {
  return {
    id: randomUUID(),
    userUuid: randomUUID(),
    status: 'active',
    credited,
    spent: 0,
    held,
    balance: credited - held,
    createdAt: T0,
    updatedAt: T0,
  };
}

const hold = (accountId: string, amount: number, seconds = 600): BatchWrite => ({
  target: { accountId },
  decide: (a) => decideHold(a, a.status, { amount, expiresAt: at(seconds), reference: '' }),
  now: T0,
});
const commit = (holdId: string, now = T0): BatchWrite => ({
  target: { holdId },
  decide: (a, h) => decideCommit(a, h!, undefined, now),
  now,
});
const voidIt = (holdId: string, now = T0): BatchWrite => ({
  target: { holdId },
  decide: (a, h) => decideVoid(a, h!, 'test', now),
  now,
});
const refusal = (outcome: { refused: unknown } | object) =>
  'refused' in outcome && outcome.refused instanceof AppError ? `${outcome.refused.status} ${outcome.refused.message}` : 'appended';

describe('a batch of ledger writes under one lock', () => {
  it('decides each write on the totals the writes before it left, refusing only the ones that break a rule', () => {
    const a = account(10);
    const applied = applyBatch([hold(a.id, 4), hold(a.id, 7), hold(a.id, 6)], [a], [], randomUUID);
    expect(applied.outcomes.map(refusal)).toEqual(['appended', '402 Not enough tokens: 6 available, 7 needed', 'appended']);
    expect(applied.appended.map((x) => [x.transaction.type, x.transaction.balance, x.transaction.held])).toEqual([
      ['hold', 6, 4],
      ['hold', 0, 10],
    ]);
    expect(applied.accounts).toMatchObject([{ id: a.id, credited: 10, held: 10, balance: 0 }]);
    expect(applied.opened).toHaveLength(2);
    expect(applied.ended).toEqual([]);
  });

  it('ends a hold once: a commit and a void of the same hold in one batch, the second refused', () => {
    const a = account(10, 5);
    const h: HoldView = { id: randomUUID(), accountId: a.id, amount: 5, expiresAt: at(600), state: 'open' };
    const applied = applyBatch([commit(h.id), voidIt(h.id)], [a], [h], randomUUID);
    expect(applied.outcomes.map(refusal)).toEqual(['appended', '409 This hold was already committed']);
    expect(applied.accounts).toMatchObject([{ credited: 10, spent: 5, held: 0, balance: 5 }]);
    expect(applied.ended).toEqual([h.id]);
  });

  it('expires an account’s due holds before the write that finds them due, and answers 404 for what is not there', () => {
    const a = account(10, 8);
    const due: HoldView = { id: randomUUID(), accountId: a.id, amount: 8, expiresAt: at(5), state: 'open' };
    const credit: BatchWrite = {
      target: { accountId: a.id },
      decide: (x) => decideCredit(x, x.status, { amount: 1, reason: '', reference: '' }),
      now: at(1),
    };
    const applied = applyBatch(
      [credit, commit(due.id, at(6)), { ...credit, target: { accountId: randomUUID() } }, commit(randomUUID())],
      [a],
      [due],
      randomUUID,
    );
    expect(applied.outcomes.map(refusal)).toEqual([
      'appended',
      `409 This hold expired at ${at(5).toISOString()} and its tokens were released`,
      '404 Token account not found',
      '404 Token hold not found',
    ]);
    // The credit at 1 s saw the hold open; the commit at 6 s found it expired first.
    expect(applied.appended.map((x) => [x.transaction.type, x.transaction.expired, x.transaction.balance])).toEqual([
      ['credit', false, 3],
      ['voided', true, 11],
    ]);
    expect(applied.ended).toEqual([due.id]);
  });
});

describe('group commit', () => {
  type W = { lane: string; key: string; fail?: boolean };
  const settled = (writes: W[]): Array<Settled<string>> =>
    writes.map((w) => (w.fail ? { failed: new Error(`refused ${w.key}`) } : { ok: w.key }));

  it('takes the writes that arrive during a batch together in the next, one per key, each answered on its own', async () => {
    const batches: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const group = new GroupCommit<W, string>({ lanes: 1, maxBatch: 3, laneKey: (w) => w.lane, batchKey: (w) => w.key }, async (writes) => {
      batches.push(writes.map((w) => w.key));
      if (batches.length === 1) await gate;
      return settled(writes);
    });
    const first = group.submit({ lane: 'a', key: '1' });
    await nextTurn(); // its batch has begun
    expect(batches).toEqual([['1']]);
    const rest = ['2', '3', '2', '4', '5'].map((key) => group.submit({ lane: 'a', key, fail: key === '4' }).catch((e: Error) => e.message));
    release();
    expect(await first).toBe('1');
    expect(await Promise.all(rest)).toEqual(['2', '3', '2', 'refused 4', '5']);
    // The second '2' waits for a later batch; at most three a batch.
    expect(batches).toEqual([['1'], ['2', '3', '4'], ['2', '5']]);
  });

  it('takes the writes that arrive in one turn of the event loop into one batch, begun in the next turn', async () => {
    const batches: string[][] = [];
    const group = new GroupCommit<W, string>({ lanes: 1, maxBatch: 10, laneKey: (w) => w.lane, batchKey: (w) => w.key }, async (writes) => {
      batches.push(writes.map((w) => w.key));
      return settled(writes);
    });
    const answers = ['1', '2', '3'].map((key) => group.submit({ lane: 'a', key }));
    expect(batches).toEqual([]); // nothing begun within the turn they arrived in
    expect(await Promise.all(answers)).toEqual(['1', '2', '3']);
    expect(batches).toEqual([['1', '2', '3']]);
    // A quiet lane waits for nobody else: a lone write goes at the next turn.
    expect(await group.submit({ lane: 'a', key: '4' })).toBe('4');
    expect(batches).toEqual([['1', '2', '3'], ['4']]);
  });

  it('tries each write alone when a batch fails as a whole, so only the failing write fails', async () => {
    const batches: string[][] = [];
    const group = new GroupCommit<W, string>({ lanes: 1, maxBatch: 10, laneKey: (w) => w.lane, batchKey: (w) => w.key }, async (writes) => {
      batches.push(writes.map((w) => w.key));
      if (writes.some((w) => w.key === 'bad')) throw new Error('deadlock detected');
      return settled(writes);
    });
    const busy = group.submit({ lane: 'a', key: 'first' });
    await nextTurn();
    const answers = ['x', 'bad', 'y'].map((key) => group.submit({ lane: 'a', key }).catch((e: Error) => e.message));
    expect(await busy).toBe('first');
    expect(await Promise.all(answers)).toEqual(['x', 'deadlock detected', 'y']);
    expect(batches).toEqual([['first'], ['x', 'bad', 'y'], ['x'], ['bad'], ['y']]);
  });
});

/** One turn of the event loop (a lane begins its batch in the next). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
