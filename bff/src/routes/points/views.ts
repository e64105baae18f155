import type { TokenAccount, TokenTransaction } from '@spinroom/contracts/points/v1/tokens';
import type { z } from 'zod';
import { present } from '../../http/upstream.js';
import type { TokenAccountSchema, TokenTransactionSchema } from './schemas.js';

const iso = (date: Date | undefined) => present(date).toISOString();

export function tokenAccountJson(account: TokenAccount | undefined): z.input<typeof TokenAccountSchema> {
  const a = present(account);
  return {
    id: a.id,
    userUuid: a.userUuid,
    status: a.status as 'active' | 'disabled',
    balance: a.balance,
    held: a.held,
    credited: a.credited,
    spent: a.spent,
    createdAt: iso(a.createdAt),
    updatedAt: iso(a.updatedAt),
  };
}

export function tokenTransactionJson(transaction: TokenTransaction | undefined): z.input<typeof TokenTransactionSchema> {
  const t = present(transaction);
  return {
    id: t.id,
    accountId: t.accountId,
    type: t.type as 'credit' | 'hold' | 'commit' | 'voided' | 'debit',
    amount: t.amount,
    holdId: t.holdId || null,
    expiresAt: t.expiresAt ? t.expiresAt.toISOString() : null,
    holdState: (t.holdState || null) as 'open' | 'committed' | 'voided' | 'expired' | null,
    expired: t.expired,
    reason: t.reason,
    reference: t.reference,
    balance: t.balance,
    held: t.held,
    sequence: t.sequence,
    createdAt: iso(t.createdAt),
  };
}
