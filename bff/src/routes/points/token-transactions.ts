import { route, type RouteDeps } from '../../http/route.js';
import type { TokenClient } from './clients.js';
import {
  CommitBodySchema,
  CreditBodySchema,
  HoldBodySchema,
  TokenTransactionListSchema,
  TokenTransactionSchema,
  TransactionListQuery,
  VoidBodySchema,
} from './schemas.js';
import { tokenTransactionJson } from './views.js';

const BASE = '/api/merch-service/api/v1/token-transactions';

/**
 * The token ledger: spec 000's commit and void, and Spinroom's own credit,
 * hold and list. Every write carries an idempotencyKey (services/points/README.md).
 */
export function tokenTransactionRoutes(deps: RouteDeps, tokens: TokenClient): void {
  const tags = ['tokens'];

  route(deps, {
    method: 'get',
    path: BASE,
    summary:
      "Spinroom's own: a token account's transactions, newest first (the caller's own unless accountId names another: admins and services)",
    tags,
    query: TransactionListQuery,
    response: TokenTransactionListSchema,
    errors: [403, 404],
    handler: async ({ query }) => {
      const { transactions, total } = await tokens.listTokenTransactions({
        accountId: query.accountId ?? '',
        limit: query.limit,
        offset: query.offset,
      });
      return { transactions: transactions.map(tokenTransactionJson), total };
    },
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/credit`,
    summary:
      "Spinroom's own: adds tokens to an account (admins here; services also through gRPC). 403 for anyone else or a disabled account",
    tags,
    status: 201,
    body: CreditBodySchema,
    response: TokenTransactionSchema,
    errors: [403, 404, 409],
    handler: async ({ body }) =>
      tokenTransactionJson(
        (
          await tokens.creditTokens({
            accountId: body.accountId ?? '',
            userUuid: body.userUuid ?? '',
            amount: body.amount,
            reason: body.reason ?? '',
            reference: body.reference ?? '',
            idempotencyKey: body.idempotencyKey,
          })
        ).transaction,
      ),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/hold`,
    summary:
      "Spinroom's own: reserves tokens until committed, voided or expired (the account's owner or a service). 402 TOKEN_BALANCE_SHORT when the available balance is short",
    tags,
    status: 201,
    body: HoldBodySchema,
    response: TokenTransactionSchema,
    errors: [402, 403, 404, 409],
    handler: async ({ body }) =>
      tokenTransactionJson(
        (
          await tokens.holdTokens({
            accountId: body.accountId ?? '',
            userUuid: body.userUuid ?? '',
            amount: body.amount,
            ttlSeconds: body.ttlSeconds ?? 0,
            reference: body.reference ?? '',
            idempotencyKey: body.idempotencyKey,
          })
        ).transaction,
      ),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/commit`,
    summary:
      "Spends what a hold reserved, or part of it (the rest is released): the account's owner or a service. 409 TOKEN_HOLD_ENDED when the hold was committed, voided or expired",
    tags,
    status: 201,
    body: CommitBodySchema,
    response: TokenTransactionSchema,
    errors: [403, 404, 409],
    handler: async ({ body }) =>
      tokenTransactionJson(
        (await tokens.commitHold({ holdId: body.transactionId, amount: body.amount ?? 0, idempotencyKey: body.idempotencyKey }))
          .transaction,
      ),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/void`,
    summary: "Releases what a hold reserved: the account's owner, a service or an admin. 409 TOKEN_HOLD_ENDED when it had ended",
    tags,
    status: 201,
    body: VoidBodySchema,
    response: TokenTransactionSchema,
    errors: [403, 404, 409],
    handler: async ({ body }) =>
      tokenTransactionJson(
        (await tokens.voidHold({ holdId: body.transactionId, reason: body.reason ?? '', idempotencyKey: body.idempotencyKey })).transaction,
      ),
  });
}
