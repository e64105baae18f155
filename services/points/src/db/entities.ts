import { defineEntity, p } from '@mikro-orm/postgresql';

// The token tables are read and written with SQL (token-store.ts); these
// definitions name them for MikroORM and keep the ORM's view in step.

/** `token_account`: one per user, with the totals its transactions add up to. */
export const TokenAccountEntity = defineEntity({
  name: 'TokenAccount',
  tableName: 'token_account',
  properties: {
    id: p.uuid().primary(),
    userUuid: p.uuid().unique(),
    status: p.string(),
    credited: p.bigint('number'),
    spent: p.bigint('number'),
    held: p.bigint('number'),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

/** `token_transaction`: the ledger, append-only. */
export const TokenTransactionEntity = defineEntity({
  name: 'TokenTransaction',
  tableName: 'token_transaction',
  properties: {
    id: p.uuid().primary(),
    seq: p.bigint('number'),
    accountId: p.uuid(),
    type: p.string(),
    amount: p.bigint('number'),
    holdId: p.uuid().nullable(),
    expiresAt: p.datetime().nullable(),
    expired: p.boolean(),
    reason: p.string(),
    reference: p.string(),
    balanceAfter: p.bigint('number'),
    heldAfter: p.bigint('number'),
    createdAt: p.datetime(),
  },
});

/** `token_open_hold`: holds not yet committed, voided or expired. */
export const TokenOpenHoldEntity = defineEntity({
  name: 'TokenOpenHold',
  tableName: 'token_open_hold',
  properties: {
    holdId: p.uuid().primary(),
    accountId: p.uuid(),
    amount: p.bigint('number'),
    expiresAt: p.datetime(),
  },
});

/** `token_idempotency_key`: each caller's keys, the request's fingerprint and the first answer. */
export const TokenIdempotencyKeyEntity = defineEntity({
  name: 'TokenIdempotencyKey',
  tableName: 'token_idempotency_key',
  properties: {
    scope: p.string().primary(),
    key: p.string().primary(),
    fingerprint: p.string(),
    /** The transaction its write appended (the answer), when it appended one. */
    transactionId: p.uuid().nullable(),
    /** A kept refusal or a purchase's answer (and, for keys stored before transactionId, a transaction's). */
    response: p.json<Record<string, unknown>>().nullable(),
    createdAt: p.datetime(),
  },
});

/** `avatar`: read with the admin list's crud query (avatar-store.ts); written with SQL. */
export const AvatarEntity = defineEntity({
  name: 'Avatar',
  tableName: 'avatar',
  properties: {
    slug: p.string().primary(),
    name: p.string(),
    status: p.string(),
    discordOnly: p.boolean(),
    seasonId: p.uuid().nullable(),
    rankThreshold: p.integer().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
