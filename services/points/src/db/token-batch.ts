import type { PoolClient, QueryResult } from 'pg';
import type { HoldState, HoldView, TransactionType } from '../domain/ledger.js';
import type { AppliedBatch } from '../domain/ledger-batch.js';
import type { IdempotencyClaim, StoredRefusal } from '../domain/idempotency.js';
import type { TokenTransaction, WriteTarget } from '../domain/ports.js';

/**
 * A batch of ledger writes as two messages to PostgreSQL on one connection
 * (the simple query protocol runs every statement of a message in turn, each
 * on a snapshot of its own, and answers them all at once), so a batch costs
 * two round trips whatever its size:
 *
 * 1. `begin`; lock every account the writes name, in id order (a commit or
 *    void finds its account through its hold, whose account never changes);
 *    read the writes' idempotency keys; read the accounts' due holds and the
 *    named holds (after the lock, so what the previous holder wrote is seen).
 * 2. One statement that appends every transaction, keeps the open holds and
 *    the totals, and inserts each key with its answer (a kept refusal too;
 *    other refused writes keep no key), then `commit`.
 *
 * A key is written once, with its answer: the id of the transaction its
 * write appended (the row is the answer, read back on a repeat; storing it
 * again as JSON beside the row doubled what a write sent and stored), or
 * the refusal it keeps. Two requests with one key that
 * meet in two batches at once (two replicas, say) both find it free; the
 * second's insert waits for the first's transaction and fails on the key's
 * primary key when it commits, so its whole batch rolls back and is tried
 * again, when the key answers its stored answer (`isKeyTaken`).
 *
 * The statements are prepared once per connection (`STATEMENTS`) and the
 * messages `execute` them, their values passed as JSON literals (`literal`,
 * quoted as `client.escapeLiteral` quotes), read by `jsonb_to_recordset` and
 * `jsonb_array_elements_text`.
 */

export interface AccountRow {
  id: string;
  user_uuid: string;
  status: 'active' | 'disabled';
  credited: string;
  spent: string;
  held: string;
  created_at: Date;
  updated_at: Date;
}

export interface KeyRow {
  scope: string;
  key: string;
  fingerprint: string;
  /** A kept refusal, or (keys stored before `transaction_id`) the whole answer. */
  response: Record<string, unknown> | null;
  /** The transaction the key's write appended, as its row (`to_jsonb`), when it appended one. */
  written: TransactionJson | null;
}

/** A `token_transaction` row as `to_jsonb` gives it. */
export interface TransactionJson {
  id: string;
  seq: number;
  account_id: string;
  type: TransactionType;
  amount: number;
  hold_id: string | null;
  expires_at: string | null;
  expired: boolean;
  reason: string;
  reference: string;
  balance_after: number;
  held_after: number;
  created_at: string;
}

export interface BatchRead {
  accounts: AccountRow[];
  /** The writes' keys already stored, by `scope\nkey`. */
  keys: Map<string, KeyRow>;
  holds: HoldView[];
}

export const ACCOUNT_COLUMNS = `"id", "user_uuid", "status", "credited", "spent", "held", "created_at", "updated_at"`;

export const keyOf = (claim: Pick<IdempotencyClaim, 'scope' | 'key'>): string => `${claim.scope}\n${claim.key}`;

/**
 * The batch's statements, prepared once per connection (`prepare`, then
 * `execute` inside the simple query protocol's messages): planned on every
 * batch, their parse and plan were a third of PostgreSQL's CPU a batch (0.7 of
 * 2 ms for eight writes), more than the rows they write at the batch sizes the
 * ledger sees. Values are passed as arguments of `execute`, JSON literals.
 */
const ACCOUNT_IDS = `array(select jsonb_array_elements_text($1)::uuid
  union select "account_id" from "token_transaction" where "id" = any(array(select jsonb_array_elements_text($2)::uuid)) and "type" = 'hold')`;

const STATEMENTS = {
  /** $1 the accounts named, $2 the holds named (as JSON arrays of ids): their accounts locked in id order. */
  lock: `prepare "points_token_batch_lock"(jsonb, jsonb) as
    select ${ACCOUNT_COLUMNS} from "token_account" where "id" = any(${ACCOUNT_IDS}) order by "id" for update`,
  /** $1 the writes' keys as [{s: scope, k: key}]: those stored, with the transaction each appended. */
  keys: `prepare "points_token_batch_keys"(jsonb) as
    select "k"."scope", "k"."key", "k"."fingerprint", "k"."response", to_jsonb("t") as "written"
      from "token_idempotency_key" "k" left join "token_transaction" "t" on "t"."id" = "k"."transaction_id"
     where ("k"."scope", "k"."key") in (select "s", "k" from jsonb_to_recordset($1) as "x"("s" varchar, "k" varchar))`,
  /** $1, $2 as for lock, $3 the batch's latest time: the accounts' due holds and the named holds, with how each ended. */
  holds: `prepare "points_token_batch_holds"(jsonb, jsonb, timestamptz) as
    select "hold_id" as "id", "account_id", "amount", "expires_at", null::varchar as "ending_type", null::boolean as "ending_expired"
      from "token_open_hold" where "account_id" = any(${ACCOUNT_IDS}) and "expires_at" <= $3
    union
    select "t"."id", "t"."account_id", "t"."amount", "t"."expires_at", "e"."type", "e"."expired"
      from "token_transaction" "t" left join "token_transaction" "e" on "e"."hold_id" = "t"."id"
     where "t"."id" = any(array(select jsonb_array_elements_text($2)::uuid)) and "t"."type" = 'hold'`,
  /** $1 transactions, $2 holds opened, $3 holds ended (ids), $4 accounts' totals, $5 keys with answers: see writeBatch. */
  write: `prepare "points_token_batch_write"(jsonb, jsonb, jsonb, jsonb, jsonb) as
    with "t" as (
       insert into "token_transaction"
         ("id", "account_id", "type", "amount", "hold_id", "expires_at", "expired", "reason", "reference", "balance_after", "held_after", "created_at")
       select "id", "account_id", "type", "amount", "hold_id", "expires_at", "expired", "reason", "reference", "balance_after", "held_after", "created_at"
         from jsonb_to_recordset($1) as "x"("id" uuid, "account_id" uuid, "type" varchar, "amount" bigint, "hold_id" uuid,
           "expires_at" timestamptz, "expired" boolean, "reason" varchar, "reference" varchar, "balance_after" bigint, "held_after" bigint,
           "created_at" timestamptz, "n" int)
        order by "n"
       returning "id", "seq"
     ),
     "o" as (
       insert into "token_open_hold" ("hold_id", "account_id", "amount", "expires_at")
       select * from jsonb_to_recordset($2) as "x"("hold_id" uuid, "account_id" uuid, "amount" bigint, "expires_at" timestamptz)
     ),
     "d" as (delete from "token_open_hold" where "hold_id" = any(array(select jsonb_array_elements_text($3)::uuid))),
     "a" as (
       -- (the ids again, as an array: the planner then reads the accounts by their index)
       update "token_account" set "credited" = "x"."credited", "spent" = "x"."spent", "held" = "x"."held", "updated_at" = "x"."updated_at"
         from jsonb_to_recordset($4) as "x"("id" uuid, "credited" bigint, "spent" bigint, "held" bigint, "updated_at" timestamptz)
        where "token_account"."id" = "x"."id" and "token_account"."id" = any(array(select ("y" ->> 'id')::uuid from jsonb_array_elements($4) as "y"))
     ),
     "k" as (
       insert into "token_idempotency_key" ("scope", "key", "fingerprint", "created_at", "transaction_id", "response")
       select "s", "k", "f", "t", "id", "r"
         from jsonb_to_recordset($5) as "x"("s" varchar, "k" varchar, "f" char(64), "t" timestamptz, "id" uuid, "r" jsonb, "n" int)
        order by "n"
     )
     select "id", "seq" from "t"`,
};

/** The connections (pg clients) whose session has the statements prepared. */
const prepared = new WeakSet<object>();

/** Prepares the statements on a connection that has not got them (two round trips, once per connection). */
async function prepare(client: PoolClient): Promise<void> {
  if (prepared.has(client)) return;
  const { rows } = await client.query<{ name: string }>(
    `select "name" from pg_prepared_statements where "name" like 'points_token_batch_%'`,
  );
  const have = new Set(rows.map((row) => row.name));
  const missing = Object.values(STATEMENTS).filter((text) => !have.has(/"([^"]+)"/.exec(text)![1]!));
  if (missing.length > 0) await client.query(missing.join(';\n'));
  prepared.add(client);
}

/** Runs a message; when its session lost the statements, they are prepared again on its next batch (`isStatementMissing`). */
async function send(client: PoolClient, text: string): Promise<QueryResult[]> {
  try {
    return (await client.query(text)) as unknown as QueryResult[];
  } catch (error) {
    if (isStatementMissing(error)) prepared.delete(client);
    throw error;
  }
}

/** Whether a batch failed because its connection's session had not got the statements (`deallocate` ran, say): tried again, they are prepared. */
export function isStatementMissing(error: unknown): boolean {
  return (error as { code?: string } | undefined)?.code === '26000';
}

/** Message 1: begins the transaction, locks the writes' accounts, reads their keys and holds. */
export async function readBatch(
  client: PoolClient,
  writes: ReadonlyArray<{ claim: IdempotencyClaim; target: WriteTarget }>,
  latest: Date,
): Promise<BatchRead> {
  await prepare(client);
  const accountIds = json(writes.flatMap(({ target }) => ('accountId' in target ? [target.accountId] : [])));
  const holdIds = json(writes.flatMap(({ target }) => ('holdId' in target ? [target.holdId] : [])));
  const keyList = json(writes.map(({ claim }) => ({ s: claim.scope, k: claim.key })));
  const results = await send(
    client,
    `begin;
     execute "points_token_batch_lock"(${accountIds}, ${holdIds});
     execute "points_token_batch_keys"(${keyList});
     execute "points_token_batch_holds"(${accountIds}, ${holdIds}, ${literal(latest.toISOString())})`,
  );
  const [, locked, keys, holds] = results as [QueryResult, QueryResult<AccountRow>, QueryResult<KeyRow>, QueryResult<HoldRow>];
  const byId = new Map<string, HoldView>();
  for (const row of holds.rows) {
    const view: HoldView = {
      id: row.id,
      accountId: row.account_id,
      amount: Number(row.amount),
      expiresAt: new Date(row.expires_at),
      state: holdState(row.ending_type, row.ending_expired),
    };
    // A due hold the writes also name appears twice: open either way.
    if (!byId.has(view.id) || view.state !== 'open') byId.set(view.id, view);
  }
  return {
    accounts: locked.rows,
    keys: new Map(keys.rows.map((row) => [keyOf(row), row])),
    holds: [...byId.values()],
  };
}

/** A key to store with its answer: the transaction a write appended, or the refusal it keeps. */
export type KeyAnswer = { claim: IdempotencyClaim; now: Date } & ({ transaction: TokenTransaction } | { kept: StoredRefusal });

/**
 * Message 2: writes a decided batch in one statement and commits: appends
 * its transactions in order, opens and closes the holds it began and ended,
 * saves the accounts' totals, inserts each key with its answer (the
 * transaction's id, or the refusal it keeps), in key order
 * (so two batches never wait on each other's keys in a cycle). Answers each
 * transaction's sequence by id.
 */
export async function writeBatch(client: PoolClient, applied: AppliedBatch, answers: readonly KeyAnswer[]): Promise<Map<string, number>> {
  if (applied.appended.length === 0 && answers.length === 0) {
    await client.query('commit');
    return new Map();
  }
  const transactions = applied.appended.map(({ transaction: t }, n) => ({
    id: t.id,
    account_id: t.accountId,
    type: t.type,
    amount: t.amount,
    hold_id: t.holdId,
    expires_at: t.expiresAt,
    expired: t.expired,
    reason: t.reason,
    reference: t.reference,
    balance_after: t.balance,
    held_after: t.held,
    created_at: t.createdAt,
    n,
  }));
  const opened = applied.opened.map(({ transaction: t }) => ({
    hold_id: t.id,
    account_id: t.accountId,
    amount: t.amount,
    expires_at: t.expiresAt,
  }));
  const totals = applied.accounts.map((a) => ({ id: a.id, credited: a.credited, spent: a.spent, held: a.held, updated_at: a.updatedAt }));
  const keys = [...answers]
    .sort((a, b) => compare(a.claim.scope, b.claim.scope) || compare(a.claim.key, b.claim.key))
    .map((answer, n) => ({
      s: answer.claim.scope,
      k: answer.claim.key,
      f: answer.claim.fingerprint,
      t: answer.now,
      // A transaction's answer is its row (the key names it); a refusal is kept whole.
      id: 'transaction' in answer ? answer.transaction.id : null,
      r: 'transaction' in answer ? null : answer.kept,
      n,
    }));
  const results = (await send(
    client,
    `execute "points_token_batch_write"(${json(transactions)}, ${json(opened)}, ${json(applied.ended)}, ${json(totals)}, ${json(keys)});
     commit`,
  )) as [QueryResult<{ id: string; seq: string }>, QueryResult];
  return new Map(results[0].rows.map((row) => [row.id, Number(row.seq)]));
}

/** Whether a batch failed because another transaction stored one of its keys first (tried again, the key answers). */
export function isKeyTaken(error: unknown): boolean {
  const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
  return code === '23505' && constraint === 'token_idempotency_key_pkey';
}

interface HoldRow {
  id: string;
  account_id: string;
  amount: string;
  expires_at: Date;
  ending_type: TransactionType | null;
  ending_expired: boolean | null;
}

export function holdState(endingType: TransactionType | null | undefined, endingExpired: boolean | null | undefined): HoldState {
  if (!endingType) return 'open';
  if (endingType === 'commit') return 'committed';
  return endingExpired ? 'expired' : 'voided';
}

/**
 * A string as an SQL literal, the same text as `pg`'s `escapeLiteral` (quotes
 * doubled; with a backslash, an `E''` literal with backslashes doubled), in
 * two native passes: `escapeLiteral` appends character by character, a rope of
 * one string per character flattened later, which was 5% of the points
 * service's CPU in a profile of the ledger bench (a batch's JSON is kilobytes).
 */
export function literal(text: string): string {
  const quoted = text.replaceAll("'", "''");
  return text.includes('\\') ? ` E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

/** A value as a `jsonb` literal. */
const json = (value: unknown) => `${literal(JSON.stringify(value))}::jsonb`;

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
