import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { StageChanged } from '@spinroom/contracts/events/v1/room_events';
import { createLogger, KafkaClient, openServiceDatabase, startIdempotentConsumer, type ReceivedEvent } from '@spinroom/platform';
import { eventually, testInfra, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socialDatabase } from '../src/db/database.js';
import { notificationsHandler, roomEventsHandler } from '../src/notifications/consumers.js';
import { NotificationDelivery } from '../src/notifications/delivery.js';
import { FanOutWorker } from '../src/notifications/fanout.js';
import type { Device, Notification } from '../src/notifications/notification.js';
import { Notifications } from '../src/notifications/notifications.js';
import { PgNotificationStore } from '../src/notifications/store.js';
import { NOTIFICATION_REQUESTED, readNotification } from '../src/notifications/topic.js';

const logger = createLogger('notifications-test', { level: 'silent' });
const WINDOW_MS = 10 * 60_000;

interface OutboxRow {
  event_id: string;
  key: string;
  event_type: string;
  payload: Buffer;
  headers: Record<string, string>;
}

describe('notifications on PostgreSQL and Kafka', () => {
  let orm: MikroORM;
  let store: PgNotificationStore;
  let notifications: Notifications;
  let now = new Date('2026-03-01T20:00:00Z');
  beforeAll(async () => {
    orm = await openServiceDatabase('social', uniqueDatabaseUrl('social_notifications'), socialDatabase, logger);
    store = new PgNotificationStore(orm);
    notifications = new Notifications(
      store,
      { registerWeb: () => Promise.reject(new Error('not in this test')) },
      { djDigestWindowMs: WINDOW_MS, webPushPublicKey: undefined, pushEndpoints: { hosts: [], plainHttpOrigins: [] } },
      () => undefined,
      () => now,
    );
  });
  afterAll(() => orm?.close());

  const outbox = async (): Promise<OutboxRow[]> =>
    orm.em
      .fork()
      .execute(
        `select "event_id", "key", "event_type", "payload", "headers" from "outbox_message" where "published_at" is null order by "seq"`,
      );
  /** Earlier tests' fan-outs and records are done with. */
  const clearOutbox = async () => {
    await orm.em.fork().execute(`update "notification_fanout" set "finished_at" = now() where "finished_at" is null`);
    await orm.em.fork().execute(`update "outbox_message" set "published_at" = now() where "published_at" is null`);
  };
  const drain = async (worker: FanOutWorker, batches = Number.POSITIVE_INFINITY) => {
    let done = 0;
    while (done < batches && (await worker.runOnce()) > 0) done += 1;
    return done;
  };
  const addFans = (djUuid: string, count: number) =>
    orm.em
      .fork()
      .execute(
        `insert into "dj_fan" ("id", "fan_uuid", "dj_uuid", "created_at") select gen_random_uuid(), gen_random_uuid(), ?, now() from generate_series(1, ?)`,
        [djUuid, count],
      );
  const stageEvent = (stage: {
    roomUuid: string;
    added: string[];
    removed: string[];
    djs: string[];
    seats: number;
    at: Date;
  }): ReceivedEvent => {
    const eventId = randomUUID();
    return {
      topic: 'room-events',
      partition: 0,
      offset: '0',
      key: stage.roomUuid,
      eventId,
      eventType: 'room.stage-changed',
      headers: { 'event-id': eventId, 'event-type': 'room.stage-changed' },
      value: Buffer.from(
        StageChanged.encode({
          metadata: { eventId, eventType: 'room.stage-changed', occurredAt: stage.at },
          roomUuid: stage.roomUuid,
          roomSlug: 'the-room',
          roomName: 'The Room',
          addedDjUuids: stage.added,
          removedDjUuids: stage.removed,
          djUuids: stage.djs,
          numberOfDjs: stage.seats,
        }).finish(),
      ),
    };
  };
  /** The handler as the idempotent consumer runs it: once per event id, in a transaction. */
  const handleOnce = async (event: ReceivedEvent) =>
    orm.em.fork().transactional(async (em) => {
      const fresh = await em.execute<unknown[]>(
        `insert into "processed_event" ("consumer", "event_id") values ('test', ?) on conflict do nothing returning "event_id"`,
        [event.eventId],
      );
      if (fresh.length > 0) await roomEventsHandler(notifications)(event, em);
    });

  it("streams a DJ's 2,500 fans to the outbox in batches, one notification each, and resumes after a restart without repeating anyone", async () => {
    await clearOutbox();
    const dj = randomUUID();
    await addFans(dj, 2500);
    await addFans(randomUUID(), 30); // another DJ's fans are not told
    await notifications.send(
      { userUuid: dj, role: 'user', kind: 'user' },
      {
        audience: 'djFans',
        userUuids: [],
        subjectUuid: '',
        kind: 'djOnStage',
        title: 'Live now',
        body: '',
        data: {},
        silent: false,
        channel: 'all',
      },
    );
    const first = new FanOutWorker(store, () => undefined, logger, { batchSize: 500, intervalMs: 1000 });
    expect(await drain(first, 2)).toBe(2);
    expect((await outbox()).length).toBe(1000);
    // A new worker (the service restarted) picks up after the cursor.
    const second = new FanOutWorker(store, () => undefined, logger, { batchSize: 500, intervalMs: 1000 });
    await drain(second);
    const rows = await outbox();
    expect(rows.length).toBe(2500);
    const fans = await orm.em.fork().execute<Array<{ fan_uuid: string }>>(`select "fan_uuid" from "dj_fan" where "dj_uuid" = ?`, [dj]);
    expect(new Set(rows.map((r) => r.key))).toEqual(new Set(fans.map((f) => f.fan_uuid)));
    const read = rows.map((r) => readNotification(r.event_id, r.payload)!);
    expect(new Set(read.map((n) => n.id)).size).toBe(2500);
    expect(read[0]).toMatchObject({ kind: 'djOnStage', title: 'Live now', data: { djUuid: dj } });
    expect(rows.every((r) => r.event_type === NOTIFICATION_REQUESTED && r.headers['event-id'] === r.event_id)).toBe(true);
    // Nothing is left to do.
    expect(await first.runOnce()).toBe(0);
  });

  it('a DJ who takes the stage five times in ten minutes tells each fan once, however often the events are delivered; later, again', async () => {
    await clearOutbox();
    const dj = randomUUID();
    const room = randomUUID();
    await addFans(dj, 3);
    const worker = new FanOutWorker(store, () => undefined, logger, { batchSize: 500, intervalMs: 1000 });
    const start = new Date('2026-03-01T21:00:00Z');
    const events = [0, 2, 4, 6, 9].map((minute) =>
      stageEvent({ roomUuid: room, added: [dj], removed: [], djs: [dj], seats: 5, at: new Date(start.getTime() + minute * 60_000) }),
    );
    for (const event of events) await handleOnce(event);
    // Redelivered, and delivered twice at once.
    await Promise.all([...events, ...events].map((event) => handleOnce(event)));
    await drain(worker);
    expect((await outbox()).length).toBe(3);
    await handleOnce(
      stageEvent({ roomUuid: room, added: [dj], removed: [], djs: [dj], seats: 5, at: new Date(start.getTime() + 11 * 60_000) }),
    );
    await drain(worker);
    expect((await outbox()).length).toBe(6);
  });

  it('a seat that opens tells who waits for one in that room, once; a full stage tells nobody', async () => {
    await clearOutbox();
    const room = randomUUID();
    const waiter = randomUUID();
    const other = randomUUID();
    const [a, b] = [randomUUID(), randomUUID()];
    await notifications.watchSeat({ userUuid: waiter, role: 'user', kind: 'user' }, room);
    await notifications.watchSeat({ userUuid: other, role: 'user', kind: 'user' }, randomUUID());
    const worker = new FanOutWorker(store, () => undefined, logger, { batchSize: 500, intervalMs: 1000 });
    // b replaced a on a stage of two that stays full: nobody is told.
    await handleOnce(stageEvent({ roomUuid: room, added: [b], removed: [a], djs: [b, randomUUID()], seats: 2, at: now }));
    await drain(worker);
    expect(await outbox()).toEqual([]);
    await handleOnce(stageEvent({ roomUuid: room, added: [], removed: [b], djs: [randomUUID()], seats: 2, at: now }));
    await drain(worker);
    const rows = await outbox();
    expect(rows.map((r) => r.key)).toEqual([waiter]);
    expect(readNotification(rows[0]!.event_id, rows[0]!.payload)).toMatchObject({ kind: 'seatOpen', data: { roomUuid: room } });
    expect(await notifications.watches({ userUuid: waiter, role: 'user', kind: 'user' })).toEqual([]);
    expect(await notifications.watches({ userUuid: other, role: 'user', kind: 'user' })).toHaveLength(1);
  });

  it('sending to others is for admins; a DJ tells their own fans within the digest window once', async () => {
    const user = { userUuid: randomUUID(), role: 'user', kind: 'user' as const };
    const base = {
      userUuids: [randomUUID()],
      subjectUuid: '',
      kind: 'custom',
      title: 'Hi',
      body: '',
      data: {},
      silent: false,
      channel: 'all',
    };
    await expect(notifications.send(user, { ...base, audience: 'users' })).rejects.toMatchObject({
      status: 403,
      message: 'Only admins may send this notification',
    });
    await expect(notifications.send(user, { ...base, audience: 'allDevices' })).rejects.toMatchObject({ status: 403 });
    await expect(notifications.send(user, { ...base, audience: 'djFans', subjectUuid: randomUUID() })).rejects.toMatchObject({
      status: 403,
    });
    await expect(notifications.send({ ...user, kind: 'guest' }, { ...base, audience: 'self' })).rejects.toMatchObject({ status: 403 });
    await expect(notifications.send(user, { ...base, audience: 'self', kind: 'nope' })).rejects.toMatchObject({ status: 400 });
    expect(await notifications.send({ ...user, role: 'admin' }, { ...base, audience: 'users' })).toMatchObject({ accepted: true });
    expect(await notifications.send(user, { ...base, audience: 'djFans' })).toMatchObject({ accepted: true });
    expect(await notifications.send(user, { ...base, audience: 'djFans' })).toEqual({ fanOutId: null, accepted: false });
    now = new Date(now.getTime() + WINDOW_MS + 1000);
    expect(await notifications.send(user, { ...base, audience: 'djFans' })).toMatchObject({ accepted: true });
  });

  it('preferences are stored whole and checked: kinds, quiet hours and their time zone', async () => {
    const user = { userUuid: randomUUID(), role: 'user', kind: 'user' as const };
    expect(await notifications.preferences(user)).toEqual({ muted: [], quietHours: null });
    await notifications.updatePreferences(user, {
      mutedKinds: ['seatOpen', 'seatOpen'],
      quietHours: { start: '23:30', end: '07:00', timeZone: 'Asia/Tokyo' },
    });
    expect(await store.preferencesOf(user.userUuid)).toEqual({
      muted: ['seatOpen'],
      quietHours: { startMinute: 23 * 60 + 30, endMinute: 7 * 60, timeZone: 'Asia/Tokyo' },
    });
    await expect(notifications.updatePreferences(user, { mutedKinds: ['loud'] })).rejects.toMatchObject({ status: 400 });
    await expect(
      notifications.updatePreferences(user, { mutedKinds: [], quietHours: { start: '24:00', end: '07:00', timeZone: 'UTC' } }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      notifications.updatePreferences(user, { mutedKinds: [], quietHours: { start: '22:00', end: '07:00', timeZone: 'Mars/Olympus' } }),
    ).rejects.toMatchObject({ status: 400 });
    await notifications.updatePreferences(user, { mutedKinds: [] });
    expect(await store.preferencesOf(user.userUuid)).toEqual({ muted: [], quietHours: null });
  });

  it('a consumer restarted mid-stream, its offsets lost, delivers each notification once', async () => {
    await clearOutbox();
    const dj = randomUUID();
    await addFans(dj, 300);
    await notifications.send(
      { userUuid: randomUUID(), role: 'admin', kind: 'user' },
      {
        audience: 'djFans',
        userUuids: [],
        subjectUuid: dj,
        kind: 'djOnStage',
        title: 'On stage',
        body: '',
        data: {},
        silent: false,
        channel: 'all',
      },
    );
    await drain(new FanOutWorker(store, () => undefined, logger, { batchSize: 100, intervalMs: 1000 }));
    const rows = await outbox();
    expect(rows.length).toBe(300);
    // The records, as the relay would send them, on a topic of this test's own.
    const topic = `notifications-test-${randomUUID()}`;
    const kafka = new KafkaClient({ brokers: testInfra().kafkaBrokers, clientId: 'notifications-test', logger, consumersFrom: 'earliest' });
    await kafka.ensureTopics([{ topic, partitions: 3 }]);
    const producer = await kafka.producer();
    await producer.send(rows.map((r) => ({ topic, key: r.key, value: r.payload, headers: r.headers })));
    const pushed: string[] = [];
    const devices = {
      devicesOf: async (userUuid: string): Promise<Device[]> => [{ type: 'android', id: userUuid, userUuid, token: userUuid }],
      remove: async () => undefined,
    };
    const slowChannel = {
      name: 'counting',
      send: async (_device: Device, notification: Notification) => {
        pushed.push(notification.id);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return 'sent' as const;
      },
    };
    const delivery = new NotificationDelivery(
      devices,
      { preferencesOf: async () => ({ muted: [], quietHours: null }) },
      { android: slowChannel },
      logger,
    );
    const groupId = `social-test-${randomUUID()}`;
    const consume = () =>
      startIdempotentConsumer({
        kafka,
        orm,
        groupId,
        topics: [topic],
        handle: notificationsHandler(delivery, logger),
        deadLetters: producer,
        logger,
        fromBeginning: true,
      });
    const first = await consume();
    await eventually(async () => (pushed.length >= 60 ? true : undefined), 60_000, 20);
    await first.stop();
    const beforeRestart = pushed.length;
    expect(beforeRestart).toBeLessThan(300);
    // The group's offsets are lost: everything is read again from the start.
    const admin = new Kafka({ brokers: testInfra().kafkaBrokers, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    await admin.resetOffsets({ groupId, topic, earliest: true });
    await admin.disconnect();
    const second = await consume();
    try {
      await eventually(async () => (new Set(pushed).size === 300 ? true : undefined), 90_000, 50);
      // Everything read again has been seen through: the last records are handled after the first ones were skipped.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(pushed.length).toBe(300);
      expect(new Set(pushed)).toEqual(new Set(rows.map((r) => r.event_id)));
    } finally {
      await second.stop();
      await producer.disconnect();
    }
  }, 180_000);
});
