import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { addToOutbox, AppError } from '@spinroom/platform';
import type { Consumable, ConsumablePurchase, PurchaseLedger, PurchasePlan, PurchaseRecord } from '../domain/consumables.js';
import type { Pool, PoolClient } from 'pg';
import { keptRefusal, keyReused, storedRefusal, type IdempotencyClaim } from '../domain/idempotency.js';
import { available, decideExpiry, type AccountStatus, type Decision, type HoldView, type TransactionType } from '../domain/ledger.js';
import type { Decide, Page, TokenAccount, TokenStore, TokenTransaction, WriteResult, WriteTarget } from '../domain/ports.js';
import { applyBatch, transactionOf, type BatchWrite } from '../domain/ledger-batch.js';
import { GroupCommit, type Settled } from './group-commit.js';
import {
  ACCOUNT_COLUMNS,
  holdState,
  isKeyTaken,
  isStatementMissing,
  keyOf,
  readBatch,
  writeBatch,
  type AccountRow,
  type KeyAnswer,
  type KeyRow,
} from './token-batch.js';
import { consumablePurchased } from '../events/points-events.js';

/** A `token_transaction` row as `pg` reads it (bigints as strings, dates), or as `to_jsonb` gives it (numbers, ISO strings). */
interface TransactionRow {
  id: string;
  seq: string | number;
  account_id: string;
  type: TransactionType;
  amount: string | number;
  hold_id: string | null;
  expires_at: Date | string | null;
  expired: boolean;
  reason: string;
  reference: string;
  balance_after: string | number;
  held_after: string | number;
  created_at: Date | string;
  /** Holds: the type of the row that ended it, and whether that void was its expiry. */
  ending_type?: TransactionType | null;
  ending_expired?: boolean | null;
}

const TRANSACTION_COLUMNS = `"t"."id", "t"."seq", "t"."account_id", "t"."type", "t"."amount", "t"."hold_id", "t"."expires_at", "t"."expired",
  "t"."reason", "t"."reference", "t"."balance_after", "t"."held_after", "t"."created_at", "e"."type" as "ending_type", "e"."expired" as "ending_expired"`;

function toAccount(row: AccountRow): TokenAccount {
  const totals = { credited: Number(row.credited), spent: Number(row.spent), held: Number(row.held) };
  return {
    id: row.id,
    userUuid: row.user_uuid,
    status: row.status,
    ...totals,
    balance: available(totals),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

function toTransaction(row: TransactionRow): TokenTransaction {
  return {
    id: row.id,
    accountId: row.account_id,
    sequence: Number(row.seq),
    type: row.type,
    amount: Number(row.amount),
    holdId: row.hold_id,
    expiresAt: row.expires_at ? new Date(row.expires_at) : null,
    expired: row.expired,
    reason: row.reason,
    reference: row.reference,
    createdAt: new Date(row.created_at),
    balance: Number(row.balance_after),
    held: Number(row.held_after),
    holdState: row.type === 'hold' ? holdState(row.ending_type, row.ending_expired) : null,
  };
}

/** A stored answer (JSON) back as the transaction it was (keys stored whole, before `transaction_id`). */
function fromStored(stored: Record<string, unknown>): TokenTransaction {
  const transaction = stored as unknown as TokenTransaction & { createdAt: string; expiresAt: string | null };
  return {
    ...transaction,
    createdAt: new Date(transaction.createdAt),
    expiresAt: transaction.expiresAt ? new Date(transaction.expiresAt) : null,
  };
}

/**
 * Token accounts and their ledger in PostgreSQL. Every write runs in one
 * transaction that holds the account's row lock (`select ... for update`), so
 * writes to one account apply one after the other, each seeing the totals the
 * previous one left; writes to different accounts run side by side. The
 * account row carries the running totals (credited, spent, held), updated with
 * each appended transaction; its check constraint refuses a negative balance.
 */
export class PgTokenStore implements TokenStore, PurchaseLedger {
  private readonly batches: GroupCommit<PendingWrite, WriteResult>;
  /** Which account recent holds belong to, so a commit or void joins its account's lane. */
  private readonly holdAccounts = new RecentMap<string, string>(100_000);
  /** The `pg` pool under MikroORM's connection: a batch's two messages go on one of its clients. */
  private pool: Promise<Pool> | undefined;

  constructor(
    private readonly orm: MikroORM,
    /** Called after a commit that staged events (wakes the outbox relay). */
    private readonly staged: () => void = () => undefined,
    batching: { lanes: number; maxBatch: number } = { lanes: 2, maxBatch: 64 },
  ) {
    this.batches = new GroupCommit<PendingWrite, WriteResult>(
      {
        ...batching,
        laneKey: ({ target }) => ('accountId' in target ? target.accountId : (this.holdAccounts.get(target.holdId) ?? target.holdId)),
        batchKey: ({ claim }) => `${claim.scope}\n${claim.key}`,
      },
      (writes) => this.writeBatch(writes),
    );
  }

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  async createAccount(userUuid: string, now: Date): Promise<{ account: TokenAccount; created: boolean }> {
    return createAccount(this.em(), userUuid, now);
  }

  async findAccount(by: { accountId: string } | { userUuid: string }, now: Date): Promise<TokenAccount | undefined> {
    const [column, value] = 'accountId' in by ? ['id', by.accountId] : ['user_uuid', by.userUuid];
    const [row] = await this.em().execute<Array<AccountRow & { due: boolean }>>(
      `select ${ACCOUNT_COLUMNS}, exists (select 1 from "token_open_hold" "o" where "o"."account_id" = "a"."id" and "o"."expires_at" <= ?) as "due"
         from "token_account" "a" where "${column}" = ?`,
      [now, value],
    );
    if (!row) return undefined;
    if (!row.due) return toAccount(row);
    // Holds past their time are voided before anyone reads the balance.
    return this.em().transactional(async (em) => {
      const locked = await lockAccount(em, row.id);
      return locked ? (await expireLocked(em, locked, now)).account : undefined;
    });
  }

  async accountIdsOf(userUuids: readonly string[]): Promise<Map<string, string>> {
    if (userUuids.length === 0) return new Map();
    const rows = await this.em().execute<Array<{ id: string; user_uuid: string }>>(
      `select "id", "user_uuid" from "token_account" where "user_uuid" = any(array(select jsonb_array_elements_text(?::jsonb)::uuid))`,
      [JSON.stringify(userUuids)],
    );
    return new Map(rows.map((row) => [row.user_uuid, row.id]));
  }

  async setStatus(accountId: string, status: AccountStatus, now: Date): Promise<TokenAccount | undefined> {
    const [row] = await this.em().execute<AccountRow[]>(
      `update "token_account" set "status" = ?, "updated_at" = ? where "id" = ? returning ${ACCOUNT_COLUMNS}`,
      [status, now, accountId],
    );
    return row ? toAccount(row) : undefined;
  }

  /**
   * One write, batched with the writes that arrive while the previous batch
   * of its lane is being written (group commit, group-commit.ts): one
   * transaction of two round trips for the whole batch, so the accounts' locks
   * are held for one round trip, whatever the batch's size.
   */
  async write(claim: IdempotencyClaim, target: WriteTarget, decide: Decide, now: Date): Promise<WriteResult> {
    return this.batches.submit({ claim, target, decide, now });
  }

  /**
   * A batch of writes in one transaction of two round trips (token-batch.ts):
   * lock every account the writes name, in id order, and read their keys and
   * holds; answer each write whose key is stored (its first answer, or a
   * refusal when the key was used for another request); decide the others in
   * order (ledger-batch.ts); then append every transaction, keep the open
   * holds and the totals, store each key with its answer (a short balance's
   * refusal too; other refused writes keep no key) and commit. When another
   * transaction stored one of the keys first, the batch is tried again, and
   * that key answers what it stored; when the connection's session had lost
   * the prepared statements, the batch is tried again and they are prepared.
   */
  private async writeBatch(writes: PendingWrite[]): Promise<Array<Settled<WriteResult>>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.writeBatchOnce(writes);
      } catch (error) {
        if (attempt >= 3 || !(isKeyTaken(error) || isStatementMissing(error))) throw error;
      }
    }
  }

  private async writeBatchOnce(writes: PendingWrite[]): Promise<Array<Settled<WriteResult>>> {
    this.pool ??= this.orm.em.getConnection().getNativeClient();
    const client = await (await this.pool).connect();
    let broken: unknown;
    try {
      return await this.decideBatch(client, writes);
    } catch (error) {
      await client.query('rollback').catch((lost: unknown) => {
        broken = lost;
      });
      throw error;
    } finally {
      // A connection that could not even roll back is closed, not reused.
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  private async decideBatch(client: PoolClient, writes: PendingWrite[]): Promise<Array<Settled<WriteResult>>> {
    const latest = new Date(Math.max(...writes.map((write) => write.now.getTime())));
    const read = await readBatch(client, writes, latest);
    const results: Array<Settled<WriteResult> | undefined> = writes.map((write) => {
      const stored = read.keys.get(keyOf(write.claim));
      return stored && answerOf(stored, write.claim);
    });
    const open = writes.map((write, i) => ({ write, i })).filter(({ i }) => !results[i]);
    const applied = applyBatch(
      open.map(({ write }) => write),
      read.accounts.map(toAccount),
      read.holds,
      randomUUID,
    );
    const answers: KeyAnswer[] = open.flatMap(({ write }, j): KeyAnswer[] => {
      const outcome = applied.outcomes[j]!;
      if ('appended' in outcome) return [{ claim: write.claim, now: write.now, transaction: outcome.appended.transaction }];
      const kept = keptRefusal(outcome.refused);
      return kept ? [{ claim: write.claim, now: write.now, kept }] : [];
    });
    const sequences = await writeBatch(client, applied, answers);
    for (const item of applied.appended) item.transaction.sequence = sequences.get(item.transaction.id)!;
    open.forEach(({ i }, j) => {
      const outcome = applied.outcomes[j]!;
      if ('refused' in outcome) {
        results[i] = { failed: outcome.refused };
        return;
      }
      const { transaction } = outcome.appended;
      if (transaction.type === 'hold') this.holdAccounts.remember(transaction.id, transaction.accountId);
      results[i] = { ok: { transaction, replayed: false } };
    });
    return results.map((result) => result ?? { failed: new Error('a batched write was left undecided') });
  }

  async purchase(
    claim: IdempotencyClaim,
    accountId: string,
    plan: PurchasePlan,
    record: PurchaseRecord,
    now: Date,
    consumable: Pick<Consumable, 'id' | 'name' | 'tokenCost' | 'displayType'>,
  ): Promise<{ purchase: ConsumablePurchase; replayed: boolean }> {
    const result = await this.em().transactional(async (em) => {
      const first = await claimKeyIn(em, claim, now);
      if (first) return { purchase: purchaseFromStored(first), replayed: true };
      const locked = await lockAccount(em, accountId);
      if (!locked) throw new AppError(404, 'Token account not found');
      const lastChange = locked.updatedAt;
      const { account } = await expireLocked(em, locked, now);
      let holding: ReturnType<PurchasePlan['hold']>;
      try {
        holding = plan.hold(account, lastChange);
      } catch (error) {
        const kept = keptRefusal(error);
        if (!kept) throw error;
        // Committed with the key (and any holds it found due): a late copy of this request is refused the same way.
        await storeAnswer(em, claim, kept);
        return { refusal: error };
      }
      const hold = await append(em, account, holding, now);
      const commit = await append(
        em,
        account,
        plan.commit(account, { id: hold.id, accountId, amount: hold.amount, expiresAt: hold.expiresAt!, state: 'open' }),
        now,
      );
      await saveTotals(em, account, now);
      const purchase: ConsumablePurchase = {
        id: randomUUID(),
        accountId,
        ...record,
        lastTokenBalance: commit.balance,
        holdId: hold.id,
        commitId: commit.id,
        createdAt: now,
      };
      await em.execute(
        `insert into "consumable_purchase" ("id", "account_id", "user_uuid", "consumable_id", "room_uuid", "token_cost", "hold_id", "commit_id",
           "last_token_balance", "balance_unmodified_since", "created_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          purchase.id,
          accountId,
          purchase.userUuid,
          purchase.consumableId,
          purchase.roomUuid,
          purchase.tokenCost,
          purchase.holdId,
          purchase.commitId,
          purchase.lastTokenBalance,
          purchase.balanceUnmodifiedSince,
          now,
        ],
      );
      // The room's chat shows it: the event commits with the purchase, or neither does.
      addToOutbox(em, consumablePurchased(purchase, consumable));
      await storeAnswer(em, claim, purchase);
      return { purchase, replayed: false };
    });
    if ('refusal' in result) throw result.refusal;
    if (!result.replayed) this.staged();
    return result;
  }

  async listTransactions(accountId: string, page: Page, now: Date): Promise<{ transactions: TokenTransaction[]; total: number }> {
    await this.findAccount({ accountId }, now); // expires its due holds
    const em = this.em();
    const rows = await em.execute<TransactionRow[]>(
      `select ${TRANSACTION_COLUMNS}
         from "token_transaction" "t" left join "token_transaction" "e" on "e"."hold_id" = "t"."id"
        where "t"."account_id" = ? order by "t"."seq" desc limit ? offset ?`,
      [accountId, page.limit, page.offset],
    );
    const [count] = await em.execute<Array<{ total: string }>>(
      `select count(*) as "total" from "token_transaction" where "account_id" = ?`,
      [accountId],
    );
    return { transactions: rows.map(toTransaction), total: Number(count?.total ?? 0) };
  }

  async expireDue(now: Date, accounts: number): Promise<number> {
    const due = await this.em().execute<Array<{ account_id: string }>>(
      `select distinct "account_id" from "token_open_hold" where "expires_at" <= ? limit ?`,
      [now, accounts],
    );
    let expired = 0;
    for (const { account_id } of due) {
      expired += await this.em().transactional(async (em) => {
        const locked = await lockAccount(em, account_id);
        return locked ? (await expireLocked(em, locked, now)).expired : 0;
      });
    }
    return expired;
  }

  async forgetKeys(before: Date): Promise<number> {
    const rows = await this.em().execute<Array<{ key: string }>>(
      `delete from "token_idempotency_key" where "created_at" < ? returning "key"`,
      [before],
    );
    return rows.length;
  }
}

/** A write waiting for its batch. */
interface PendingWrite extends BatchWrite {
  claim: IdempotencyClaim;
}

/**
 * A write's answer from its key, stored by an earlier request: the first
 * answer again (the transaction it appended, as it was written: a hold
 * still `open`), or a refusal.
 */
function answerOf(stored: KeyRow, claim: IdempotencyClaim): Settled<WriteResult> {
  if (stored.fingerprint !== claim.fingerprint) return { failed: keyReused() };
  // The row as written: a hold `open`, as its write answered it (no ending is read with it).
  if (stored.written) return { ok: { transaction: toTransaction(stored.written), replayed: true } };
  if (!stored.response) return { failed: keyReused() };
  const refusal = storedRefusal(stored.response);
  if (refusal) return { failed: refusal };
  return { ok: { transaction: fromStored(stored.response), replayed: true } };
}

/** A Map that forgets its oldest entries past `limit`. */
class RecentMap<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly limit: number) {}
  get(key: K): V | undefined {
    return this.map.get(key);
  }
  remember(key: K, value: V): void {
    this.map.set(key, value);
    if (this.map.size > this.limit) this.map.delete(this.map.keys().next().value as K);
  }
}

/**
 * Claims the idempotency key first: a repeat waits here for the first
 * request's transaction, then answers its stored answer (returned, or thrown
 * when it is a kept refusal); another request under the same key is refused. Undefined: the key is this request's.
 */
async function claimKeyIn(em: EntityManager, claim: IdempotencyClaim, now: Date): Promise<Record<string, unknown> | undefined> {
  const claimed = await em.execute<Array<{ key: string }>>(
    `insert into "token_idempotency_key" ("scope", "key", "fingerprint", "created_at") values (?, ?, ?, ?)
       on conflict do nothing returning "key"`,
    [claim.scope, claim.key, claim.fingerprint, now],
  );
  if (claimed.length > 0) return undefined;
  const [first] = await em.execute<Array<{ fingerprint: string; response: Record<string, unknown> | null }>>(
    `select "fingerprint", "response" from "token_idempotency_key" where "scope" = ? and "key" = ?`,
    [claim.scope, claim.key],
  );
  if (!first || first.fingerprint !== claim.fingerprint || !first.response) throw keyReused();
  const refusal = storedRefusal(first.response);
  if (refusal) throw refusal;
  return first.response;
}

async function storeAnswer(em: EntityManager, claim: IdempotencyClaim, answer: object): Promise<void> {
  await em.execute(`update "token_idempotency_key" set "response" = ?::jsonb where "scope" = ? and "key" = ?`, [
    JSON.stringify(answer),
    claim.scope,
    claim.key,
  ]);
}

function purchaseFromStored(stored: Record<string, unknown>): ConsumablePurchase {
  const purchase = stored as unknown as ConsumablePurchase & { createdAt: string; balanceUnmodifiedSince: string | null };
  return {
    ...purchase,
    createdAt: new Date(purchase.createdAt),
    balanceUnmodifiedSince: purchase.balanceUnmodifiedSince ? new Date(purchase.balanceUnmodifiedSince) : null,
  };
}

/** Creates the user's account unless there is one (the user-events consumer calls it inside its own transaction). */
export async function createAccount(em: EntityManager, userUuid: string, now: Date): Promise<{ account: TokenAccount; created: boolean }> {
  const [created] = await em.execute<AccountRow[]>(
    `insert into "token_account" ("id", "user_uuid", "status", "created_at", "updated_at") values (?, ?, 'active', ?, ?)
       on conflict ("user_uuid") do nothing returning ${ACCOUNT_COLUMNS}`,
    [randomUUID(), userUuid, now, now],
  );
  if (created) return { account: toAccount(created), created: true };
  const [existing] = await em.execute<AccountRow[]>(`select ${ACCOUNT_COLUMNS} from "token_account" where "user_uuid" = ?`, [userUuid]);
  if (!existing) throw new Error(`token account of ${userUuid} neither created nor found`);
  return { account: toAccount(existing), created: false };
}

async function lockAccount(em: EntityManager, accountId: string): Promise<TokenAccount | undefined> {
  const [row] = await em.execute<AccountRow[]>(`select ${ACCOUNT_COLUMNS} from "token_account" where "id" = ? for update`, [accountId]);
  return row ? toAccount(row) : undefined;
}

/** Voids (as expired) the locked account's holds that are past their time; answers the account after and how many. */
async function expireLocked(em: EntityManager, account: TokenAccount, now: Date): Promise<{ account: TokenAccount; expired: number }> {
  const due = await em.execute<Array<{ hold_id: string; amount: string; expires_at: Date }>>(
    `select "hold_id", "amount", "expires_at" from "token_open_hold" where "account_id" = ? and "expires_at" <= ? order by "expires_at"`,
    [account.id, now],
  );
  if (due.length === 0) return { account, expired: 0 };
  const views: HoldView[] = due.map((hold) => ({
    id: hold.hold_id,
    accountId: account.id,
    amount: Number(hold.amount),
    expiresAt: new Date(hold.expires_at),
    state: 'open',
  }));
  return expireHolds(em, account, views, now);
}

/** Voids (as expired) the given due holds of the locked account, oldest first, and saves its totals. */
async function expireHolds(
  em: EntityManager,
  account: TokenAccount,
  due: HoldView[],
  now: Date,
): Promise<{ account: TokenAccount; expired: number }> {
  for (const hold of due) await append(em, account, decideExpiry(account, hold, now), now);
  await saveTotals(em, account, now);
  return { account, expired: due.length };
}

/**
 * Appends the decided entry to the ledger and keeps the open holds in step;
 * `account` (locked) takes the decided totals.
 */
async function append(em: EntityManager, account: TokenAccount, decision: Decision, now: Date): Promise<TokenTransaction> {
  const { entry, totals } = decision;
  const id = randomUUID();
  const balance = available(totals);
  const [row] = await em.execute<Array<{ seq: string }>>(
    `insert into "token_transaction"
       ("id", "account_id", "type", "amount", "hold_id", "expires_at", "expired", "reason", "reference", "balance_after", "held_after", "created_at")
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning "seq"`,
    [
      id,
      account.id,
      entry.type,
      entry.amount,
      entry.holdId,
      entry.expiresAt,
      entry.expired,
      entry.reason,
      entry.reference,
      balance,
      totals.held,
      now,
    ],
  );
  if (entry.type === 'hold') {
    await em.execute(`insert into "token_open_hold" ("hold_id", "account_id", "amount", "expires_at") values (?, ?, ?, ?)`, [
      id,
      account.id,
      entry.amount,
      entry.expiresAt,
    ]);
  } else if (entry.holdId) {
    await em.execute(`delete from "token_open_hold" where "hold_id" = ?`, [entry.holdId]);
  }
  Object.assign(account, totals, { balance });
  return transactionOf(id, account.id, decision, now, Number(row!.seq));
}

async function saveTotals(em: EntityManager, account: TokenAccount, now: Date): Promise<void> {
  await em.execute(`update "token_account" set "credited" = ?, "spent" = ?, "held" = ?, "updated_at" = ? where "id" = ?`, [
    account.credited,
    account.spent,
    account.held,
    now,
    account.id,
  ]);
  account.updatedAt = now;
}
