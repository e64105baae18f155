// WriteTokens (several token writes in one call, for services) and the
// platform's TokenWriter that coalesces a service's concurrent writes into
// it, through the points service's gRPC API: each item decided as its own
// RPC would decide it, in order, with its own answer or error.
import { randomUUID } from 'node:crypto';
import { TokenServiceClient, type TokenWrite, type TokenWriteResult, type WriteTokensRequest } from '@spinroom/contracts/points/v1/tokens';
import { AppError, createGrpcClient, GrpcHealthChecker, TokenWriter, type CallSettings } from '@spinroom/platform';
import { eventually, outcome, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPointsService, type RunningPointsService } from '../src/app.js';
import { fakeUserService, testPointsConfig } from './support.js';
import { dropDatabase } from '@spinroom/platform';

describe('WriteTokens and the coalescing TokenWriter', () => {
  const databaseUrl = uniqueDatabaseUrl('points_token_writes');
  let user: Awaited<ReturnType<typeof fakeUserService>>;
  let service: RunningPointsService;
  let points: ReturnType<typeof createGrpcClient<TokenServiceClient>>;
  let serviceToken: string;
  /** The WriteTokens calls the writer made, by their number of items. */
  const calls: number[] = [];
  let writer: TokenWriter;

  beforeAll(async () => {
    user = await fakeUserService();
    service = await startPointsService(testPointsConfig(databaseUrl, user.address));
    const address = `127.0.0.1:${service.port}`;
    const health = new GrpcHealthChecker();
    try {
      await eventually(async () => ((await health.serving(address)) ? true : undefined), 30_000);
    } finally {
      health.close();
    }
    points = createGrpcClient(TokenServiceClient, address, { deadlineMs: 30_000 });
    serviceToken = await user.token('service', 'service:room');
    const counted = {
      writeTokens: (request: WriteTokensRequest, settings?: CallSettings) => {
        calls.push(request.writes.length);
        return points.writeTokens(request, settings);
      },
    };
    writer = new TokenWriter(counted, () => serviceToken);
  });

  afterAll(async () => {
    points?.close();
    await service?.stop();
    await user?.stop();
    await dropDatabase(databaseUrl);
  });

  const key = () => randomUUID();
  const as = () => ({ token: serviceToken });

  /** A fresh user's account, credited `amount`. */
  async function funded(amount: number): Promise<{ accountId: string; userUuid: string }> {
    const userUuid = randomUUID();
    const { account } = await points.createTokenAccount({ userUuid }, as());
    if (amount > 0) {
      await points.creditTokens(
        { accountId: account!.id, userUuid: '', amount, reason: 'test', reference: '', idempotencyKey: key() },
        as(),
      );
    }
    return { accountId: account!.id, userUuid };
  }

  const hold = (accountId: string, amount: number, idempotencyKey: string = key()): TokenWrite => ({
    write: { $case: 'hold', value: { accountId, userUuid: '', amount, ttlSeconds: 0, reference: 'room:1', idempotencyKey } },
  });
  const commit = (holdId: string, idempotencyKey: string = key()): TokenWrite => ({
    write: { $case: 'commit', value: { holdId, amount: 0, idempotencyKey } },
  });
  const voiding = (holdId: string, idempotencyKey: string = key()): TokenWrite => ({
    write: { $case: 'void', value: { holdId, reason: 'join failed', idempotencyKey } },
  });

  /** An item's answer, short: `<type> <amount> <balance>/<held>[ replayed]` or `<status> <message> [<code>]`. */
  const shown = (result: TokenWriteResult) => {
    if (result.result?.$case === 'transaction') {
      const t = result.result.value;
      return `${t.type} ${t.amount} ${t.balance}/${t.held}${result.replayed ? ' replayed' : ''}`;
    }
    if (result.result?.$case === 'error') {
      const e = result.result.value;
      return `${e.status} ${e.messages.join('; ')}${e.code ? ` [${e.code}]` : ''}`;
    }
    return 'nothing';
  };

  it('decides a batch mixing successes and failures in order, each as its own RPC would, and a repeat answers the same', async () => {
    const { accountId } = await funded(100);
    const other = await funded(0);
    const { transaction: earlier } = await points.holdTokens(
      { accountId, userUuid: '', amount: 10, ttlSeconds: 0, reference: '', idempotencyKey: key() },
      as(),
    );
    const { transaction: ended } = await points.holdTokens(
      { accountId, userUuid: '', amount: 5, ttlSeconds: 0, reference: '', idempotencyKey: key() },
      as(),
    );
    await points.voidHold({ holdId: ended!.id, reason: '', idempotencyKey: key() }, as());
    const writes: TokenWrite[] = [
      hold(accountId, 30),
      hold(accountId, 61), // 60 left after the first
      commit(earlier!.id),
      commit(randomUUID()),
      voiding(ended!.id),
      { write: undefined },
      { write: { $case: 'credit', value: { accountId, userUuid: '', amount: 7, reason: 'grant', reference: '', idempotencyKey: key() } } },
      // By its user, as the room service names the accounts it credits.
      {
        write: {
          $case: 'credit',
          value: { accountId: '', userUuid: other.userUuid, amount: 5, reason: '', reference: '', idempotencyKey: key() },
        },
      },
      { write: { $case: 'debit', value: { accountId, userUuid: '', amount: 3, reason: 'refund', reference: '', idempotencyKey: key() } } },
      hold(accountId, 0),
      // By its user too, after the credit above: the items go in order whichever way they name their account.
      {
        write: {
          $case: 'hold',
          value: { accountId: '', userUuid: other.userUuid, amount: 5, ttlSeconds: 0, reference: '', idempotencyKey: key() },
        },
      },
      {
        write: {
          $case: 'credit',
          value: { accountId: '', userUuid: randomUUID(), amount: 1, reason: '', reference: '', idempotencyKey: key() },
        },
      },
    ];
    const first = await points.writeTokens({ writes }, as());
    const expected = [
      'hold 30 60/40',
      '402 Not enough tokens: 60 available, 61 needed [TOKEN_BALANCE_SHORT]',
      'commit 10 60/30',
      '404 Token hold not found',
      '409 This hold was already voided [TOKEN_HOLD_ENDED]',
      '400 Each write names one of credit, debit, hold, commit or void',
      'credit 7 67/30',
      'credit 5 5/0',
      'debit 3 64/30',
      '400 amount must be a whole number of tokens from 1 to 1000000000',
      'hold 5 0/5',
      '404 Token account not found',
    ];
    expect(first.results.map(shown)).toEqual(expected);
    // The same batch again: what was written answers again, the short balance's refusal was kept, the rest is decided again.
    const again = await points.writeTokens({ writes }, as());
    expect(again.results.map(shown)).toEqual(expected.map((line) => (/^[a-z]/.test(line) ? `${line} replayed` : line)));
    const ids = (results: TokenWriteResult[]) => results.map((r) => (r.result?.$case === 'transaction' ? r.result.value.id : ''));
    expect(ids(again.results)).toEqual(ids(first.results));
    // A key already used, with another body: refused, and the rest of the batch still goes.
    const reused = hold(accountId, 31, (writes[0]!.write as { value: { idempotencyKey: string } }).value.idempotencyKey);
    const mixed = await points.writeTokens({ writes: [reused, hold(accountId, 4)] }, as());
    expect(mixed.results.map(shown)).toEqual([
      '409 This idempotency key was already used for a different request: use a new key for a new request [TOKEN_IDEMPOTENCY_KEY_REUSED]',
      'hold 4 60/34',
    ]);
    expect(await points.getTokenAccount({ accountId }, as())).toMatchObject({
      account: { balance: 60, held: 34, credited: 107, spent: 13 },
    });
  });

  it('is for services only: a user, even the account owner, or an admin is refused the whole call', async () => {
    const { accountId, userUuid } = await funded(10);
    for (const token of [await user.token('user', userUuid), await user.token('admin')]) {
      expect(await outcome(points.writeTokens({ writes: [hold(accountId, 1)] }, { token }))).toBe(
        '403 Only services may send token writes in batches',
      );
    }
    expect(await points.getTokenAccount({ accountId }, as())).toMatchObject({ account: { balance: 10, held: 0 } });
    expect(await outcome(points.writeTokens({ writes: Array.from({ length: 513 }, () => hold(accountId, 1)) }, as()))).toBe(
      '400 At most 512 writes a call',
    );
  });

  it('sends the writes asked for in one turn in one call, each caller getting its own answer or its own error', async () => {
    const accounts = await Promise.all(Array.from({ length: 5 }, () => funded(20)));
    calls.length = 0;
    const holds = await Promise.all(
      accounts.flatMap(({ accountId }) =>
        [1, 2, 3].map((amount) => writer.hold({ accountId, userUuid: '', amount, ttlSeconds: 0, reference: '', idempotencyKey: key() })),
      ),
    );
    expect(calls).toEqual([15]);
    expect(holds.map(({ transaction }) => transaction.amount)).toEqual(accounts.flatMap(() => [1, 2, 3]));
    expect(new Set(holds.map(({ transaction }) => transaction.id)).size).toBe(15);
    for (const [i, { accountId }] of accounts.entries()) {
      expect(holds.slice(3 * i, 3 * i + 3).every(({ transaction }) => transaction.accountId === accountId)).toBe(true);
    }

    // Mixed: commits, a short hold, an unknown hold and a void that comes too late, in one call; each error is the unary RPC's.
    calls.length = 0;
    const [a, b] = accounts;
    const short = { accountId: a!.accountId, userUuid: '', amount: 100, ttlSeconds: 0, reference: '', idempotencyKey: key() };
    const settled = await Promise.all([
      outcome(writer.commit({ holdId: holds[0]!.transaction.id, amount: 0, idempotencyKey: key() })),
      outcome(writer.hold(short)),
      outcome(writer.commit({ holdId: randomUUID(), amount: 0, idempotencyKey: key() })),
      outcome(writer.void({ holdId: holds[3]!.transaction.id, reason: '', idempotencyKey: key() })),
      outcome(writer.credit({ accountId: b!.accountId, userUuid: '', amount: 5, reason: '', reference: '', idempotencyKey: key() })),
    ]);
    expect(calls).toEqual([5]);
    expect(settled).toEqual(['ok', '402 Not enough tokens: 14 available, 100 needed', '404 Token hold not found', 'ok', 'ok']);
    const viaWriter = await writer.hold(short).catch((error: unknown) => error);
    const viaUnary = await points.holdTokens(short, as()).catch((error: unknown) => error);
    expect(viaWriter).toBeInstanceOf(AppError);
    expect(viaWriter).toEqual(viaUnary);
    const fields = (error: AppError) => [error.status, error.messages, error.message, error.code];
    expect(fields(viaWriter as AppError)).toEqual(fields(viaUnary as AppError));

    // A call refused as a whole fails each of its writes with that refusal.
    const refused = new TokenWriter(points, () => user.token('user'));
    expect(
      await Promise.all([
        outcome(refused.hold({ ...short, amount: 1, idempotencyKey: key() })),
        outcome(refused.commit({ holdId: holds[1]!.transaction.id, amount: 0, idempotencyKey: key() })),
      ]),
    ).toEqual(['403 Only services may send token writes in batches', '403 Only services may send token writes in batches']);
  });
});
