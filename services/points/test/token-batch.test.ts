import { randomUUID } from 'node:crypto';
import { dropDatabase, openServiceDatabase, type MikroORM } from '@spinroom/platform';
import { outcome, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerRows } from './support.js';
import { pointsDatabase } from '../src/db/database.js';
import { literal } from '../src/db/token-batch.js';
import { PgTokenStore } from '../src/db/token-store.js';
import { claimKey } from '../src/domain/idempotency.js';
import { decideCommit, decideCredit, decideHold, replay } from '../src/domain/ledger.js';
import type { WriteResult } from '../src/domain/ports.js';
import { TOKEN_HOLD_NOT_FOUND } from '../src/domain/tokens.js';

/**
 * The store's batch path (token-batch.ts): writes submitted while their lane
 * is busy go together in its next batch (group-commit.ts), so the writes sent
 * here after a first one are decided in one transaction of two round trips.
 */
describe('a batch of token writes on PostgreSQL', () => {
  const databaseUrl = uniqueDatabaseUrl('points_token_batch');
  let orm: MikroORM;
  let store: PgTokenStore;
  const scope = 'service:test';

  beforeAll(async () => {
    orm = await openServiceDatabase('points', databaseUrl, pointsDatabase);
    store = new PgTokenStore(orm, () => undefined, { lanes: 1, maxBatch: 64 });
  });
  afterAll(async () => {
    await orm.close();
    await dropDatabase(databaseUrl);
  });

  // The writes as the domain's Tokens makes them (claim, target, decision), sent straight to the store.
  const credit = (accountId: string, amount: number, key = randomUUID(), on = store) =>
    on.write(
      claimKey(scope, key, 'credit', { accountId, amount }),
      { accountId },
      (account) => decideCredit(account, account.status, { amount, reason: '', reference: '' }),
      new Date(),
    );
  const hold = (accountId: string, amount: number, key = randomUUID(), on = store) =>
    on.write(
      claimKey(scope, key, 'hold', { accountId, amount }),
      { accountId },
      (account) => decideHold(account, account.status, { amount, expiresAt: new Date(Date.now() + 600_000), reference: '' }),
      new Date(),
    );
  const commit = (holdId: string, amount: number, key = randomUUID()) =>
    store.write(
      claimKey(scope, key, 'commit', { holdId, amount }),
      { holdId },
      (account, found) => {
        if (!found) throw new Error('no hold');
        return decideCommit(account, found, amount, new Date());
      },
      new Date(),
    );
  const answer = (write: Promise<WriteResult>) =>
    write.then(
      ({ transaction, replayed }) => ({ transaction, replayed }),
      (error: unknown) => outcome(Promise.reject(error)),
    );

  async function account(credited: number): Promise<string> {
    const { account: made } = await store.createAccount(randomUUID(), new Date());
    if (credited > 0) await credit(made.id, credited);
    return made.id;
  }

  async function ledger(accountId: string) {
    const rows = await ledgerRows(orm, accountId);
    return { rows, replayed: replay(rows) };
  }

  it('decides a batch mixing successes, a short balance, a replayed key, a reused key and a missing hold, each as if alone', async () => {
    const accountId = await account(100);
    const k1 = randomUUID();
    const first = await hold(accountId, 10, k1);
    const k2 = randomUUID();
    await hold(accountId, 3, k2); // 87 available
    const short = randomUUID();
    const missing = randomUUID();
    const spend = randomUUID();

    const busy = hold(accountId, 5); // 82: its lane is busy while the next writes arrive
    await nextTurn(); // (a lane begins its batch a turn of the event loop after the write arrives)
    const batch = [
      hold(accountId, 20), // 62
      hold(accountId, 63, short), // 402: 62 available
      hold(accountId, 10, k1), // the first answer again
      hold(accountId, 4, k2), // another request under a used key
      commit(randomUUID(), 1, missing), // no such hold
      commit(first.transaction.id, 4, spend), // spends 4 of 10, releases 6: 68
      hold(accountId, 68), // all that is left, after the commit before it
      hold(accountId, 1), // 402: nothing left
    ].map(answer);
    const [, answers] = await Promise.all([busy, Promise.all(batch)]);
    const [twenty, refused, replayed, reused, notFound, committed, rest, none] = answers as [
      { transaction: WriteResult['transaction']; replayed: boolean },
      string,
      { transaction: WriteResult['transaction']; replayed: boolean },
      string,
      string,
      { transaction: WriteResult['transaction']; replayed: boolean },
      { transaction: WriteResult['transaction']; replayed: boolean },
      string,
    ];
    expect(twenty).toMatchObject({ replayed: false, transaction: { type: 'hold', amount: 20, balance: 62 } });
    expect(refused).toBe('402 Not enough tokens: 62 available, 63 needed');
    expect(replayed).toEqual({ replayed: true, transaction: first.transaction });
    expect(reused).toBe('409 This idempotency key was already used for a different request: use a new key for a new request');
    expect(notFound).toBe(`404 ${TOKEN_HOLD_NOT_FOUND}`);
    expect(committed).toMatchObject({
      replayed: false,
      transaction: { type: 'commit', amount: 4, holdId: first.transaction.id, balance: 68 },
    });
    expect(rest).toMatchObject({ replayed: false, transaction: { type: 'hold', amount: 68, balance: 0 } });
    expect(none).toBe('402 Not enough tokens: 0 available, 1 needed');
    // Sequences follow the order the writes were decided in.
    expect(twenty.transaction.sequence).toBeLessThan(committed.transaction.sequence);
    expect(committed.transaction.sequence).toBeLessThan(rest.transaction.sequence);

    // Keys answer as they did: the short balance's refusal is kept even once the balance is there,
    // the commit answers its first answer, and the missing hold's key was not kept (free for a new request).
    await credit(accountId, 1_000);
    expect(await answer(hold(accountId, 63, short))).toBe('402 Not enough tokens: 62 available, 63 needed');
    expect(await answer(commit(first.transaction.id, 4, spend))).toEqual({ replayed: true, transaction: committed.transaction });
    expect(await answer(hold(accountId, 2, missing))).toMatchObject({ replayed: false, transaction: { amount: 2 } });

    const { rows, replayed: sums } = await ledger(accountId);
    expect(sums.problems).toEqual([]);
    // The credits, the 10, 3, 5, 20, the commit, the 68 and the 2: nothing twice, nothing refused.
    expect(rows.map((r) => [r.type, r.amount])).toEqual([
      ['credit', 100],
      ['hold', 10],
      ['hold', 3],
      ['hold', 5],
      ['hold', 20],
      ['commit', 4],
      ['hold', 68],
      ['credit', 1_000],
      ['hold', 2],
    ]);
    expect(sums.totals).toEqual({ credited: 1_100, spent: 4, held: 3 + 5 + 20 + 68 + 2 });
  });

  it('rolls a batch back and tries it again when another replica stores one of its keys first: one effect, the key answers', async () => {
    const accountId = await account(50);
    const other = await account(50);
    const key = randomUUID();
    // Another replica's batch, in flight: it has written the key (another request under it) and not yet committed.
    const replica = new pg.Client({ connectionString: databaseUrl });
    await replica.connect();
    try {
      await replica.query('begin');
      const theirs = claimKey(scope, key, 'hold', { accountId: other, amount: 1 });
      await replica.query(
        `insert into "token_idempotency_key" ("scope", "key", "fingerprint", "created_at", "response") values ($1, $2, $3, now(), '{}'::jsonb)`,
        [scope, key, theirs.fingerprint],
      );
      const busy = hold(accountId, 1);
      await nextTurn();
      const mine = answer(hold(accountId, 5, key)); // finds the key free, then waits on the replica's insert
      const beside = answer(hold(accountId, 7)); // in the same batch
      await busy;
      await untilWaiting(replica);
      await replica.query('commit');
      expect(await mine).toBe('409 This idempotency key was already used for a different request: use a new key for a new request');
      expect(await beside).toMatchObject({ replayed: false, transaction: { amount: 7, balance: 42 } });
    } finally {
      await replica.end();
    }
    const { rows, replayed: sums } = await ledger(accountId);
    expect(sums.problems).toEqual([]);
    expect(rows.map((r) => [r.type, r.amount])).toEqual([
      ['credit', 50],
      ['hold', 1],
      ['hold', 7],
    ]);
  });

  it('quotes its values as pg quotes them, and stores any text as sent', async () => {
    const texts = ['', 'plain', "it's", "''", 'back\\slash', "\\'", '{"a":"b\\"c"}', 'tab\tnew\nline', 'snow \u2603 \u{1f600}', "E'x'"];
    for (const text of texts) expect(literal(text)).toBe(pg.Client.prototype.escapeLiteral(text));

    const accountId = await account(0);
    const reason = `it's a \\ "quoted" \u2603 reason\nover two lines`;
    const written = await store.write(
      claimKey(scope, randomUUID(), 'credit', { accountId, amount: 5 }),
      { accountId },
      (found) => decideCredit(found, found.status, { amount: 5, reason, reference: "ref'\\" }),
      new Date(),
    );
    expect(written.transaction).toMatchObject({ reason, reference: "ref'\\" });
    const stored = await orm.em
      .fork()
      .execute<Array<{ reason: string; reference: string }>>(
        `select "reason", "reference" from "token_transaction" where "account_id" = ?`,
        [accountId],
      );
    expect(stored).toEqual([{ reason, reference: "ref'\\" }]);
  });

  it('prepares its statements again on a connection whose session lost them, and the write goes through once', async () => {
    const accountId = await account(20);
    await hold(accountId, 1); // the statements are prepared on the connections the batches used
    const pool = await orm.em.getConnection().getNativeClient();
    const clients = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()));
    for (const client of clients) {
      await client.query('deallocate all');
      client.release();
    }
    const key = randomUUID();
    const held = await hold(accountId, 2, key);
    expect(held).toMatchObject({ replayed: false, transaction: { type: 'hold', amount: 2, balance: 17 } });
    expect(await hold(accountId, 2, key)).toEqual({ replayed: true, transaction: held.transaction });
    const { rows, replayed: sums } = await ledger(accountId);
    expect(sums.problems).toEqual([]);
    expect(rows.map((r) => [r.type, r.amount])).toEqual([
      ['credit', 20],
      ['hold', 1],
      ['hold', 2],
    ]);
  });

  /** Until a backend of the database waits on a lock (the batch's insert of the key the replica holds). */
  async function untilWaiting(client: pg.Client): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const { rows } = await client.query<{ n: string }>(
        `select count(*) as "n" from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
      if (Number(rows[0]!.n) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('no batch waited on the key');
  }
});

/** One turn of the event loop: a write's lane has begun its batch. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
