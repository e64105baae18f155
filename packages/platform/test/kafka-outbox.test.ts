import { randomUUID } from 'node:crypto';
import { Migration } from '@mikro-orm/migrations';
import type { Consumer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { createOrm, dropDatabase, ensureDatabase, migrate, type MikroORM } from '../src/db/orm.js';
import { headersToRecord, KafkaClient, type EventProducer, type ReceivedEvent } from '../src/kafka/client.js';
import { type IdempotentConsumerOptions, startIdempotentConsumer } from '../src/kafka/consumer.js';
import { addToOutbox, newEventMetadata, OUTBOX_TABLES_SQL, OutboxMessage, OutboxRelay } from '../src/kafka/outbox.js';
import { createLogger } from '../src/logging.js';
import { eventually, testInfra, uniqueDatabaseUrl } from '../src/testing/index.js';

class CreateOutbox extends Migration {
  override async up() {
    for (const sql of OUTBOX_TABLES_SQL) this.addSql(sql);
  }
}

const logger = createLogger('test', { level: 'silent' });

async function collect(kafka: KafkaClient, topic: string, into: ReceivedEvent[]): Promise<Consumer> {
  const consumer = kafka.consumer(`test-${randomUUID()}`);
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ topic: t, partition, message }) => {
      const headers = headersToRecord(message.headers);
      into.push({
        topic: t,
        partition,
        offset: message.offset,
        key: message.key?.toString() ?? '',
        value: message.value!,
        headers,
        eventId: headers['event-id'] ?? '',
        eventType: headers['event-type'] ?? '',
      });
    },
  });
  return consumer;
}

describe('transactional outbox, relay and idempotent consumer', () => {
  const databaseUrl = uniqueDatabaseUrl('platform_outbox');
  const topic = `test-outbox-${randomUUID().slice(0, 8)}`;
  let orm: MikroORM;
  let kafka: KafkaClient;
  let producer: EventProducer;
  const consumers: Array<{ disconnect?: () => Promise<void>; stop?: () => Promise<void> }> = [];

  beforeAll(async () => {
    await ensureDatabase(databaseUrl);
    orm = await createOrm({ databaseUrl, entities: [OutboxMessage], migrations: [{ name: 'outbox', class: CreateOutbox }] });
    await migrate(orm);
    kafka = new KafkaClient({ brokers: testInfra().kafkaBrokers, clientId: 'platform-test', logger });
    await kafka.ensureTopics([{ topic }]);
    producer = await kafka.producer();
  });

  /** A consumer of a topic and group of its own, stopped after the tests. */
  const consumeFresh = async (options: Pick<IdempotentConsumerOptions, 'handle' | 'retries' | 'deduplicate'>) => {
    const eventTopic = `test-consume-${randomUUID().slice(0, 8)}`;
    await kafka.ensureTopics([{ topic: eventTopic, partitions: 1 }]);
    const groupId = `platform-test-${randomUUID().slice(0, 8)}`;
    consumers.push(await startIdempotentConsumer({ kafka, orm, groupId, topics: [eventTopic], deadLetters: producer, logger, ...options }));
    return { eventTopic, groupId };
  };
  /** A message of `type` with event id `id` on `eventTopic`, as the outbox relay sends one. */
  const message = (eventTopic: string, type: string, id: string) => ({
    topic: eventTopic,
    key: 'k',
    value: Buffer.from('x'),
    headers: { 'event-id': id, 'event-type': type },
  });

  afterAll(async () => {
    for (const c of consumers) await (c.stop ?? c.disconnect)!();
    await producer.disconnect();
    await orm.close();
    await dropDatabase(databaseUrl);
  });

  it('publishes nothing from a rolled-back transaction, and the committed event once, in order', async () => {
    const relay = new OutboxRelay(orm, producer, logger);
    await orm.em
      .fork()
      .transactional(async (em) => {
        addToOutbox(em, { topic, key: 'k', metadata: newEventMetadata('test.rolled-back'), payload: Buffer.from('no') });
        await em.flush();
        throw new Error('rollback');
      })
      .catch(() => undefined);
    expect(await relay.relayOnce()).toBe(0);

    const first = newEventMetadata('test.happened');
    const second = newEventMetadata('test.happened');
    await orm.em.fork().transactional(async (em) => {
      addToOutbox(em, { topic, key: 'user-1', metadata: first, payload: Buffer.from('one') });
      addToOutbox(em, { topic, key: 'user-1', metadata: second, payload: Buffer.from('two') });
    });
    expect(await relay.relayOnce()).toBe(2);
    expect(await relay.relayOnce()).toBe(0);

    const seen: ReceivedEvent[] = [];
    consumers.push(await collect(kafka, topic, seen));
    const got = await eventually(async () => (seen.length >= 2 ? seen : undefined));
    expect(got.map((e) => [e.eventId, e.eventType, e.key, e.value.toString()])).toEqual([
      [first.eventId, 'test.happened', 'user-1', 'one'],
      [second.eventId, 'test.happened', 'user-1', 'two'],
    ]);
  });

  it('handles a redelivered event once and sends a failing one to the DLQ', async () => {
    const handled: string[] = [];
    const { eventTopic } = await consumeFresh({
      retries: 1,
      handle: async (event) => {
        if (event.eventType === 'test.poison') throw new Error('cannot handle poison');
        handled.push(event.eventId);
      },
    });
    const dlq: ReceivedEvent[] = [];
    consumers.push(await collect(kafka, `${eventTopic}.dlq`, dlq));

    const good = newEventMetadata('test.good');
    await producer.send([message(eventTopic, 'test.good', good.eventId), message(eventTopic, 'test.good', good.eventId)]);
    const poisonId = randomUUID();
    await producer.send([message(eventTopic, 'test.poison', poisonId)]);
    const after = newEventMetadata('test.good');
    await producer.send([message(eventTopic, 'test.good', after.eventId)]);

    await eventually(async () => (handled.includes(after.eventId) ? true : undefined), 30_000);
    expect(handled).toEqual([good.eventId, after.eventId]);
    const dead = await eventually(async () => dlq[0], 30_000);
    expect(dead.eventId).toBe(poisonId);
    expect(dead.headers['dlq-error']).toBe('cannot handle poison');
  });

  it('runs a handler that needs no deduplication on every delivery, with no processed-event row', async () => {
    const handled: string[] = [];
    const { eventTopic, groupId } = await consumeFresh({
      deduplicate: false,
      handle: async (event) => {
        handled.push(event.eventId);
      },
    });
    const event = newEventMetadata('test.good');
    await producer.send([message(eventTopic, 'test.good', event.eventId), message(eventTopic, 'test.good', event.eventId)]);
    await eventually(async () => (handled.length === 2 ? true : undefined), 30_000);
    expect(handled).toEqual([event.eventId, event.eventId]);
    const rows = await orm.em.fork().execute(`select 1 from "processed_event" where "consumer" = ?`, [groupId]);
    expect(rows).toEqual([]);
  });

  it('waits out a service that cannot be reached (503) past its retries, and handles the event once it answers', async () => {
    let tries = 0;
    let firstTry = 0;
    const handled: string[] = [];
    const { eventTopic } = await consumeFresh({
      retries: 1,
      handle: async (event) => {
        tries += 1;
        firstTry ||= Date.now();
        // As a service that is still starting: unavailable for its first two seconds.
        if (Date.now() - firstTry < 2_000) throw new AppError(503, 'Service Unavailable');
        handled.push(event.eventId);
      },
    });
    const event = newEventMetadata('test.good');
    await producer.send([message(eventTopic, 'test.good', event.eventId)]);
    await eventually(async () => (handled.includes(event.eventId) ? true : undefined), 30_000);
    expect(tries).toBeGreaterThan(2);
  });

  it('deletes published rows past their retention, oldest first, and never an unpublished one', async () => {
    const relay = new OutboxRelay(orm, producer, logger, { retentionMs: 60 * 60 * 1000 });
    const stage = async (label: string, publishedAt: string | null) => {
      const metadata = newEventMetadata('test.pruned');
      await orm.em.fork().execute(
        `insert into "outbox_message" ("event_id", "topic", "key", "event_type", "payload", "headers", "created_at", "published_at")
         values (?, ?, 'k', 'test.pruned', ?, '{}', now() - interval '3 days', ${publishedAt ?? 'null'})`,
        [metadata.eventId, `${topic}-not-sent`, Buffer.from(label)],
      );
      return metadata.eventId;
    };
    const old = await stage('old', "now() - interval '2 days'");
    const recent = await stage('recent', "now() - interval '10 minutes'");
    // Never sent (its relay is elsewhere or Kafka was down): kept whatever its age.
    const unsent = await stage('unsent', null);
    const ids = [old, recent, unsent];
    const present = async () =>
      (
        await orm.em.fork().execute<Array<{ event_id: string }>>(`select "event_id" from "outbox_message" where "event_id" in (?)`, [ids])
      ).map((r) => r.event_id);

    expect(await relay.pruneOnce()).toBeGreaterThanOrEqual(1);
    expect((await present()).sort()).toEqual([recent, unsent].sort());
    expect(await relay.pruneOnce()).toBe(0);
    await orm.em.fork().execute(`delete from "outbox_message" where "event_id" = ?`, [unsent]);
  });
});
