import type { MikroORM, EntityManager } from '@mikro-orm/postgresql';
import type { Consumer } from 'kafkajs';
import { isAppError } from '../errors.js';
import type { Logger } from '../logging.js';
import { recordConsumedEvent } from '../telemetry/metrics.js';
import { headersToRecord, retryRetriable, type EventProducer, type KafkaClient, type ReceivedEvent } from './client.js';

export type EventHandler = (event: ReceivedEvent, em: EntityManager) => Promise<void>;

export interface IdempotentConsumerOptions {
  kafka: KafkaClient;
  orm: MikroORM;
  /** The consuming service's name: also the consumer group id. */
  groupId: string;
  topics: string[];
  handle: EventHandler;
  /** Producer for the `<topic>.dlq` topics. */
  deadLetters: EventProducer;
  logger: Logger;
  retries?: number;
  /**
   * How long an event whose handling fails because another service or the database cannot be reached
   * (502, 503, 504) is tried again before it goes to the DLQ (default 20 s, under the group's 30 s session):
   * a service that restarts, or starts after this one, must not send every event it was asked about there.
   */
  unavailableRetryMs?: number;
  /** A new group reads the topics from their start; the client's KAFKA_CONSUMER_FROM unless given. */
  fromBeginning?: boolean;
  /**
   * Whether each event is recorded as processed, in a transaction with the handler's writes, so that a redelivery is
   * skipped (default true). False for a handler whose effect is the same however often the partition's events are
   * run again in their order (a cache set to what the event says): no transaction and no row, a PostgreSQL
   * round trip or three less per event, ignored ones included; its `em` is then outside any transaction.
   */
  deduplicate?: boolean;
}

/**
 * Runs a handler once per event id: the processed-event row and the handler's
 * own writes commit in one transaction, so a redelivered event is skipped
 * (unless `deduplicate` is false: then on every delivery).
 * An event that still fails after its retries goes to `<topic>.dlq` with the
 * error, and the consumer moves on; nothing is dropped. One that fails because
 * something it needs cannot be reached is tried again for `unavailableRetryMs` first.
 */
export async function startIdempotentConsumer(options: IdempotentConsumerOptions): Promise<{ stop(): Promise<void> }> {
  const consumer: Consumer = options.kafka.consumer(options.groupId);
  await consumer.connect();
  const fromBeginning = options.fromBeginning ?? options.kafka.consumersFrom === 'earliest';
  // On a fresh broker a topic another service is creating has no leader yet ("does not host this topic-partition").
  await retryRetriable(() => consumer.subscribe({ topics: options.topics, fromBeginning }));
  const retries = options.retries ?? 3;
  const unavailableRetryMs = options.unavailableRetryMs ?? 20_000;
  // Reading from the latest offsets, the start waits until the group has its
  // partitions: what is produced once the service has started is then read.
  const joined = fromBeginning ? Promise.resolve() : groupJoined(consumer);

  await consumer.run({
    eachMessage: async ({ topic, partition, message, heartbeat }) => {
      const started = performance.now();
      const headers = headersToRecord(message.headers);
      const event: ReceivedEvent = {
        topic,
        partition,
        offset: message.offset,
        key: message.key?.toString() ?? '',
        value: message.value ?? Buffer.alloc(0),
        headers,
        eventId: headers['event-id'] ?? '',
        eventType: headers['event-type'] ?? '',
      };
      let lastError: unknown;
      for (let attempt = 0; ; attempt += 1) {
        try {
          const handled = await handleOnce(options, event);
          recordConsumedEvent({ topic, group: options.groupId, outcome: handled ? 'processed' : 'duplicate' }, started);
          return;
        } catch (error) {
          lastError = error;
          const waiting = performance.now() - started < unavailableRetryMs && isUnavailable(error);
          if (attempt >= retries && !waiting) break;
          await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** attempt, 2_000)));
          await heartbeat();
        }
      }
      options.logger.error({ err: lastError, topic, offset: message.offset, eventId: event.eventId }, 'event sent to DLQ');
      await options.deadLetters.send([
        {
          topic: `${topic}.dlq`,
          key: event.key,
          value: event.value,
          headers: { ...headers, 'dlq-error': String((lastError as Error)?.message ?? lastError), 'dlq-source-offset': message.offset },
        },
      ]);
      recordConsumedEvent({ topic, group: options.groupId, outcome: 'dead_lettered' }, started);
    },
  });
  await joined;
  return { stop: () => consumer.disconnect() };
}

/** Resolves when the consumer has joined its group (and at most after 30 s: the consumer goes on joining). */
function groupJoined(consumer: Consumer): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, 30_000);
    const remove = consumer.on(consumer.events.GROUP_JOIN, done);
    function done() {
      clearTimeout(timer);
      remove();
      resolve();
    }
  });
}

/** Handles the event in its own transaction; false when it was handled before. */
async function handleOnce(options: IdempotentConsumerOptions, event: ReceivedEvent): Promise<boolean> {
  if (options.deduplicate === false) {
    await options.handle(event, options.orm.em.fork());
    return true;
  }
  if (!/^[0-9a-f-]{36}$/i.test(event.eventId)) throw new Error('event has no valid event-id header');
  return options.orm.em.fork().transactional(async (em) => {
    const inserted = await em.execute<{ event_id: string }[]>(
      `insert into "processed_event" ("consumer", "event_id") values (?, ?) on conflict do nothing returning "event_id"`,
      [options.groupId, event.eventId],
    );
    if (inserted.length === 0) return false; // seen before
    await options.handle(event, em);
    return true;
  });
}

/** A failure to reach what the handler needs (another service, the database behind it): worth waiting out. */
function isUnavailable(error: unknown): boolean {
  return isAppError(error) && (error.status === 502 || error.status === 503 || error.status === 504);
}
