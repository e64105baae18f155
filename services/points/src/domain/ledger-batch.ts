import { AppError } from '@spinroom/platform';
import { available, decideExpiry, isDue, type Decision, type Entry, type HoldView, type Totals } from './ledger.js';
import type { Decide, TokenAccount, TokenTransaction, WriteTarget } from './ports.js';
import { TOKEN_ACCOUNT_NOT_FOUND, TOKEN_HOLD_NOT_FOUND } from './tokens.js';

/**
 * Several writes applied under one lock of their accounts, in the order they
 * arrived (group commit): each write sees the totals and holds the writes
 * before it left, exactly as if it had run alone, so the rules (ledger.ts)
 * decide each one as they would one at a time. A refused write changes
 * nothing and the others go on.
 */

/** One write of a batch, as the store hands it over. */
export interface BatchWrite {
  target: WriteTarget;
  decide: Decide;
  now: Date;
}

/** A transaction to append: the entry, its account's totals after it, and its place in the batch. */
export interface Appended {
  transaction: TokenTransaction;
  totals: Totals;
}

/** Per write: the transaction it appended, or why it was refused. */
export type BatchOutcome = { appended: Appended } | { refused: unknown };

export interface AppliedBatch {
  /** Every transaction to append, in order (expiries included). */
  appended: Appended[];
  /** One per write, in the writes' order. */
  outcomes: BatchOutcome[];
  /** The accounts whose totals changed, as they stand after the batch. */
  accounts: TokenAccount[];
  /** Holds this batch opened and did not end / holds it ended that were open before it. */
  opened: Appended[];
  ended: string[];
}

/** The transaction a decided entry appends, as answered (its sequence once the ledger gave it one). */
export function transactionOf(
  id: string,
  accountId: string,
  { entry, totals }: Decision,
  createdAt: Date,
  sequence: number,
): TokenTransaction {
  return {
    id,
    accountId,
    sequence,
    type: entry.type,
    amount: entry.amount,
    holdId: entry.holdId,
    expiresAt: entry.expiresAt,
    expired: entry.expired,
    reason: entry.reason,
    reference: entry.reference,
    createdAt,
    balance: available(totals),
    held: totals.held,
    holdState: entry.type === 'hold' ? 'open' : null,
  };
}

/**
 * Applies `writes` in order to the locked `accounts`, given the holds the
 * writes name and the accounts' holds due by the batch's last write
 * (`holds`, by id). Before each write, its account's holds due at that write's
 * time expire (oldest first), as a lone write expires them before deciding.
 */
export function applyBatch(
  writes: readonly BatchWrite[],
  locked: readonly TokenAccount[],
  holds: readonly HoldView[],
  newId: () => string,
): AppliedBatch {
  const accounts = new Map(locked.map((account) => [account.id, { ...account }]));
  const holdById = new Map(holds.map((hold) => [hold.id, { ...hold }]));
  const dueByAccount = new Map<string, HoldView[]>();
  for (const hold of holdById.values()) {
    if (hold.state !== 'open') continue;
    const list = dueByAccount.get(hold.accountId) ?? [];
    list.push(hold);
    dueByAccount.set(hold.accountId, list);
  }
  for (const list of dueByAccount.values()) list.sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime());

  const appended: Appended[] = [];
  const changed = new Set<string>();
  const openedHere = new Map<string, Appended>();
  const ended = new Set<string>();

  const append = (account: TokenAccount, entry: Entry, totals: Totals, now: Date): Appended => {
    const id = newId();
    const item: Appended = { transaction: transactionOf(id, account.id, { entry, totals }, now, 0), totals };
    Object.assign(account, totals, { balance: available(totals), updatedAt: now });
    changed.add(account.id);
    appended.push(item);
    if (entry.type === 'hold') {
      openedHere.set(id, item);
      holdById.set(id, { id, accountId: account.id, amount: entry.amount, expiresAt: entry.expiresAt!, state: 'open' });
    } else if (entry.holdId) {
      const hold = holdById.get(entry.holdId);
      if (hold) hold.state = entry.type === 'commit' ? 'committed' : entry.expired ? 'expired' : 'voided';
      if (!openedHere.delete(entry.holdId)) ended.add(entry.holdId);
    }
    return item;
  };

  const expireDue = (account: TokenAccount, now: Date) => {
    const due = dueByAccount.get(account.id);
    while (due && due.length > 0 && isDue(due[0]!, now)) {
      const hold = due.shift()!;
      if (hold.state !== 'open') continue;
      const expiry = decideExpiry(account, hold, now);
      append(account, expiry.entry, expiry.totals, now);
    }
  };

  const outcomes = writes.map((write): BatchOutcome => {
    const holdId = 'holdId' in write.target ? write.target.holdId : undefined;
    const accountId = holdId === undefined ? (write.target as { accountId: string }).accountId : holdById.get(holdId)?.accountId;
    const account = accountId === undefined ? undefined : accounts.get(accountId);
    if (!account) return { refused: new AppError(404, holdId ? TOKEN_HOLD_NOT_FOUND : TOKEN_ACCOUNT_NOT_FOUND) };
    expireDue(account, write.now);
    const hold = holdId === undefined ? undefined : holdById.get(holdId);
    try {
      const decision = write.decide({ ...account }, hold && { ...hold });
      return { appended: append(account, decision.entry, decision.totals, write.now) };
    } catch (error) {
      return { refused: error };
    }
  });

  return {
    appended,
    outcomes,
    accounts: [...changed].map((id) => accounts.get(id)!),
    opened: [...openedHere.values()],
    ended: [...ended],
  };
}
