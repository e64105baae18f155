import { z } from 'zod';
import '../../http/route.js'; // extends zod with .openapi()
import { MAX_OFFSET, MAX_PAGE_SIZE } from '../../http/paging.js';

/** The largest amount of one transaction (the points service's MAX_AMOUNT). */
export const MAX_TOKEN_AMOUNT = 1_000_000_000;

export const TokenAccountSchema = z
  .object({
    id: z.uuid(),
    userUuid: z.uuid(),
    status: z.enum(['active', 'disabled']),
    balance: z.number().int().min(0).openapi({ description: 'Available: credited - spent - held; never negative' }),
    held: z.number().int().min(0).openapi({ description: 'Reserved by open holds' }),
    credited: z.number().int().min(0),
    spent: z.number().int().min(0),
    createdAt: z.string(),
    updatedAt: z.string().openapi({ description: 'The last transaction (or the creation)' }),
  })
  .openapi('TokenAccount');

export const TokenTransactionSchema = z
  .object({
    id: z.uuid(),
    accountId: z.uuid(),
    type: z.enum(['credit', 'hold', 'commit', 'voided', 'debit']),
    amount: z
      .number()
      .int()
      .positive()
      .openapi({ description: 'Tokens credited, held, spent (commit), released (voided) or taken back (debit)' }),
    holdId: z.uuid().nullable().openapi({ description: 'commit and voided: the hold they end' }),
    expiresAt: z.string().nullable().openapi({ description: 'hold: when it expires unless committed or voided first' }),
    holdState: z
      .enum(['open', 'committed', 'voided', 'expired'])
      .nullable()
      .openapi({ description: "hold: how it stands (in a write's answer, as it was then)" }),
    expired: z.boolean().openapi({ description: 'voided: the hold ran out of time' }),
    reason: z.string(),
    reference: z.string(),
    balance: z.number().int().min(0).openapi({ description: "The account's available balance right after it" }),
    held: z.number().int().min(0).openapi({ description: "The account's held tokens right after it" }),
    sequence: z.number().int().openapi({ description: 'Its place in the ledger' }),
    createdAt: z.string(),
  })
  .openapi('TokenTransaction');

export const TokenTransactionListSchema = z
  .object({ transactions: z.array(TokenTransactionSchema), total: z.number().int() })
  .openapi('TokenTransactionList');

const IdempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 visible ASCII characters')
  .openapi({
    description:
      'New for each new request (a UUID, say). Sent again with the same body, the request answers its first answer and changes nothing; with another body it is refused (409). Kept a day.',
  });

const Amount = z.number().int().min(1).max(MAX_TOKEN_AMOUNT);

export const CreditBodySchema = z
  .object({
    accountId: z.uuid().optional(),
    userUuid: z.uuid().optional().openapi({ description: 'The account of this user, when accountId is not given' }),
    amount: Amount,
    reason: z.string().max(500).optional(),
    reference: z.string().max(255).optional(),
    idempotencyKey: IdempotencyKey,
  })
  .openapi('TokenCredit');

export const HoldBodySchema = z
  .object({
    accountId: z.uuid().optional().openapi({ description: "The account; without it (and userUuid), the caller's own" }),
    userUuid: z.uuid().optional(),
    amount: Amount,
    ttlSeconds: z.number().int().min(1).max(86_400).optional().openapi({ description: 'How long it reserves (default 600)' }),
    reference: z.string().max(255).optional(),
    idempotencyKey: IdempotencyKey,
  })
  .openapi('TokenHold');

export const CommitBodySchema = z
  .object({
    transactionId: z.uuid().openapi({ description: "The hold's transaction id" }),
    amount: Amount.optional().openapi({ description: 'At most what the hold holds (default: all of it); the rest is released' }),
    idempotencyKey: IdempotencyKey,
  })
  .openapi('TokenCommit');

export const VoidBodySchema = z
  .object({
    transactionId: z.uuid().openapi({ description: "The hold's transaction id" }),
    reason: z.string().max(500).optional(),
    idempotencyKey: IdempotencyKey,
  })
  .openapi('TokenVoid');

export const TransactionListQuery = z.object({
  accountId: z.uuid().optional().openapi({ description: "The account (its owner, admins, services); default: the caller's own" }),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
  offset: z.coerce.number().int().min(0).max(MAX_OFFSET).default(0),
});
