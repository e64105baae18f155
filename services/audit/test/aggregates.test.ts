// The play-tracking aggregates of the audit service alone (a stand-in user
// service, the real PostgreSQL and Kafka): records sent through its gRPC API
// are counted once per play id and kind, also when Kafka hands the same
// message over again (produced a second time here, as a redelivery would).
import { randomUUID } from 'node:crypto';
import { AuditServiceClient } from '@spinroom/contracts/audit/v1/audit';
import { createGrpcClient, createLogger, dropDatabase, KafkaClient } from '@spinroom/platform';
import { eventually, uniqueDatabaseUrl, testInfra } from '@spinroom/platform/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuditService, type RunningAuditService } from '../src/app.js';
import { validateRecord } from '../src/domain/analytics.js';
import type { PlayEvent } from '../src/domain/plays.js';
import { recordMessage } from '../src/events/analytics-records.js';
import { fakeUserService, playRecord, testAuditConfig } from './support.js';

describe('play-tracking aggregates', () => {
  const databaseUrl = uniqueDatabaseUrl('audit_aggregates');
  let user: Awaited<ReturnType<typeof fakeUserService>>;
  let service: RunningAuditService;
  let client: ReturnType<typeof createGrpcClient<AuditServiceClient>>;

  beforeAll(async () => {
    user = await fakeUserService();
    service = await startAuditService(testAuditConfig(databaseUrl, user.address));
    client = createGrpcClient(AuditServiceClient, `127.0.0.1:${service.port}`);
    await eventually(
      async () => (await client.getSocketEventNames({}, { token: await user.token('admin') }).catch(() => undefined)) && true,
      30_000,
    );
  });
  afterAll(async () => {
    client?.close();
    await service?.stop();
    await user?.stop();
    await dropDatabase(databaseUrl);
  });

  it('counts each play id and kind once, whatever is sent or delivered again', async () => {
    const userUuid = randomUUID();
    const token = await user.token('user', userUuid);
    const songId = `song-${randomUUID()}`;
    const record = playRecord(userUuid, 'totalPlayed', { songInfo: { songId, duration: 30 } });
    for (let i = 0; i < 3; i += 1) {
      await client.recordAnalytics({ topic: 'play-tracking', recordJson: JSON.stringify(record) }, { token });
    }
    // The same Kafka message twice, as a redelivery after a crash would hand it over.
    const kafka = new KafkaClient({
      brokers: testInfra().kafkaBrokers,
      clientId: 'audit-test',
      logger: createLogger('test', { level: 'silent' }),
    });
    const producer = await kafka.producer();
    const other = playRecord(userUuid, 'played30Sec', { songInfo: { songId } });
    const { message } = recordMessage(
      validateRecord({ userUuid, role: 'user', kind: 'user', capabilities: [], token: '' }, 'play-tracking', JSON.stringify(other)),
    );
    await producer.send([message, message]);
    await producer.disconnect();

    const admin = await user.token('admin');
    const totals = await eventually(async () => {
      const answer = (await client.getPlayTotals({ scope: 'song', key: songId }, { token: admin })).totals!;
      return answer.totalPlayed === 1 && answer.thirtySecondPlays === 1 ? answer : undefined;
    }, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await client.getPlayTotals({ scope: 'song', key: songId }, { token: admin })).toEqual({
      totals: { totalPlayed: 1, playedSeconds: 35, fifteenSecondPlays: 0, thirtySecondPlays: 1 },
    });
    expect(totals.playedSeconds).toBe(35);
    expect((await client.getPlayTotals({ scope: 'user', key: userUuid }, { token: admin })).totals).toEqual(totals);
    await expect(client.getPlayTotals({ scope: 'user', key: userUuid }, { token })).rejects.toMatchObject({ status: 403 });
    await expect(client.getPlayTotals({ scope: 'planet', key: 'x' }, { token: admin })).rejects.toMatchObject({ status: 400 });
  });

  it("takes a batch of several callers' records in one call, each checked with its own token and answered on its own", async () => {
    const ann = randomUUID();
    const bob = randomUUID();
    const [annToken, bobToken, serviceToken] = await Promise.all([
      user.token('user', ann),
      user.token('guest', bob),
      user.token('service'),
    ]);
    const songId = `song-${randomUUID()}`;
    const play = (userUuid: string) => playRecord(userUuid, 'totalPlayed', { songInfo: { songId, duration: 30 } });
    const mine = play(ann);
    const input = (accessToken: string, record: unknown, topic = 'play-tracking') => ({
      accessToken,
      topic,
      recordJson: typeof record === 'string' ? record : JSON.stringify(record),
    });
    const { results } = await client.recordAnalyticsBatch({
      records: [
        input(annToken, mine),
        input(bobToken, play(bob)),
        input(annToken, play(bob)),
        input('not-a-token', play(ann)),
        input(bobToken, '{"event":'),
        input(bobToken, play(bob), 'clicks'),
        input(serviceToken, play(ann)),
        input(annToken, mine),
      ],
    });
    const refusal = (status: number, message: unknown) => ({
      recordId: '',
      topic: '',
      error: { httpStatus: status, messagesJson: JSON.stringify(message), code: '' },
    });
    expect(results).toEqual([
      { recordId: expect.stringMatching(/^[0-9a-f-]{36}$/), topic: 'play-tracking' },
      { recordId: expect.stringMatching(/^[0-9a-f-]{36}$/), topic: 'play-tracking' },
      refusal(403, 'A record may only be sent for its own user'),
      refusal(401, 'Unauthorized'),
      refusal(400, 'record: must be a JSON object'),
      refusal(400, 'topic: must be one of play-tracking, page-views, app-events'),
      refusal(403, 'Records come from users'),
      { recordId: expect.stringMatching(/^[0-9a-f-]{36}$/), topic: 'play-tracking' },
    ]);
    // Ann's play sent twice counts once, with Bob's.
    const admin = await user.token('admin');
    await eventually(
      async () =>
        (await client.getPlayTotals({ scope: 'song', key: songId }, { token: admin })).totals!.totalPlayed === 2 ? true : undefined,
      30_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await client.getPlayTotals({ scope: 'song', key: songId }, { token: admin })).totals!.totalPlayed).toBe(2);
    const tooMany = Array.from({ length: 5001 }, () => input(annToken, mine));
    await expect(client.recordAnalyticsBatch({ records: tooMany })).rejects.toMatchObject({ status: 400 });
  });

  it('sums a batch per scope and key in one statement, skipping empty keys, and adds nothing for what it counted before', async () => {
    const [u1, u2, d1, s1, s2, r1] = [
      randomUUID(),
      randomUUID(),
      randomUUID(),
      `song-${randomUUID()}`,
      `song-${randomUUID()}`,
      `room-${randomUUID()}`,
    ];
    const play = (kind: PlayEvent['kind'], overrides: Partial<PlayEvent> = {}): PlayEvent => ({
      kind,
      playId: 'p1',
      userUuid: u1,
      songId: s1,
      djUuid: d1,
      roomSlug: r1,
      startedDate: new Date(0),
      updatedDate: new Date(100_000),
      duration: 0,
      ...overrides,
    });
    const p1 = `p1-${randomUUID()}`;
    const p2 = `p2-${randomUUID()}`;
    const batch = [
      play('totalPlayed', { playId: p1 }),
      play('played15Sec', { playId: p1 }),
      play('totalPlayed', { playId: p1 }), // the same play and kind twice in a batch: once
      play('played30Sec', { playId: p1, songId: s2, djUuid: '' }),
      play('totalPlayed', { playId: p2, userUuid: u2 }),
    ];
    const at = new Date();
    const events = [
      { userUuid: u1, name: 'played15Sec', topic: 'play-tracking', occurredAt: new Date(at.getTime() - 1000), detail: {} },
      { userUuid: u1, name: 'totalPlayed', topic: 'play-tracking', occurredAt: at, detail: { playId: p1 } },
    ];
    expect(await service.plays.count(batch, events)).toBe(4);
    const totals = (scope: 'song' | 'dj' | 'room' | 'user', key: string) => service.plays.totals(scope, key);
    expect(await totals('user', u1)).toEqual({ totalPlayed: 1, playedSeconds: 100, fifteenSecondPlays: 1, thirtySecondPlays: 1 });
    expect(await totals('user', u2)).toEqual({ totalPlayed: 1, playedSeconds: 100, fifteenSecondPlays: 0, thirtySecondPlays: 0 });
    expect(await totals('room', r1)).toEqual({ totalPlayed: 2, playedSeconds: 200, fifteenSecondPlays: 1, thirtySecondPlays: 1 });
    expect(await totals('song', s2)).toEqual({ totalPlayed: 0, playedSeconds: 0, fifteenSecondPlays: 0, thirtySecondPlays: 1 });
    // The 30-second event without a DJ counts nowhere under dj.
    expect(await totals('dj', d1)).toEqual({ totalPlayed: 2, playedSeconds: 200, fifteenSecondPlays: 1, thirtySecondPlays: 0 });
    expect(await totals('dj', '')).toEqual({ totalPlayed: 0, playedSeconds: 0, fifteenSecondPlays: 0, thirtySecondPlays: 0 });
    expect(await service.plays.lastEvent(u1)).toMatchObject({ name: 'totalPlayed', occurredAt: at });

    // Delivered again with one new play: only that one counts; an older event leaves the last one alone.
    const p3 = `p3-${randomUUID()}`;
    const older = { userUuid: u1, name: 'pageView', topic: 'page-views', occurredAt: new Date(at.getTime() - 5000), detail: {} };
    expect(await service.plays.count([...batch, play('played15Sec', { playId: p3 })], [older])).toBe(1);
    expect(await totals('user', u1)).toEqual({ totalPlayed: 1, playedSeconds: 100, fifteenSecondPlays: 2, thirtySecondPlays: 1 });
    expect(await totals('room', r1)).toEqual({ totalPlayed: 2, playedSeconds: 200, fifteenSecondPlays: 2, thirtySecondPlays: 1 });
    expect(await service.plays.lastEvent(u1)).toMatchObject({ name: 'totalPlayed' });
    expect(await service.plays.count([], [])).toBe(0);
  });

  it('forgets counted plays older than the retention, in batches, keeping their totals', async () => {
    const userUuid = randomUUID();
    const token = await user.token('user', userUuid);
    const songId = `song-${randomUUID()}`;
    const record = playRecord(userUuid, 'totalPlayed', { songInfo: { songId, duration: 30 } });
    await client.recordAnalytics({ topic: 'play-tracking', recordJson: JSON.stringify(record) }, { token });
    const admin = await user.token('admin');
    await eventually(
      async () =>
        (await client.getPlayTotals({ scope: 'song', key: songId }, { token: admin })).totals!.totalPlayed === 1 ? true : undefined,
      30_000,
    );

    // Five plays counted 40 days ago, and the one just counted.
    const sql = new pg.Client({ connectionString: databaseUrl });
    await sql.connect();
    try {
      for (let i = 0; i < 5; i += 1) {
        await sql.query(`insert into "play_event_seen" ("play_id", "kind", "seen_at") values ($1, 1, now() - interval '40 days')`, [
          `old-${randomUUID()}`,
        ]);
      }
      // Only this test's rows: other tests' plays on the shared topic are counted here too meanwhile.
      const old = async () =>
        Number((await sql.query(`select count(*) as n from "play_event_seen" where "play_id" like 'old-%'`)).rows[0].n);
      const recent = async () =>
        Number((await sql.query(`select count(*) as n from "play_event_seen" where "play_id" = $1`, [record.playId])).rows[0].n);
      expect(await old()).toBe(5);
      const status = async () => (await client.getAuditServiceStatus({}, { token: admin })).playsCounted;
      const countedBefore = await status();
      expect(await service.plays.forgetSeen(new Date(Date.now() - 35 * 86_400_000), 2)).toBe(5);
      expect(await old()).toBe(0);
      expect(await recent()).toBe(1);
      // The play just counted is still guarded: sent again, it adds nothing.
      await client.recordAnalytics({ topic: 'play-tracking', recordJson: JSON.stringify(record) }, { token });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await client.getPlayTotals({ scope: 'song', key: songId }, { token: admin })).totals!.totalPlayed).toBe(1);
      // The status counts plays from the totals, which pruning leaves alone (other tests' plays on the
      // shared topic may add to them meanwhile, never take away).
      expect(await status()).toBeGreaterThanOrEqual(countedBefore);
    } finally {
      await sql.end();
    }
  });
});
