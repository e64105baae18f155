import { randomUUID } from 'node:crypto';
import { AppError, dropDatabase, openServiceDatabase, type MikroORM } from '@spinroom/platform';
import { outcome, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerRows } from './support.js';
import { pointsDatabase } from '../src/db/database.js';
import { PgTokenStore } from '../src/db/token-store.js';
import { replay } from '../src/domain/ledger.js';
import type { WriteResult } from '../src/domain/ports.js';
import { Tokens, type Actor } from '../src/domain/tokens.js';

const SERVICE: Actor = { userUuid: 'service:room', role: 'service', kind: 'service' };
const ADMIN: Actor = { userUuid: randomUUID(), role: 'admin', kind: 'user' };
const person = (): Actor => ({ userUuid: randomUUID(), role: 'user', kind: 'user' });
const key = () => randomUUID();

describe('the token ledger on PostgreSQL', () => {
  const databaseUrl = uniqueDatabaseUrl('points_ledger');
  let orm: MikroORM;
  let tokens: Tokens;
  /** Added to the wall clock: tests move time forward to expire holds. */
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);

  beforeAll(async () => {
    orm = await openServiceDatabase('points', databaseUrl, pointsDatabase);
    tokens = new Tokens(new PgTokenStore(orm), { holdTtlSeconds: 600, maxHoldTtlSeconds: 86_400 }, now);
  });
  afterAll(async () => {
    await orm.close();
    await dropDatabase(databaseUrl);
  });

  /** An account of a new user, credited `amount` by a service. */
  async function funded(amount: number): Promise<{ owner: Actor; accountId: string }> {
    const owner = person();
    const { account } = await tokens.createAccount(owner);
    if (amount > 0) await tokens.credit(SERVICE, { accountId: account.id, amount, reason: 'test', idempotencyKey: key() });
    return { owner, accountId: account.id };
  }

  /** The account's ledger, in order, as the rules replay it. */
  async function ledger(accountId: string) {
    const rows = await ledgerRows(orm, accountId);
    const [open] = await orm.em
      .fork()
      .execute<Array<{ n: string; sum: string | null }>>(
        `select count(*) as "n", sum("amount") as "sum" from "token_open_hold" where "account_id" = ?`,
        [accountId],
      );
    return { rows, replayed: replay(rows), openHolds: Number(open!.n), openHeld: Number(open!.sum ?? 0) };
  }

  it('creates one account per user, on demand or again, and answers spec 002 when there is none', async () => {
    const owner = person();
    expect(await outcome(tokens.ownAccount(owner))).toBe('404 We were unable to find your token account. Please try again.');
    const first = await tokens.createAccount(owner);
    const second = await tokens.createAccount(owner);
    expect(first.created).toBe(true);
    expect(second).toEqual({ account: first.account, created: false });
    expect(first.account).toMatchObject({ userUuid: owner.userUuid, status: 'active', balance: 0, held: 0 });
    expect(await tokens.ownAccount(owner)).toEqual(first.account);
    // Twenty at once still make one.
    const racer = person();
    const made = await Promise.all(Array.from({ length: 20 }, () => tokens.createAccount(racer)));
    expect(new Set(made.map((m) => m.account.id)).size).toBe(1);
    expect(made.filter((m) => m.created)).toHaveLength(1);
    expect(await outcome(tokens.createAccount({ userUuid: randomUUID(), role: 'guest', kind: 'guest' }))).toBe(
      '403 Guests have no token account: sign up to get one',
    );
    expect(await outcome(tokens.createAccount(person(), owner.userUuid))).toBe('403 You may only create your own token account');
    expect((await tokens.createAccount(SERVICE, racer.userUuid)).account.id).toBe(made[0]!.account.id);
  });

  it('credits, holds, commits part of a hold (releasing the rest) and voids, each answer carrying the balance after it', async () => {
    const { owner, accountId } = await funded(100);
    const hold = await tokens.hold(owner, { amount: 30, idempotencyKey: key() });
    expect(hold.transaction).toMatchObject({ type: 'hold', amount: 30, balance: 70, held: 30, holdState: 'open' });
    expect(hold.transaction.expiresAt!.getTime() - hold.transaction.createdAt.getTime()).toBe(600_000);
    const commit = await tokens.commit(owner, { holdId: hold.transaction.id, amount: 12, idempotencyKey: key() });
    expect(commit.transaction).toMatchObject({ type: 'commit', amount: 12, holdId: hold.transaction.id, balance: 88, held: 0 });
    const second = await tokens.hold(SERVICE, { accountId, amount: 88, ttlSeconds: 60, reference: 'room:1', idempotencyKey: key() });
    expect(second.transaction).toMatchObject({ balance: 0, held: 88, reference: 'room:1' });
    expect(await outcome(tokens.hold(owner, { amount: 1, idempotencyKey: key() }))).toBe('402 Not enough tokens: 0 available, 1 needed');
    const voided = await tokens.void(ADMIN, { holdId: second.transaction.id, reason: 'join failed', idempotencyKey: key() });
    expect(voided.transaction).toMatchObject({ type: 'voided', amount: 88, expired: false, reason: 'join failed', balance: 88, held: 0 });
    expect(await outcome(tokens.commit(owner, { holdId: second.transaction.id, idempotencyKey: key() }))).toBe(
      '409 This hold was already voided',
    );
    expect(await outcome(tokens.void(owner, { holdId: hold.transaction.id, idempotencyKey: key() }))).toBe(
      '409 This hold was already committed',
    );
    expect(await outcome(tokens.commit(owner, { holdId: randomUUID(), idempotencyKey: key() }))).toBe('404 Token hold not found');
    expect(await tokens.account(owner, accountId)).toMatchObject({ balance: 88, held: 0, credited: 100, spent: 12 });
    const { transactions, total } = await tokens.transactions(owner, undefined, { limit: 10, offset: 0 });
    expect(total).toBe(5);
    expect(transactions.map((t) => [t.type, t.holdState])).toEqual([
      ['voided', null],
      ['hold', 'voided'],
      ['commit', null],
      ['hold', 'committed'],
      ['credit', null],
    ]);
    const { replayed } = await ledger(accountId);
    expect(replayed.problems).toEqual([]);
    expect(replayed.totals).toEqual({ credited: 100, spent: 12, held: 0 });
  });

  it('lets only the right callers do each thing', async () => {
    const { owner, accountId } = await funded(50);
    const stranger = person();
    await tokens.createAccount(stranger);
    expect(await outcome(tokens.credit(owner, { accountId, amount: 5, idempotencyKey: key() }))).toBe(
      '403 Only services and admins may credit tokens',
    );
    expect(await outcome(tokens.credit(ADMIN, { accountId, amount: 5, idempotencyKey: key() }))).toBe('ok');
    expect(await outcome(tokens.hold(stranger, { accountId, amount: 5, idempotencyKey: key() }))).toBe(
      "403 Only the account's owner or a service may hold its tokens",
    );
    expect(await outcome(tokens.hold(ADMIN, { accountId, amount: 5, idempotencyKey: key() }))).toBe(
      "403 Only the account's owner or a service may hold its tokens",
    );
    const hold = await tokens.hold(owner, { amount: 5, idempotencyKey: key() });
    expect(await outcome(tokens.commit(stranger, { holdId: hold.transaction.id, idempotencyKey: key() }))).toBe(
      "403 Only the account's owner or a service may commit its holds",
    );
    expect(await outcome(tokens.void(stranger, { holdId: hold.transaction.id, idempotencyKey: key() }))).toBe(
      "403 Only the account's owner, a service or an admin may void its holds",
    );
    expect(await outcome(tokens.account(stranger, accountId))).toBe('403 You may only see your own token account');
    expect(await outcome(tokens.account(ADMIN, accountId))).toBe('ok');
    expect(await outcome(tokens.account(SERVICE, randomUUID()))).toBe('404 Token account not found');
    expect(await outcome(tokens.transactions(stranger, accountId, { limit: 5, offset: 0 }))).toBe(
      '403 You may only see your own token account',
    );
    // A disabled account takes no credit and no hold; its open hold still ends.
    expect(await outcome(tokens.setStatus(owner, accountId, 'disabled'))).toBe('403 Only admins may disable or enable token accounts');
    expect((await tokens.setStatus(ADMIN, accountId, 'disabled')).status).toBe('disabled');
    expect(await outcome(tokens.hold(owner, { amount: 1, idempotencyKey: key() }))).toBe('403 This token account is disabled');
    expect(await outcome(tokens.credit(SERVICE, { accountId, amount: 1, idempotencyKey: key() }))).toBe(
      '403 This token account is disabled',
    );
    expect(await outcome(tokens.commit(owner, { holdId: hold.transaction.id, idempotencyKey: key() }))).toBe('ok');
    await tokens.setStatus(SERVICE, accountId, 'active');
    expect(await outcome(tokens.hold(owner, { amount: 1, idempotencyKey: key() }))).toBe('ok');
  });

  it('takes tokens back (a refund) up to what is available, never what a hold reserves, once per key; services only', async () => {
    const { owner, accountId } = await funded(100);
    const hold = await tokens.hold(owner, { amount: 30, idempotencyKey: key() });
    await tokens.commit(owner, { holdId: hold.transaction.id, amount: 30, idempotencyKey: key() });
    const held = await tokens.hold(owner, { amount: 20, idempotencyKey: key() });
    // 100 credited, 30 spent, 20 held: 50 available; asked for 80, it takes 50.
    const k = key();
    const request = { userUuid: owner.userUuid, amount: 80, reason: 'refund', reference: 'stripe:ch_1', idempotencyKey: k };
    const debit = await tokens.debit(SERVICE, request);
    expect(debit.replayed).toBe(false);
    expect(debit.transaction).toMatchObject({
      type: 'debit',
      amount: 50,
      balance: 0,
      held: 20,
      reason: 'refund',
      reference: 'stripe:ch_1',
    });
    // The same key again: the first answer, nothing more taken, even once tokens are there again.
    await tokens.credit(SERVICE, { accountId, amount: 10, idempotencyKey: key() });
    expect(await tokens.debit(SERVICE, request)).toEqual({ ...debit, replayed: true });
    expect(await outcome(tokens.debit(SERVICE, { ...request, amount: 81 }))).toMatch(/^409 This idempotency key/);
    expect(await tokens.account(owner, accountId)).toMatchObject({ balance: 10, held: 20, spent: 80, credited: 110 });
    // The hold is untouched and still commits in full.
    await tokens.commit(owner, { holdId: held.transaction.id, idempotencyKey: key() });
    expect((await tokens.debit(SERVICE, { accountId, amount: 5, idempotencyKey: key() })).transaction).toMatchObject({
      amount: 5,
      balance: 5,
    });
    expect((await tokens.debit(SERVICE, { accountId, amount: 10, idempotencyKey: key() })).transaction).toMatchObject({
      amount: 5,
      balance: 0,
    });
    expect(await outcome(tokens.debit(SERVICE, { accountId, amount: 10, idempotencyKey: key() }))).toBe(
      '402 Not enough tokens: 0 available, 10 needed',
    );
    expect(await outcome(tokens.debit(ADMIN, { accountId, amount: 1, idempotencyKey: key() }))).toBe(
      '403 Only services may take tokens back',
    );
    expect(await outcome(tokens.debit(owner, { accountId, amount: 1, idempotencyKey: key() }))).toBe(
      '403 Only services may take tokens back',
    );
    const { replayed } = await ledger(accountId);
    expect(replayed.problems).toEqual([]);
    expect(replayed.totals).toEqual({ credited: 110, spent: 110, held: 0 });
  });

  it('expires holds by themselves: on the next read or write, and by the sweep for accounts nobody touches', async () => {
    const { owner, accountId } = await funded(100);
    const short = await tokens.hold(owner, { amount: 40, ttlSeconds: 5, idempotencyKey: key() });
    const other = await funded(10);
    const untouched = await tokens.hold(other.owner, { amount: 10, ttlSeconds: 5, idempotencyKey: key() });
    expect((await tokens.ownAccount(owner)).balance).toBe(60);
    offsetMs += 6_000;
    try {
      // The read voids it (as expired) before answering.
      expect(await tokens.ownAccount(owner)).toMatchObject({ balance: 100, held: 0 });
      expect(await outcome(tokens.commit(owner, { holdId: short.transaction.id, idempotencyKey: key() }))).toMatch(
        /^409 This hold expired at .* and its tokens were released$/,
      );
      const [expiry] = (await tokens.transactions(owner, undefined, { limit: 1, offset: 0 })).transactions;
      expect(expiry).toMatchObject({ type: 'voided', holdId: short.transaction.id, expired: true, reason: 'expired', amount: 40 });
      // The other account is untouched until the sweep.
      const [row] = await orm.em
        .fork()
        .execute<Array<{ held: string }>>(`select "held" from "token_account" where "id" = ?`, [other.accountId]);
      const held = row!.held;
      expect(Number(held)).toBe(10);
      const swept = await tokens.sweep(24);
      expect(swept.expired).toBeGreaterThanOrEqual(1);
      const [state] = (await tokens.transactions(other.owner, undefined, { limit: 5, offset: 0 })).transactions.filter(
        (t) => t.id === untouched.transaction.id,
      );
      expect(state?.holdState).toBe('expired');
      expect((await ledger(other.accountId)).replayed.problems).toEqual([]);
      expect((await ledger(accountId)).replayed.totals).toEqual({ credited: 100, spent: 0, held: 0 });
    } finally {
      offsetMs -= 6_000;
    }
  });

  it('answers a repeated request (same key, same body) with its first answer and no second effect; another body is refused', async () => {
    const { owner, accountId } = await funded(100);
    const k = key();
    const first = await tokens.hold(owner, { amount: 10, idempotencyKey: k });
    const again = await tokens.hold(owner, { amount: 10, idempotencyKey: k });
    expect(again).toEqual({ transaction: first.transaction, replayed: true });
    expect(await outcome(tokens.hold(owner, { amount: 11, idempotencyKey: k }))).toBe(
      '409 This idempotency key was already used for a different request: use a new key for a new request',
    );
    expect(await outcome(tokens.commit(owner, { holdId: first.transaction.id, idempotencyKey: k }))).toMatch(/^409 This idempotency key/);
    // Keys are per caller: another caller's same key is theirs.
    expect(await outcome(tokens.hold(SERVICE, { accountId, amount: 10, idempotencyKey: k }))).toBe('ok');
    // A commit repeated after the hold has ended still answers its first answer.
    const ck = key();
    const commit = await tokens.commit(owner, { holdId: first.transaction.id, amount: 4, idempotencyKey: ck });
    expect(await tokens.commit(owner, { holdId: first.transaction.id, amount: 4, idempotencyKey: ck })).toEqual({
      transaction: commit.transaction,
      replayed: true,
    });
    // A short balance's refusal is its key's answer: after a credit, a copy of the request
    // (its caller's lost answer, say) is refused again and holds nothing; a new key goes through.
    const rk = key();
    const short = await outcome(tokens.hold(owner, { amount: 500, idempotencyKey: rk }));
    expect(short).toMatch(/^402 Not enough tokens: \d+ available, 500 needed$/);
    await tokens.credit(SERVICE, { accountId, amount: 500, idempotencyKey: key() });
    expect(await outcome(tokens.hold(owner, { amount: 500, idempotencyKey: rk }))).toBe(short);
    expect((await tokens.hold(owner, { amount: 500, idempotencyKey: key() })).replayed).toBe(false);
    // Other refusals keep no key: an account that was not there yet is credited under the same key once made.
    const later = person();
    const nk = key();
    expect(await outcome(tokens.credit(SERVICE, { userUuid: later.userUuid, amount: 5, reason: 'test', idempotencyKey: nk }))).toMatch(
      /^404/,
    );
    await tokens.createAccount(later);
    expect((await tokens.credit(SERVICE, { userUuid: later.userUuid, amount: 5, reason: 'test', idempotencyKey: nk })).replayed).toBe(
      false,
    );
    // Fifty copies of one request at once: one hold.
    const fk = key();
    const copies = await Promise.all(Array.from({ length: 50 }, () => tokens.hold(owner, { amount: 1, idempotencyKey: fk })));
    expect(new Set(copies.map((c) => c.transaction.id)).size).toBe(1);
    expect(copies.filter((c) => !c.replayed)).toHaveLength(1);
    const { rows, replayed } = await ledger(accountId);
    expect(rows.filter((r) => r.type === 'hold')).toHaveLength(4); // 10, the service's 10, 500, 1
    expect(replayed.problems).toEqual([]);
  });

  it('serializes thousands of parallel holds, commits and voids on one account: balanced, never negative, every hold ended once, retries without effect', async () => {
    const { owner, accountId } = await funded(20_000);
    const HOLDS = 1500;
    let committed = 0;
    let released = 0;
    let retriesReplayed = 0;
    const ended = new Map<string, string>();
    // Each purchase: a hold, then a commit of part or all, or a void; every third request is also sent twice at once (a client's retry).
    const send = async (request: () => Promise<WriteResult>, retry: boolean): Promise<WriteResult> => {
      if (!retry) return request();
      const [a, b] = await Promise.all([request(), request()]);
      expect(a.transaction).toEqual(b.transaction);
      expect([a.replayed, b.replayed].sort()).toEqual([false, true]);
      retriesReplayed += 1;
      return a;
    };
    const purchases = Array.from({ length: HOLDS }, async (_, i) => {
      const amount = 1 + (i % 25);
      const holdKey = key();
      const hold = await send(() => tokens.hold(i % 2 ? owner : SERVICE, { accountId, amount, idempotencyKey: holdKey }), i % 3 === 0);
      const id = hold.transaction.id;
      const endKey = key();
      if (i % 4 === 0) {
        await send(() => tokens.void(owner, { holdId: id, idempotencyKey: endKey }), i % 5 === 0);
        released += amount;
        ended.set(id, 'voided');
      } else {
        const spend = i % 4 === 1 ? amount : Math.ceil(amount / 2);
        await send(() => tokens.commit(SERVICE, { holdId: id, amount: spend, idempotencyKey: endKey }), i % 5 === 0);
        committed += spend;
        ended.set(id, 'committed');
      }
      // Someone tries to end it again with a new key: refused, whatever it was.
      expect(await outcome(tokens.void(owner, { holdId: id, idempotencyKey: key() }))).toMatch(/^409 This hold was already/);
    });
    await Promise.all(purchases);
    expect(retriesReplayed).toBeGreaterThan(HOLDS / 3);

    const account = await tokens.account(owner, accountId);
    expect(account).toMatchObject({ credited: 20_000, spent: committed, held: 0, balance: 20_000 - committed });
    const { rows, replayed, openHolds } = await ledger(accountId);
    expect(replayed.problems).toEqual([]);
    expect(replayed.totals).toEqual({ credited: account.credited, spent: account.spent, held: account.held });
    // One row per effect: the credit, each hold and its one ending; no retry wrote twice.
    expect(rows).toHaveLength(1 + 2 * HOLDS);
    expect(replayed.endings.size).toBe(HOLDS);
    for (const [holdId, how] of ended) expect(replayed.endings.get(holdId)).toBe(how === 'voided' ? 'voided' : 'commit');
    expect(openHolds).toBe(0);
    expect(Math.min(...rows.map((r) => r.balance))).toBeGreaterThanOrEqual(0);
    expect(released).toBeGreaterThan(0);
  }, 240_000);

  it('lets N parallel purchases of price a against a balance B succeed exactly floor(B / a) times', async () => {
    const B = 1_000;
    const a = 7;
    const N = 300;
    const { owner, accountId } = await funded(B);
    const results = await Promise.all(
      Array.from({ length: N }, async () => {
        try {
          const hold = await tokens.hold(owner, { amount: a, idempotencyKey: key() });
          await tokens.commit(owner, { holdId: hold.transaction.id, idempotencyKey: key() });
          return 'bought';
        } catch (error) {
          if (error instanceof AppError && error.status === 402) return 'short';
          throw error;
        }
      }),
    );
    expect(results.filter((r) => r === 'bought')).toHaveLength(Math.floor(B / a));
    expect(results.filter((r) => r === 'short')).toHaveLength(N - Math.floor(B / a));
    expect(await tokens.account(owner, accountId)).toMatchObject({ balance: B % a, spent: B - (B % a), held: 0 });
    expect((await ledger(accountId)).replayed.problems).toEqual([]);
  }, 120_000);

  it('keeps the ledger append-only and the balance non-negative in the database itself', async () => {
    const { accountId } = await funded(10);
    const em = orm.em.fork();
    await expect(em.execute(`update "token_transaction" set "amount" = 1000 where "account_id" = ?`, [accountId])).rejects.toThrow(
      /append-only/,
    );
    await expect(em.execute(`delete from "token_transaction" where "account_id" = ?`, [accountId])).rejects.toThrow(/append-only/);
    await expect(em.execute(`update "token_account" set "spent" = 11 where "id" = ?`, [accountId])).rejects.toThrow(
      /token_account_balance_not_negative/,
    );
  });
});
