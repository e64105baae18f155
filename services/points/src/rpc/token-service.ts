import type {
  CreditTokensRequest,
  DebitTokensRequest,
  TokenAccount as TokenAccountMessage,
  TokenServiceServer,
  TokenTransaction as TokenTransactionMessage,
} from '@spinroom/contracts/points/v1/tokens';
import type { CallContext, createUnaryFactory } from '@spinroom/platform';
import type { TokenAccount, TokenTransaction, WriteResult } from '../domain/ports.js';
import type { Actor, CreditRequest, Tokens } from '../domain/tokens.js';

const actorOf = (context: CallContext): Actor => ({
  userUuid: context.caller.userUuid,
  role: context.caller.role,
  kind: context.caller.kind,
});

export function accountMessage(account: TokenAccount): TokenAccountMessage {
  return {
    id: account.id,
    userUuid: account.userUuid,
    status: account.status,
    balance: account.balance,
    held: account.held,
    credited: account.credited,
    spent: account.spent,
    createdAt: account.createdAt,
    updatedAt: account.updatedAt,
  };
}

export function transactionMessage(transaction: TokenTransaction): TokenTransactionMessage {
  return {
    id: transaction.id,
    accountId: transaction.accountId,
    type: transaction.type,
    amount: transaction.amount,
    holdId: transaction.holdId ?? '',
    expiresAt: transaction.expiresAt ?? undefined,
    reason: transaction.reason,
    reference: transaction.reference,
    createdAt: transaction.createdAt,
    balance: transaction.balance,
    held: transaction.held,
    holdState: transaction.holdState ?? '',
    expired: transaction.expired,
    sequence: transaction.sequence,
  };
}

/** A credit's or a debit's request (their messages have the same fields; empty means unset). */
const adjustment = (request: CreditTokensRequest | DebitTokensRequest): CreditRequest => ({
  accountId: request.accountId || undefined,
  userUuid: request.userUuid || undefined,
  amount: request.amount,
  reason: request.reason,
  reference: request.reference,
  idempotencyKey: request.idempotencyKey,
});

const written = (result: WriteResult) => ({ transaction: transactionMessage(result.transaction), replayed: result.replayed });

/** gRPC handlers of spinroom.points.v1.TokenService: who calls, then the domain decides. */
export function tokenServiceHandlers(deps: { tokens: Tokens; unary: ReturnType<typeof createUnaryFactory> }): TokenServiceServer {
  const { tokens, unary } = deps;
  return {
    createTokenAccount: unary(async (request, context) => {
      const { account, created } = await tokens.createAccount(actorOf(context), request.userUuid || undefined);
      return { account: accountMessage(account), created };
    }),
    getOwnTokenAccount: unary(async (_request, context) => ({ account: accountMessage(await tokens.ownAccount(actorOf(context))) })),
    getTokenAccount: unary(async (request, context) => ({
      account: accountMessage(await tokens.account(actorOf(context), request.accountId)),
    })),
    setTokenAccountStatus: unary(async (request, context) => ({
      account: accountMessage(await tokens.setStatus(actorOf(context), request.accountId, request.status)),
    })),
    creditTokens: unary(async (request, context) => written(await tokens.credit(actorOf(context), adjustment(request)))),
    debitTokens: unary(async (request, context) => written(await tokens.debit(actorOf(context), adjustment(request)))),
    holdTokens: unary(async (request, context) =>
      written(
        await tokens.hold(actorOf(context), {
          accountId: request.accountId || undefined,
          userUuid: request.userUuid || undefined,
          amount: request.amount,
          ttlSeconds: request.ttlSeconds || undefined,
          reference: request.reference,
          idempotencyKey: request.idempotencyKey,
        }),
      ),
    ),
    commitHold: unary(async (request, context) =>
      written(
        await tokens.commit(actorOf(context), {
          holdId: request.holdId,
          amount: request.amount || undefined,
          idempotencyKey: request.idempotencyKey,
        }),
      ),
    ),
    voidHold: unary(async (request, context) =>
      written(
        await tokens.void(actorOf(context), { holdId: request.holdId, reason: request.reason, idempotencyKey: request.idempotencyKey }),
      ),
    ),
    listTokenTransactions: unary(async (request, context) => {
      const { transactions, total } = await tokens.transactions(actorOf(context), request.accountId || undefined, {
        limit: Math.min(Math.max(request.limit || 20, 1), 100),
        offset: Math.max(request.offset, 0),
      });
      return { transactions: transactions.map(transactionMessage), total };
    }),
  };
}
