import { randomUUID } from 'node:crypto';
import { SongPlayed } from '@spinroom/contracts/events/v1/room_events';
import { UserSignedUp } from '@spinroom/contracts/events/v1/user_events';
import { createLogger, dropDatabase, headersToRecord, KafkaClient, newEventMetadata, type EventProducer } from '@spinroom/platform';
import { eventually, testInfra, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import type { Consumer } from 'kafkajs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPointsService, type RunningPointsService } from '../src/app.js';

describe('token accounts and points follow user-events and room-events', () => {
  const databaseUrl = uniqueDatabaseUrl('points_user_events');
  const kafka = new KafkaClient({ brokers: testInfra().kafkaBrokers, clientId: 'test', logger: createLogger('test', { level: 'silent' }) });
  let service: RunningPointsService;
  let producer: EventProducer;
  let dlqReader: Consumer;
  const deadLetters: Array<Record<string, string>> = [];
  let db: pg.Client;

  beforeAll(async () => {
    service = await startPointsService({
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS: testInfra().kafkaBrokers,
      REDIS_URL: testInfra().redisUrl,
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: 0,
      USER_ADDR: '127.0.0.1:1', // no caller in this test: only the consumer works
      ROOM_ADDR: '127.0.0.1:1',
      PAYMENT_ADDR: '127.0.0.1:1',
      SERVICE_CLIENT_SECRET: 'points-test-service-client-secret-0123456789',
      JWT_ISSUER: 'spinroom',
      KAFKA_CONSUMER_GROUP: `points-${randomUUID()}`,
      TOKEN_HOLD_TTL_SECONDS: 600,
      TOKEN_HOLD_MAX_TTL_SECONDS: 86_400,
      TOKEN_SWEEP_MS: 1000,
      TOKEN_IDEMPOTENCY_KEY_HOURS: 24,
      TOKEN_WRITE_LANES: 2,
      TOKEN_WRITE_BATCH: 64,
      POINTS_MIN_LISTEN_SECONDS: 30,
      POINTS_MIN_ACCOUNT_AGE_HOURS: 24,
      OUTBOX_POLL_MS: 100,
      OUTBOX_RETENTION_HOURS: 168,
      LOG_LEVEL: 'silent',
    });
    producer = await kafka.producer();
    dlqReader = kafka.consumer(`points-dlq-${randomUUID()}`);
    await dlqReader.connect();
    await dlqReader.subscribe({ topic: 'user-events.dlq', fromBeginning: true });
    await dlqReader.run({
      eachMessage: async ({ message }) => {
        deadLetters.push(headersToRecord(message.headers));
      },
    });
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    await db.end();
    await dlqReader.disconnect();
    await producer.disconnect();
    await service.stop();
    await dropDatabase(databaseUrl);
  });

  const signedUp = (userUuid: string, eventId = randomUUID(), occurredAt = new Date()) => {
    const metadata = { ...newEventMetadata('user.signed-up'), eventId, occurredAt };
    const value = UserSignedUp.encode({ metadata, userUuid, email: `${userUuid}@example.com`, nickname: 'N', kind: 'user' }).finish();
    return {
      topic: 'user-events',
      key: userUuid,
      value: Buffer.from(value),
      headers: { 'event-id': eventId, 'event-type': 'user.signed-up' },
    };
  };
  const accounts = async (userUuid: string) =>
    (await db.query(`select "id", "status", "credited", "held", "spent" from "token_account" where "user_uuid" = $1`, [userUuid])).rows;

  it('creates the account of a new user once, however often its sign-up is delivered', async () => {
    const userUuid = randomUUID();
    const event = signedUp(userUuid);
    // Delivered three times (a redelivery keeps its event id), and once more under a new id.
    await producer.send([event, event, event, signedUp(userUuid)]);
    const [account] = await eventually(async () => {
      const rows = await accounts(userUuid);
      return rows.length > 0 ? rows : undefined;
    }, 60_000);
    expect(account).toMatchObject({ status: 'active', credited: '0', held: '0', spent: '0' });
    // A later event in the same partition (same key) shows that all four were handled.
    const marker = signedUp(randomUUID());
    await producer.send([{ ...marker, key: userUuid }]);
    await eventually(async () => ((await accounts(marker.key)).length > 0 ? true : undefined), 60_000);
    expect(await accounts(userUuid)).toHaveLength(1);
    const processed = await db.query(`select count(*)::int as "n" from "processed_event" where "event_id" = $1`, [
      event.headers['event-id'],
    ]);
    expect(processed.rows[0].n).toBe(1);
  }, 90_000);

  it('sends an event it cannot handle to user-events.dlq and goes on', async () => {
    const broken = signedUp('not-a-uuid');
    const after = signedUp(randomUUID());
    await producer.send([broken]);
    await producer.send([after]);
    const dead = await eventually(async () => deadLetters.find((h) => h['event-id'] === broken.headers['event-id']), 30_000);
    expect(dead['dlq-error']).toMatch(/without a valid user uuid/);
    await eventually(async () => ((await accounts(after.key)).length > 0 ? true : undefined), 60_000);
  }, 90_000);

  it('gives a DJ points from a played song once, however often its event comes, and only for votes that count', async () => {
    const dj = randomUUID();
    const fan = randomUUID();
    const newcomer = randomUUID();
    const guest = randomUUID();
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await producer.send([signedUp(dj, randomUUID(), twoDaysAgo), signedUp(fan, randomUUID(), twoDaysAgo), signedUp(newcomer)]);
    await eventually(async () => {
      const { rows } = await db.query(`select count(*)::int as "n" from "user_signup" where "user_uuid" = any($1)`, [[dj, fan, newcomer]]);
      return rows[0].n === 3 ? true : undefined;
    }, 60_000);
    const startedAt = new Date(Date.now() - 120_000);
    const at = (seconds: number) => new Date(startedAt.getTime() + seconds * 1000);
    const playId = randomUUID();
    const played = (eventId = randomUUID(), play = { playId, djUuid: dj }) => {
      const metadata = { ...newEventMetadata('room.song-played'), eventId };
      const value = SongPlayed.encode({
        metadata,
        roomUuid: randomUUID(),
        roomSlug: 'r',
        ...play,
        startedAt,
        endedAt: at(90),
        likes: 3,
        dislikes: 0,
        stars: 0,
        listeners: 4,
        audience: [
          { userUuid: fan, tokenRole: 'user', listeningSince: startedAt, likedAt: at(40) },
          { userUuid: newcomer, tokenRole: 'user', listeningSince: startedAt, likedAt: at(45) },
          { userUuid: guest, tokenRole: 'guest', listeningSince: startedAt, likedAt: at(50) },
          { userUuid: dj, tokenRole: 'user', listeningSince: startedAt, likedAt: at(60) },
        ],
      }).finish();
      return {
        topic: 'room-events',
        key: playId,
        value: Buffer.from(value),
        headers: { 'event-id': eventId, 'event-type': 'room.song-played' },
      };
    };
    const event = played();
    // Delivered twice (a redelivery keeps its event id), and twice more under new ids (the room service announcing it again).
    await producer.send([event, event, played(), played()]);
    // A later play in the same partition (same key) shows that all four were handled.
    const otherDj = randomUUID();
    await producer.send([played(randomUUID(), { playId: randomUUID(), djUuid: otherDj })]);
    const lifetime = async (userUuid: string) =>
      (await db.query(`select "balance" from "ranking_status_lifetime" where "user_uuid" = $1`, [userUuid])).rows[0]?.balance as
        | string
        | undefined;
    // Its DJ earns the fan's and the first DJ's up-votes and the play.
    await eventually(async () => ((await lifetime(otherDj)) === '3' ? true : undefined), 60_000);
    // The fan's up-vote and the play heard by the fan: 2 points; the newcomer's, the guest's and the DJ's own votes earn nothing.
    expect(await lifetime(dj)).toBe('2');
    const points = await db.query(`select "kind", "amount", "season_id" from "point" where "reference" = $1 order by "kind"`, [playId]);
    expect(points.rows).toEqual([
      { kind: 'play', amount: '1', season_id: null },
      { kind: 'upvotes', amount: '1', season_id: null },
    ]);
  }, 120_000);
});
