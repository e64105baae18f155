import { AppError, badRequest, ERROR_CODES } from '@spinroom/platform';

/**
 * The token ledger's rules, as plain functions over an account's totals
 * (TigerBeetle's account balances: credits posted, debits posted, debits
 * pending). Every change of a balance is one transaction: a credit adds, a
 * hold reserves, and a hold ends exactly once, by a commit (spends at most
 * what it reserved; the rest is released), a void (releases it all) or its
 * expiry (a void marked expired); a debit takes tokens back (a refunded
 * purchase), at most what is available. The available balance, credited - spent -
 * held, is never negative: what would make it so is refused and changes
 * nothing. The store applies these under the account's row lock.
 */

export type TransactionType = 'credit' | 'hold' | 'commit' | 'voided' | 'debit';
export type AccountStatus = 'active' | 'disabled';
export const ACCOUNT_STATUSES: readonly AccountStatus[] = ['active', 'disabled'];
/** How a hold stands: open until it ends one way. */
export type HoldState = 'open' | 'committed' | 'voided' | 'expired';

export interface Totals {
  /** Every credit. */
  credited: number;
  /** Every commit and debit. */
  spent: number;
  /** What open holds reserve. */
  held: number;
}

export const NO_TOTALS: Totals = { credited: 0, spent: 0, held: 0 };

/** What the account may still hold or spend. */
export function available(totals: Totals): number {
  return totals.credited - totals.spent - totals.held;
}

/** The largest amount of one transaction (and far below 2^53 for any total a test or a year of purchases reaches). */
export const MAX_AMOUNT = 1_000_000_000;
export const MAX_REASON_LENGTH = 500;
export const MAX_REFERENCE_LENGTH = 255;

/** A hold as the ledger knows it when a commit or a void names it. */
export interface HoldView {
  id: string;
  accountId: string;
  amount: number;
  expiresAt: Date;
  /** open, or how it ended. */
  state: HoldState;
}

/** One transaction to append, as the rules decide it. */
export interface Entry {
  type: TransactionType;
  amount: number;
  holdId: string | null;
  expiresAt: Date | null;
  expired: boolean;
  reason: string;
  reference: string;
}

/** A decided change: the entry to append and the totals after it. */
export interface Decision {
  entry: Entry;
  totals: Totals;
}

export const TOKEN_ACCOUNT_DISABLED = 'This token account is disabled';

export function checkAmount(amount: number, what = 'amount'): void {
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > MAX_AMOUNT) {
    throw badRequest(`${what} must be a whole number of tokens from 1 to ${MAX_AMOUNT}`);
  }
}

function checkText(value: string, what: string, max: number): void {
  if (value.length > max) throw badRequest(`${what} must be at most ${max} characters`);
}

function requireActive(status: AccountStatus): void {
  if (status !== 'active') throw new AppError(403, TOKEN_ACCOUNT_DISABLED, { code: ERROR_CODES.tokenAccountDisabled });
}

export function balanceShort(totals: Totals, amount: number): AppError {
  return new AppError(402, `Not enough tokens: ${available(totals)} available, ${amount} needed`, {
    code: ERROR_CODES.tokenBalanceShort,
  });
}

/** A credit adds to an active account. */
export function decideCredit(
  totals: Totals,
  status: AccountStatus,
  request: { amount: number; reason: string; reference: string },
): Decision {
  checkAmount(request.amount);
  checkText(request.reason, 'reason', MAX_REASON_LENGTH);
  checkText(request.reference, 'reference', MAX_REFERENCE_LENGTH);
  requireActive(status);
  return {
    entry: {
      type: 'credit',
      amount: request.amount,
      holdId: null,
      expiresAt: null,
      expired: false,
      reason: request.reason,
      reference: request.reference,
    },
    totals: { ...totals, credited: totals.credited + request.amount },
  };
}

/** A hold reserves from an active account's available balance (402 when it is short), until `expiresAt`. */
export function decideHold(
  totals: Totals,
  status: AccountStatus,
  request: { amount: number; expiresAt: Date; reference: string },
): Decision {
  checkAmount(request.amount);
  checkText(request.reference, 'reference', MAX_REFERENCE_LENGTH);
  requireActive(status);
  if (available(totals) < request.amount) throw balanceShort(totals, request.amount);
  return {
    entry: {
      type: 'hold',
      amount: request.amount,
      holdId: null,
      expiresAt: request.expiresAt,
      expired: false,
      reason: '',
      reference: request.reference,
    },
    totals: { ...totals, held: totals.held + request.amount },
  };
}

/**
 * A debit takes tokens back (a refunded purchase): at most `amount`, and at
 * most what is available (never what open holds reserve), so the balance
 * stays at or above zero; what it takes joins `spent`. 402 when nothing is
 * available. Disabled accounts too: a refund does not wait for an enable.
 */
export function decideDebit(totals: Totals, request: { amount: number; reason: string; reference: string }): Decision {
  checkAmount(request.amount);
  checkText(request.reason, 'reason', MAX_REASON_LENGTH);
  checkText(request.reference, 'reference', MAX_REFERENCE_LENGTH);
  const take = Math.min(request.amount, available(totals));
  if (take < 1) throw balanceShort(totals, request.amount);
  return {
    entry: {
      type: 'debit',
      amount: take,
      holdId: null,
      expiresAt: null,
      expired: false,
      reason: request.reason,
      reference: request.reference,
    },
    totals: { ...totals, spent: totals.spent + take },
  };
}

/** Why a hold cannot end again. */
export function holdEnded(hold: HoldView): AppError {
  const message =
    hold.state === 'committed'
      ? 'This hold was already committed'
      : hold.state === 'voided'
        ? 'This hold was already voided'
        : `This hold expired at ${hold.expiresAt.toISOString()} and its tokens were released`;
  return new AppError(409, message, { code: ERROR_CODES.tokenHoldEnded });
}

/** Whether an open hold has run out of time at `now`. */
export function isDue(hold: Pick<HoldView, 'expiresAt'>, now: Date): boolean {
  return hold.expiresAt.getTime() <= now.getTime();
}

/**
 * A commit spends what an open hold reserved, or part of it (`amount`;
 * undefined: all), and releases the rest: the hold's whole amount leaves
 * `held`, the committed part joins `spent`. Disabled accounts may still end
 * their holds. A hold past its time has expired (the store expires due holds
 * before deciding; checked again here).
 */
export function decideCommit(totals: Totals, hold: HoldView, amount: number | undefined, now: Date): Decision {
  if (amount !== undefined) checkAmount(amount);
  if (hold.state !== 'open') throw holdEnded(hold);
  if (isDue(hold, now)) throw holdEnded({ ...hold, state: 'expired' });
  const spend = amount ?? hold.amount;
  if (spend > hold.amount) throw badRequest(`A commit spends at most what its hold holds (${hold.amount} tokens)`);
  return {
    entry: { type: 'commit', amount: spend, holdId: hold.id, expiresAt: null, expired: false, reason: '', reference: '' },
    totals: { ...totals, held: totals.held - hold.amount, spent: totals.spent + spend },
  };
}

/** A void releases everything an open hold reserved; `expired` marks the expiry's void. */
export function decideVoid(totals: Totals, hold: HoldView, reason: string, now: Date, expired = false): Decision {
  checkText(reason, 'reason', MAX_REASON_LENGTH);
  if (hold.state !== 'open') throw holdEnded(hold);
  if (!expired && isDue(hold, now)) throw holdEnded({ ...hold, state: 'expired' });
  return {
    entry: {
      type: 'voided',
      amount: hold.amount,
      holdId: hold.id,
      expiresAt: null,
      expired,
      reason: expired ? 'expired' : reason,
      reference: '',
    },
    totals: { ...totals, held: totals.held - hold.amount },
  };
}

/** The expiry of a due hold: a void marked expired. */
export function decideExpiry(totals: Totals, hold: HoldView, now: Date): Decision {
  if (!isDue(hold, now)) throw new Error(`hold ${hold.id} is not due at ${now.toISOString()}`);
  return decideVoid(totals, hold, 'expired', now, true);
}

/** A transaction as the ledger holds it, in order. */
export interface LedgerRow {
  id: string;
  sequence: number;
  type: TransactionType;
  amount: number;
  holdId: string | null;
  /** The available balance and held tokens the row recorded after itself. */
  balance: number;
  held: number;
}

export interface Replay {
  totals: Totals;
  /** Hold id -> amount, for holds no row ended. */
  openHolds: Map<string, number>;
  /** Hold id -> how it ended. */
  endings: Map<string, 'commit' | 'voided'>;
  /** Every way the rows break the rules (none for a sound ledger). */
  problems: string[];
}

/**
 * The balance from the ledger alone: replays an account's transactions in
 * order and says what they add up to and whatever in them breaks a rule (a
 * negative balance, a hold ended twice or never begun, a commit above its
 * hold, a recorded balance that is not the replayed one).
 */
export function replay(rows: readonly LedgerRow[]): Replay {
  const totals: Totals = { ...NO_TOTALS };
  const holds = new Map<string, number>();
  const openHolds = new Map<string, number>();
  const endings = new Map<string, 'commit' | 'voided'>();
  const problems: string[] = [];
  let last = Number.NEGATIVE_INFINITY;
  for (const row of rows) {
    if (row.sequence <= last) problems.push(`row ${row.id} is out of order`);
    last = row.sequence;
    if (!(row.amount > 0)) problems.push(`row ${row.id} has amount ${row.amount}`);
    switch (row.type) {
      case 'credit':
        totals.credited += row.amount;
        break;
      case 'debit':
        totals.spent += row.amount;
        break;
      case 'hold':
        holds.set(row.id, row.amount);
        openHolds.set(row.id, row.amount);
        totals.held += row.amount;
        break;
      case 'commit':
      case 'voided': {
        const reserved = row.holdId ? holds.get(row.holdId) : undefined;
        if (reserved === undefined) {
          problems.push(`${row.type} ${row.id} ends no earlier hold (${row.holdId})`);
          break;
        }
        if (endings.has(row.holdId!)) problems.push(`hold ${row.holdId} ended twice`);
        endings.set(row.holdId!, row.type);
        openHolds.delete(row.holdId!);
        totals.held -= reserved;
        if (row.type === 'commit') {
          if (row.amount > reserved) problems.push(`commit ${row.id} spends ${row.amount} of a hold of ${reserved}`);
          totals.spent += row.amount;
        } else if (row.amount !== reserved) {
          problems.push(`void ${row.id} releases ${row.amount} of a hold of ${reserved}`);
        }
        break;
      }
    }
    if (available(totals) < 0) problems.push(`the balance is negative (${available(totals)}) after ${row.id}`);
    if (row.balance !== available(totals) || row.held !== totals.held) {
      problems.push(`row ${row.id} records ${row.balance}/${row.held}, the replay gives ${available(totals)}/${totals.held}`);
    }
  }
  return { totals, openHolds, endings, problems };
}
