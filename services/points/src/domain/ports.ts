import type { IdempotencyClaim } from './idempotency.js';
import type { AccountStatus, Decision, HoldState, HoldView, Totals, TransactionType } from './ledger.js';

export interface TokenAccount extends Totals {
  id: string;
  userUuid: string;
  status: AccountStatus;
  /** Available: credited - spent - held. */
  balance: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface TokenTransaction {
  id: string;
  accountId: string;
  /** Its place in the ledger. */
  sequence: number;
  type: TransactionType;
  amount: number;
  holdId: string | null;
  expiresAt: Date | null;
  expired: boolean;
  reason: string;
  reference: string;
  createdAt: Date;
  /** The account's available balance and held tokens right after it. */
  balance: number;
  held: number;
  /** Holds: how it stands (open, or how it ended); null for other types. */
  holdState: HoldState | null;
}

export interface WriteResult {
  transaction: TokenTransaction;
  /** The stored answer to an earlier request with the same key. */
  replayed: boolean;
}

/** What a write is applied to: an account, or the account of a hold. */
export type WriteTarget = { accountId: string } | { holdId: string };

/**
 * Decides the write under the account's lock, its due holds expired: the
 * account as it is now, and the hold the write names (commit, void). Throws to
 * refuse (nothing is written, the key is not kept).
 */
export type Decide = (account: TokenAccount, hold: HoldView | undefined) => Decision;

export interface Page {
  limit: number;
  offset: number;
}

/** Token accounts and their ledger in PostgreSQL (db/token-store.ts). */
export interface TokenStore {
  /** Creates the user's account unless there is one; answers the account either way. */
  createAccount(userUuid: string, now: Date): Promise<{ account: TokenAccount; created: boolean }>;
  /** An account (its due holds expired first). */
  findAccount(by: { accountId: string } | { userUuid: string }, now: Date): Promise<TokenAccount | undefined>;
  setStatus(accountId: string, status: AccountStatus, now: Date): Promise<TokenAccount | undefined>;
  /** The accounts of these users, by user uuid (users without one left out). */
  accountIdsOf(userUuids: readonly string[]): Promise<Map<string, string>>;
  /**
   * One write, idempotent by the claim: in one database transaction, claims
   * the key (a repeat answers the stored answer), locks the account, expires
   * its due holds, lets `decide` decide, appends the entry, updates the totals
   * and stores the answer. 404 when the target is missing.
   */
  write(claim: IdempotencyClaim, target: WriteTarget, decide: Decide, now: Date): Promise<WriteResult>;
  /** An account's transactions, newest first (its due holds expired first). */
  listTransactions(accountId: string, page: Page, now: Date): Promise<{ transactions: TokenTransaction[]; total: number }>;
  /** Expires the due holds of up to `accounts` accounts; answers how many holds. */
  expireDue(now: Date, accounts: number): Promise<number>;
  /** Forgets idempotency keys claimed before `before`; answers how many. */
  forgetKeys(before: Date): Promise<number>;
}
