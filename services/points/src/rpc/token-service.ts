import type {
  CommitHoldRequest,
  CreditTokensRequest,
  DebitTokensRequest,
  HoldTokensRequest,
  TokenAccount as TokenAccountMessage,
  TokenServiceServer,
  TokenTransaction as TokenTransactionMessage,
  TokenWrite,
  TokenWriteResult,
  VoidHoldRequest,
} from '@spinroom/contracts/points/v1/tokens';
import { AppError, badRequest, type CallContext, type createUnaryFactory, type Logger } from '@spinroom/platform';
import type { TokenAccount, TokenTransaction, WriteResult } from '../domain/ports.js';
import type { Actor, CommitRequest, CreditRequest, HoldRequest, TokenWriteItem, Tokens, VoidRequest } from '../domain/tokens.js';

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

const holding = (request: HoldTokensRequest): HoldRequest => ({
  accountId: request.accountId || undefined,
  userUuid: request.userUuid || undefined,
  amount: request.amount,
  ttlSeconds: request.ttlSeconds || undefined,
  reference: request.reference,
  idempotencyKey: request.idempotencyKey,
});

const committing = (request: CommitHoldRequest): CommitRequest => ({
  holdId: request.holdId,
  amount: request.amount || undefined,
  idempotencyKey: request.idempotencyKey,
});

const voiding = (request: VoidHoldRequest): VoidRequest => ({
  holdId: request.holdId,
  reason: request.reason,
  idempotencyKey: request.idempotencyKey,
});

/** A batch item as the domain's write, as its own RPC would map it; undefined when it names none. */
function writeItem({ write }: TokenWrite): TokenWriteItem | undefined {
  switch (write?.$case) {
    case 'credit':
      return { kind: 'credit', request: adjustment(write.value) };
    case 'debit':
      return { kind: 'debit', request: adjustment(write.value) };
    case 'hold':
      return { kind: 'hold', request: holding(write.value) };
    case 'commit':
      return { kind: 'commit', request: committing(write.value) };
    case 'void':
      return { kind: 'void', request: voiding(write.value) };
    default:
      return undefined;
  }
}

const NO_WRITE = 'Each write names one of credit, debit, hold, commit or void';

const written = (result: WriteResult) => ({ transaction: transactionMessage(result.transaction), replayed: result.replayed });

/**
 * One item's outcome as answered: its transaction, or the error its own RPC
 * would have carried (an unexpected failure is logged and answered as the
 * unary handler answers one, without its text).
 */
function itemResult(outcome: PromiseSettledResult<WriteResult>, logger: Logger): TokenWriteResult {
  if (outcome.status === 'fulfilled') {
    return { result: { $case: 'transaction', value: transactionMessage(outcome.value.transaction) }, replayed: outcome.value.replayed };
  }
  const error = outcome.reason;
  if (!(error instanceof AppError)) logger.error({ err: error }, 'a batched token write failed');
  const known = error instanceof AppError ? error : new AppError(500, 'Internal Server Error');
  const messages = Array.isArray(known.messages) ? known.messages : [known.messages];
  return { result: { $case: 'error', value: { status: known.status, messages, code: known.code ?? '' } }, replayed: false };
}

/** gRPC handlers of spinroom.points.v1.TokenService: who calls, then the domain decides. */
export function tokenServiceHandlers(deps: {
  tokens: Tokens;
  unary: ReturnType<typeof createUnaryFactory>;
  logger: Logger;
}): TokenServiceServer {
  const { tokens, unary, logger } = deps;
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
    holdTokens: unary(async (request, context) => written(await tokens.hold(actorOf(context), holding(request)))),
    commitHold: unary(async (request, context) => written(await tokens.commit(actorOf(context), committing(request)))),
    voidHold: unary(async (request, context) => written(await tokens.void(actorOf(context), voiding(request)))),
    writeTokens: unary(async (request, context) => {
      const items = request.writes.map(writeItem);
      const named = items.filter((item): item is TokenWriteItem => item !== undefined);
      const outcomes = await tokens.writeMany(actorOf(context), named);
      let next = 0;
      const results = items.map((item) =>
        itemResult(item ? outcomes[next++]! : { status: 'rejected', reason: badRequest(NO_WRITE) }, logger),
      );
      return { results };
    }),
    listTokenTransactions: unary(async (request, context) => {
      const { transactions, total } = await tokens.transactions(actorOf(context), request.accountId || undefined, {
        limit: Math.min(Math.max(request.limit || 20, 1), 100),
        offset: Math.max(request.offset, 0),
      });
      return { transactions: transactions.map(transactionMessage), total };
    }),
  };
}
