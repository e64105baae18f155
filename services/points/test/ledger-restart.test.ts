// The ledger under load through its gRPC API, with the service restarted in
// the middle (issue 16, Tests and figures). Thousands of holds, commits, voids,
// credits and consumable purchases run at once on one hot account and a few
// others, many of them sent twice at once under the same idempotency key;
// while they run the service stops and starts again on the same database and
// port, and some answers are lost on the way (the caller's deadline passes
// while the service still writes). Every request that failed, for the restart
// or its deadline, is sent again with its key until it is answered. user.signed-up events, each
// delivered three times, arrive before and during the restart. At the end the
// ledger must be balanced and never negative, every hold ended exactly one way
// (or still open and unexpired), no retried request or redelivered event have
// had a second effect, and N purchases of price a against B succeed floor(B / a) times.
import { randomUUID } from 'node:crypto';
import { UserSignedUp } from '@spinroom/contracts/events/v1/user_events';
import { ConsumableServiceClient } from '@spinroom/contracts/points/v1/shop';
import { TokenServiceClient } from '@spinroom/contracts/points/v1/tokens';
import {
  AppError,
  createGrpcClient,
  createLogger,
  dropDatabase,
  GrpcHealthChecker,
  KafkaClient,
  newEventMetadata,
  type EventProducer,
} from '@spinroom/platform';
import { eventually, testInfra, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { Kafka, logLevel } from 'kafkajs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPointsService, type RunningPointsService } from '../src/app.js';
import { replay, type LedgerRow } from '../src/domain/ledger.js';
import { fakeUserService, testPointsConfig } from './support.js';

type Kind = 'credit' | 'hold' | 'commit' | 'void' | 'purchase';

/** What the clients saw of one idempotency key: the ids of its successful answers, and its refusals. */
interface KeyRecord {
  kind: Kind;
  accountId: string;
  /** commit and void: the hold they name. */
  holdId?: string;
  ids: Set<string>;
  refusals: string[];
  replayed: number;
}

/** A refusal a request may end with here (anything else fails the test). */
const FINAL_REFUSALS: Record<Kind, RegExp> = {
  credit: /^$/,
  hold: /^402 Not enough tokens: \d+ available, \d+ needed$/,
  commit: /^409 This hold (was already (committed|voided)|expired at .* and its tokens were released)$/,
  void: /^409 This hold (was already (committed|voided)|expired at .* and its tokens were released)$/,
  purchase: /^402 Not enough tokens: \d+ available, \d+ needed$/,
};

type Settings = { deadlineMs?: number };
type Call<T> = (settings: Settings) => Promise<T>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the token ledger through gRPC, with the service restarted in the middle', () => {
  const databaseUrl = uniqueDatabaseUrl('points_restart');
  const kafka = new KafkaClient({ brokers: testInfra().kafkaBrokers, clientId: 'test', logger: createLogger('test', { level: 'silent' }) });
  let user: Awaited<ReturnType<typeof fakeUserService>>;
  let config: ReturnType<typeof testPointsConfig>;
  let service: RunningPointsService;
  let producer: EventProducer;
  let db: pg.Client;
  let points: ReturnType<typeof createGrpcClient<TokenServiceClient>>;
  let shop: ReturnType<typeof createGrpcClient<ConsumableServiceClient>>;

  /** Until it holds the key that verifies callers (NOT_SERVING before): the setup's calls are not retried. */
  async function serving(address: string): Promise<void> {
    const health = new GrpcHealthChecker();
    try {
      await eventually(async () => ((await health.serving(address)) ? true : undefined), 30_000);
    } finally {
      health.close();
    }
  }

  beforeAll(async () => {
    user = await fakeUserService();
    config = testPointsConfig(databaseUrl, user.address);
    // Its consumer group starts at the end of user-events: it reads this test's sign-ups, not the topic's history.
    await kafka.ensureTopics([{ topic: 'user-events' }]);
    const admin = new Kafka({ brokers: testInfra().kafkaBrokers, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    // The topic's current ends, as numbers: kafkajs's resetOffsets to latest commits -1, which a
    // consumer reads as no offset at all and so starts from the beginning (the kit's default).
    const ends = await admin.fetchTopicOffsets('user-events');
    await admin.setOffsets({
      groupId: config.KAFKA_CONSUMER_GROUP,
      topic: 'user-events',
      partitions: ends.map(({ partition, high }) => ({ partition, offset: high })),
    });
    await admin.disconnect();
    service = await startPointsService(config);
    config = { ...config, GRPC_PORT: service.port }; // the restart binds the same port
    const address = `127.0.0.1:${service.port}`;
    await serving(address);
    points = createGrpcClient(TokenServiceClient, address, { deadlineMs: 30_000 });
    shop = createGrpcClient(ConsumableServiceClient, address, { deadlineMs: 30_000 });
    producer = await kafka.producer();
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    points?.close();
    shop?.close();
    await db?.end();
    await producer?.disconnect();
    await service?.stop();
    await user?.stop();
    await dropDatabase(databaseUrl);
  });

  it('ends balanced, never negative, every hold ended once or open, no double effect, floor(B / a) purchases', async () => {
    const service_ = await user.token('service', 'service:room');
    const admin = await user.token('admin');
    const keys = new Map<string, KeyRecord>();
    let answered = 0;
    let transient = 0;
    let lastExpiry = 0;
    let sent = 0;
    const RESTART_AFTER = 800; // answers before the restart: about a third of the run
    let reachedRestart!: () => void;
    const restartPoint = new Promise<void>((resolve) => {
      reachedRestart = resolve;
    });

    // At most IN_FLIGHT requests (with their retries) at once, as a caller with a bounded pool of calls (the BFF) sends them.
    const IN_FLIGHT = 64;
    let inFlight = 0;
    const queue: Array<() => void> = [];
    async function limited<T>(call: () => Promise<T>): Promise<T> {
      if (inFlight < IN_FLIGHT) inFlight += 1;
      else await new Promise<void>((resolve) => queue.push(resolve)); // the slot is handed over
      try {
        return await call();
      } finally {
        const next = queue.shift();
        if (next) next();
        else inFlight -= 1;
      }
    }

    /** Sends until answered: a failure of the service's (5xx: unavailable, deadline) is sent again, same key. */
    const untilAnswered = <T>(call: Call<T>, loseFirstAnswer: boolean) =>
      limited(async (): Promise<{ value?: T; refusal?: string }> => {
        const giveUp = Date.now() + 60_000;
        for (let wait = 20, attempt = 0; ; wait = Math.min(wait * 2, 250), attempt += 1) {
          try {
            // A first attempt with a 2 ms deadline: the caller gives up while the service goes on and writes.
            const value = await call(attempt === 0 && loseFirstAnswer ? { deadlineMs: 2 } : {});
            if (++answered === RESTART_AFTER) reachedRestart();
            return { value };
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            if (error.status < 500) {
              if (++answered === RESTART_AFTER) reachedRestart();
              return { refusal: `${error.status} ${error.message}` };
            }
            transient += 1;
            if (Date.now() > giveUp) throw error;
            await sleep(wait);
          }
        }
      });

    /** One request under a key, sent once or twice at once (a client's retry); undefined when refused. */
    async function send<T extends { replayed: boolean }>(
      kind: Kind,
      record: { accountId: string; holdId?: string },
      key: string,
      twice: boolean,
      call: Call<T>,
      id: (answer: T) => string,
    ): Promise<T | undefined> {
      const entry: KeyRecord = { kind, ...record, ids: new Set(), refusals: [], replayed: 0 };
      keys.set(key, entry);
      const answers = await Promise.all(
        Array.from({ length: twice ? 2 : 1 }, (_, copy) => untilAnswered(call, copy === 0 && ++sent % 7 === 0)),
      );
      let first: T | undefined;
      for (const answer of answers) {
        if (answer.value) {
          entry.ids.add(id(answer.value));
          if (answer.value.replayed) entry.replayed += 1;
          first ??= answer.value;
        } else entry.refusals.push(answer.refusal!);
      }
      return first;
    }

    const transactionId = (answer: { transaction?: { id: string } }) => answer.transaction!.id;

    // The accounts: a hot one, three others, and one for the floor(B / a) purchases.
    async function account(credit: number) {
      const userUuid = randomUUID();
      const token = await user.token('user', userUuid);
      const { account } = await points.createTokenAccount({ userUuid: '' }, { token });
      const key = randomUUID();
      await points.creditTokens(
        { accountId: account!.id, userUuid: '', amount: credit, reason: 'test', reference: key, idempotencyKey: key },
        { token: service_ },
      );
      keys.set(key, { kind: 'credit', accountId: account!.id, ids: new Set(['initial']), refusals: [], replayed: 0 });
      return { id: account!.id, userUuid, token };
    }
    const hot = await account(6_000);
    const others = await Promise.all([account(1_500), account(1_500), account(1_500)]);
    const B = 1_000;
    const a = 7;
    const N = 200;
    const floorAccount = await account(B);
    const { consumable: sticker } = await shop.createConsumable(
      { name: 'Sticker', description: '', tokenCost: 5, displayType: 'small' },
      { token: admin },
    );
    const { consumable: priced } = await shop.createConsumable(
      { name: 'Cake', description: '', tokenCost: a, displayType: 'cover' },
      { token: admin },
    );
    const roomUuid = randomUUID();

    /** Holds on an account, each then ended one way: committed (all or part), voided, left open, left to expire, or raced. */
    const holdsOn = (acct: { id: string; token: string }, count: number) =>
      Array.from({ length: count }, async (_, i) => {
        const amount = 1 + (i % 20);
        const way = i % 10;
        const shortLived = way === 7 || way === 8;
        const token = i % 2 ? acct.token : service_;
        const holdKey = randomUUID();
        const hold = await send(
          'hold',
          { accountId: acct.id },
          holdKey,
          i % 3 === 0,
          (settings: Settings) =>
            points.holdTokens(
              { accountId: acct.id, userUuid: '', amount, ttlSeconds: shortLived ? 1 : 600, reference: holdKey, idempotencyKey: holdKey },
              { token, ...settings },
            ),
          transactionId,
        );
        if (!hold) return; // 402: the balance was short at that moment
        const holdId = hold.transaction!.id;
        if (shortLived) lastExpiry = Math.max(lastExpiry, hold.transaction!.expiresAt!.getTime());
        const twice = i % 5 === 0;
        const end = (how: 'all' | 'part' | 'void') => {
          const key = randomUUID();
          const record = { accountId: acct.id, holdId };
          return how === 'void'
            ? send(
                'void',
                record,
                key,
                twice,
                (settings: Settings) => points.voidHold({ holdId, reason: 'test', idempotencyKey: key }, { token, ...settings }),
                transactionId,
              )
            : send(
                'commit',
                record,
                key,
                twice,
                (settings: Settings) =>
                  points.commitHold(
                    { holdId, amount: how === 'part' ? Math.ceil(amount / 2) : 0, idempotencyKey: key },
                    { token: service_, ...settings },
                  ),
                transactionId,
              );
        };
        if (way <= 2 || way === 8)
          await end('all'); // 8: its hold may have expired first
        else if (way === 3) await end('part');
        else if (way <= 5) await end('void');
        else if (way === 9) await Promise.all([end('all'), end('void')]); // two endings race: one wins
        // 6: left open (ten minutes); 7: left to expire (a second).
      });

    const purchasesOn = (acct: { id: string; token: string }, consumableId: string, count: number) =>
      Array.from({ length: count }, async (_, i) => {
        const key = randomUUID();
        // The owner buys with its own account, or a service names it.
        const [accountId, token] = i % 2 ? ['', acct.token] : [acct.id, service_];
        await send(
          'purchase',
          { accountId: acct.id },
          key,
          i % 4 === 0,
          (settings: Settings) =>
            shop.purchaseConsumable(
              { roomUuid, consumableId, accountId, balanceUnmodifiedSince: undefined, idempotencyKey: key },
              { token, ...settings },
            ),
          (answer) => answer.purchase!.id,
        );
      });

    const creditsOn = (acct: { id: string }, count: number) =>
      Array.from({ length: count }, async () => {
        const key = randomUUID();
        await send(
          'credit',
          { accountId: acct.id },
          key,
          true,
          (settings: Settings) =>
            points.creditTokens(
              { accountId: acct.id, userUuid: '', amount: 40, reason: 'reward', reference: key, idempotencyKey: key },
              { token: service_, ...settings },
            ),
          transactionId,
        );
      });

    // Sign-ups, each delivered three times (a redelivery keeps its event id): half now, half as the service stops.
    const signUps = Array.from({ length: 40 }, () => {
      const userUuid = randomUUID();
      const eventId = randomUUID();
      const value = UserSignedUp.encode({
        metadata: { ...newEventMetadata('user.signed-up'), eventId },
        userUuid,
        email: `${userUuid}@example.com`,
        nickname: 'N',
        kind: 'user',
      }).finish();
      const message = {
        topic: 'user-events',
        key: userUuid,
        value: Buffer.from(value),
        headers: { 'event-id': eventId, 'event-type': 'user.signed-up' },
      };
      return { userUuid, eventId, messages: [message, message, message] };
    });
    await producer.send(signUps.slice(0, 20).flatMap((s) => s.messages));

    const work = [
      ...holdsOn(hot, 600),
      ...purchasesOn(hot, sticker!.id, 150),
      ...creditsOn(hot, 20),
      ...others.flatMap((other) => [...holdsOn(other, 80), ...purchasesOn(other, sticker!.id, 20)]),
      ...purchasesOn(floorAccount, priced!.id, N),
    ];

    const finished = Promise.all(work);
    finished.catch(() => undefined); // awaited below, after the restart
    // The restart, once a third of the answers are in: the service stops while requests are in flight and
    // refuses the ones that come meanwhile (UNAVAILABLE); then it starts again.
    await restartPoint;
    const failedBefore = transient;
    await producer.send(signUps.slice(20).flatMap((s) => s.messages));
    await service.stop();
    service = await startPointsService(config);
    expect(service.port).toBe(config.GRPC_PORT);
    await serving(`127.0.0.1:${service.port}`);

    await finished;
    // Requests failed because of the restart and were sent again until answered.
    expect(transient).toBeGreaterThan(failedBefore);

    // Every short-lived hold left open is past its time now: reading an account voids its due holds.
    await sleep(Math.max(0, lastExpiry - Date.now() + 50));

    const refusedWrongly = [...keys.values()].flatMap((k) =>
      k.refusals.filter((r) => !FINAL_REFUSALS[k.kind].test(r)).map((r) => `${k.kind}: ${r}`),
    );
    expect(refusedWrongly).toEqual([]);
    // A key's answers are all the same answer (one effect, told again); duplicates were answered from the key.
    expect([...keys.entries()].filter(([, k]) => k.ids.size > 1)).toEqual([]);
    expect([...keys.values()].reduce((sum, k) => sum + k.replayed, 0)).toBeGreaterThan(0);

    for (const acct of [hot, ...others, floorAccount]) {
      const { account } = await points.getTokenAccount({ accountId: acct.id }, { token: service_ });
      const rows = (
        await db.query<Record<string, string | boolean | null>>(
          `select "id", "seq", "type", "amount", "hold_id", "reference", "expires_at", "expired", "balance_after", "held_after"
             from "token_transaction" where "account_id" = $1 order by "seq"`,
          [acct.id],
        )
      ).rows;
      const ledger: LedgerRow[] = rows.map((r) => ({
        id: String(r.id),
        sequence: Number(r.seq),
        type: r.type as LedgerRow['type'],
        amount: Number(r.amount),
        holdId: (r.hold_id as string | null) ?? null,
        balance: Number(r.balance_after),
        held: Number(r.held_after),
      }));
      const replayed = replay(ledger);
      // Balanced: the account's totals are the replay of its transactions, and no row ever recorded a negative balance.
      expect(replayed.problems).toEqual([]);
      expect({ credited: account!.credited, spent: account!.spent, held: account!.held }).toEqual(replayed.totals);
      expect(account!.balance).toBe(replayed.totals.credited - replayed.totals.spent - replayed.totals.held);
      expect(Math.min(...ledger.map((r) => r.balance))).toBeGreaterThanOrEqual(0);

      // One row per effect: each credit and hold key made exactly one row (its reference), each refused key none.
      const mine = [...keys.entries()].filter(([, k]) => k.accountId === acct.id);
      const byReference = new Map<string, string[]>();
      for (const r of rows) byReference.set(String(r.reference), [...(byReference.get(String(r.reference)) ?? []), String(r.id)]);
      for (const [key, k] of mine.filter(([, k]) => k.kind === 'credit' || k.kind === 'hold')) {
        const made = byReference.get(key) ?? [];
        if (k.ids.size === 0) expect(made, `refused ${k.kind} ${key}`).toEqual([]);
        else if (!k.ids.has('initial')) expect(made, `${k.kind} ${key}`).toEqual([...k.ids]);
        else expect(made).toHaveLength(1);
      }
      // Purchases: one consumable_purchase (and one hold and its commit) per key that succeeded.
      const bought = mine.filter(([, k]) => k.kind === 'purchase' && k.ids.size === 1).map(([, k]) => [...k.ids][0]);
      const purchases = (
        await db.query<{ id: string; hold_id: string; commit_id: string }>(
          `select "id", "hold_id", "commit_id" from "consumable_purchase" where "account_id" = $1`,
          [acct.id],
        )
      ).rows;
      expect(purchases.map((p) => p.id).sort()).toEqual(bought.sort());
      for (const p of purchases) expect(replayed.endings.get(p.hold_id)).toBe('commit');
      const holdKeys = mine.filter(([, k]) => k.kind === 'hold' && k.ids.size === 1).length;
      expect(ledger.filter((r) => r.type === 'hold')).toHaveLength(holdKeys + purchases.length);

      // Every hold ended exactly one way, as its clients were told, or is still open and not yet expired.
      const ends = new Map<string, Array<{ kind: Kind; id: string }>>();
      for (const [, k] of mine.filter(([, k]) => (k.kind === 'commit' || k.kind === 'void') && k.ids.size === 1)) {
        ends.set(k.holdId!, [...(ends.get(k.holdId!) ?? []), { kind: k.kind, id: [...k.ids][0]! }]);
      }
      const byId = new Map(rows.map((r) => [String(r.id), r]));
      for (const [holdId, told] of ends) {
        expect(told, `hold ${holdId} ended once`).toHaveLength(1);
        const ending = byId.get(told[0]!.id)!;
        expect([ending.type, ending.hold_id, ending.expired]).toEqual([told[0]!.kind === 'commit' ? 'commit' : 'voided', holdId, false]);
      }
      const open = (
        await db.query<{ hold_id: string; expires_at: Date }>(
          `select "hold_id", "expires_at" from "token_open_hold" where "account_id" = $1`,
          [acct.id],
        )
      ).rows;
      expect(open.map((o) => o.hold_id).sort()).toEqual([...replayed.openHolds.keys()].sort());
      for (const hold of open) expect(new Date(hold.expires_at).getTime()).toBeGreaterThan(Date.now());
      const purchaseHolds = new Set(purchases.map((p) => p.hold_id));
      for (const r of rows.filter((r) => r.type === 'hold' && !purchaseHolds.has(String(r.id)))) {
        const ending = rows.find((e) => e.hold_id === r.id);
        const id = String(r.id);
        if (!ending) expect(replayed.openHolds.has(id)).toBe(true);
        else if (!ends.has(id))
          expect([ending.type, ending.expired], `hold ${id}: nobody was told it ended, so it expired`).toEqual(['voided', true]);
      }
    }

    // N parallel purchases of price a against B: exactly floor(B / a) succeeded, the rest were refused as short.
    const floorKeys = [...keys.values()].filter((k) => k.accountId === floorAccount.id && k.kind === 'purchase');
    expect(floorKeys).toHaveLength(N);
    expect(floorKeys.filter((k) => k.ids.size === 1)).toHaveLength(Math.floor(B / a));
    expect(floorKeys.filter((k) => k.ids.size === 0)).toHaveLength(N - Math.floor(B / a));
    expect((await points.getTokenAccount({ accountId: floorAccount.id }, { token: service_ })).account).toMatchObject({
      balance: B % a,
      spent: B - (B % a),
      held: 0,
    });

    // Each sign-up made one account, however often it was delivered and across the restart.
    await eventually(async () => {
      const { rows } = await db.query<{ n: number }>(
        `select count(*)::int as "n" from "token_account" where "user_uuid" = any($1::uuid[])`,
        [signUps.map((s) => s.userUuid)],
      );
      return rows[0]!.n === signUps.length ? true : undefined;
    }, 30_000);
    const made = await db.query<{ user_uuid: string; n: number; credited: string }>(
      `select "user_uuid", count(*)::int as "n", sum("credited") as "credited" from "token_account" where "user_uuid" = any($1::uuid[]) group by "user_uuid"`,
      [signUps.map((s) => s.userUuid)],
    );
    expect(made.rows.filter((r) => r.n !== 1 || r.credited !== '0')).toEqual([]);
    const processed = await db.query<{ event_id: string; n: number }>(
      `select "event_id", count(*)::int as "n" from "processed_event" where "consumer" = $1 and "event_id" = any($2::uuid[]) group by "event_id"`,
      [config.KAFKA_CONSUMER_GROUP, signUps.map((s) => s.eventId)],
    );
    expect(processed.rows.map((r) => r.n)).toEqual(signUps.map(() => 1));
  }, 120_000);
});
