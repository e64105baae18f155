import { Kafka, logLevel, type Admin, type Consumer, type IHeaders, type Producer } from 'kafkajs';
import type { Logger } from '../logging.js';
import { MurmurPartitioner } from './partitioner.js';
import { installRecordEncoder } from './record-encoder.js';
// Before any client connects: kafkajs's idle request queues stop spinning (see the module).
import './request-queue-fix.js';

// Before any produce request: records encoded in one buffer each (see the module).
const recordEncoderInstalled = installRecordEncoder();

/**
 * The small interface services use for Kafka. kafkajs sits behind it (and is
 * in maintenance mode), so the client can be replaced without touching a service.
 */
export interface EventMessage {
  topic: string;
  /** The entity the order matters for (user or room uuid). */
  key: string;
  value: Buffer;
  /** `event-id`, `event-type`, `traceparent`, `baggage`... */
  headers: Record<string, string>;
}

export interface ReceivedEvent extends EventMessage {
  partition: number;
  offset: string;
  eventId: string;
  eventType: string;
}

export interface EventProducer {
  /** Resolves once every message is acknowledged by all in-sync replicas. */
  send(messages: EventMessage[]): Promise<void>;
  disconnect(): Promise<void>;
}

export interface TopicSpec {
  topic: string;
  partitions?: number;
}

export class KafkaClient {
  private readonly kafka: Kafka;
  /** Where its new consumer groups start (KAFKA_CONSUMER_FROM): the beginning unless told. */
  readonly consumersFrom: 'earliest' | 'latest';

  constructor(options: { brokers: string[]; clientId: string; logger: Logger; consumersFrom?: 'earliest' | 'latest' }) {
    this.consumersFrom = options.consumersFrom ?? 'earliest';
    const log = options.logger.child({ component: 'kafka' });
    if (!recordEncoderInstalled)
      log.warn('kafkajs encodes its own records (a produce request was loaded before the kit): slower, same bytes');
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      retry: { retries: 8, initialRetryTime: 200 },
      logLevel: logLevel.WARN,
      logCreator:
        () =>
        ({ level, log: entry }) => {
          const { message, ...rest } = entry;
          // Retries are bounded on purpose: the outbox relay retries the whole batch.
          if (message.startsWith('Limiting retries for the idempotent producer')) return;
          if (level <= logLevel.ERROR) log.error(rest, message);
          else if (level === logLevel.WARN) log.warn(rest, message);
        },
    });
  }

  /** An idempotent producer waiting for all in-sync replicas. */
  async producer(): Promise<EventProducer> {
    const producer: Producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      // kafkajs's DefaultPartitioner placement, without its BigInt hash (partitioner.ts).
      createPartitioner: MurmurPartitioner,
    });
    await producer.connect();
    return {
      async send(messages) {
        const byTopic = new Map<string, EventMessage[]>();
        for (const m of messages) {
          const list = byTopic.get(m.topic);
          if (list) list.push(m);
          else byTopic.set(m.topic, [m]);
        }
        await producer.sendBatch({
          acks: -1,
          topicMessages: [...byTopic].map(([topic, list]) => ({
            topic,
            messages: list.map((m) => ({ key: m.key, value: m.value, headers: m.headers })),
          })),
        });
      },
      disconnect: () => producer.disconnect(),
    };
  }

  /** Raw kafkajs consumer, for the idempotent consumer helper and tests. */
  consumer(groupId: string): Consumer {
    return this.kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      // A consumer's stop waits for its fetch in flight: at kafkajs's default (5 s) stopping a
      // service with several consumers took 10-15 s. An idle consumer asks once a second instead.
      maxWaitTimeInMs: 1_000,
    });
  }

  /**
   * Gives a group that has no offsets yet the topics' current ends as its
   * committed offsets, so it reads what comes from now on even when it rejoins
   * before committing anything (with none, a rejoin would start at the ends
   * again and skip what came in between). For KAFKA_CONSUMER_FROM=latest;
   * call it before the group's consumer starts.
   */
  async pinNewGroupAtEnds(groupId: string, topics: string[]): Promise<void> {
    // On a fresh broker the first group's offsets topic is still being made:
    // its coordinator answers NOT_COORDINATOR_FOR_GROUP (retriable) for a while.
    await retryRetriable(() => this.pinAtEnds(groupId, topics));
  }

  private async pinAtEnds(groupId: string, topics: string[]): Promise<void> {
    const admin: Admin = this.kafka.admin();
    await admin.connect();
    const ends: Array<{ topic: string; partition: number; offset: string }> = [];
    try {
      const committed = await admin.fetchOffsets({ groupId, topics });
      const unpinned = committed.filter(({ partitions }) => partitions.every((p) => p.offset === '-1')).map((c) => c.topic);
      for (const topic of unpinned) {
        for (const p of await admin.fetchTopicOffsets(topic)) ends.push({ topic, partition: p.partition, offset: p.high });
      }
    } finally {
      await admin.disconnect();
    }
    if (ends.length === 0) return;
    // One short-lived member joins the group, commits the ends for every topic at once and
    // leaves (kafkajs's admin.setOffsets joins once per topic: seconds each).
    const member = this.consumer(groupId);
    await member.connect();
    try {
      await member.subscribe({ topics: [...new Set(ends.map((e) => e.topic))], fromBeginning: false });
      const joined = new Promise<void>((resolve) => member.on(member.events.GROUP_JOIN, () => resolve()));
      await member.run({ autoCommit: false, eachBatch: async () => undefined });
      member.pause(ends.map(({ topic }) => ({ topic })));
      await joined;
      await member.commitOffsets(ends);
    } finally {
      await member.disconnect();
    }
  }

  /** Creates the topics (and their `.dlq` twins) that are missing. */
  async ensureTopics(topics: TopicSpec[]): Promise<void> {
    // Services start side by side and create shared topics at once; on a fresh
    // broker the loser of that race can see the topic before its partitions
    // have leaders ("does not host this topic-partition"). Look again.
    await retryRetriable(() => this.createMissingTopics(topics), { all: true });
  }

  private async createMissingTopics(topics: TopicSpec[]): Promise<void> {
    const admin: Admin = this.kafka.admin();
    await admin.connect();
    try {
      const existing = new Set(await admin.listTopics());
      const wanted = topics.flatMap((t) => [t, { topic: `${t.topic}.dlq`, partitions: 1 }]);
      const missing = wanted.filter((t) => !existing.has(t.topic));
      if (missing.length > 0) {
        await admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((t) => ({ topic: t.topic, numPartitions: t.partitions ?? 3, replicationFactor: -1 })),
        });
      }
    } finally {
      await admin.disconnect();
    }
  }
}

/**
 * Runs `attempt` again (up to 8 times, 0.5 s more between each: about 18 s) while
 * it fails with an error Kafka calls retriable, or with any error when `all`.
 */
export async function retryRetriable<T>(attempt: () => Promise<T>, options: { all?: boolean } = {}): Promise<T> {
  for (let n = 1; ; n += 1) {
    try {
      return await attempt();
    } catch (error) {
      const retriable = options.all || (error as { retriable?: boolean }).retriable === true;
      if (!retriable || n >= 8) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * n));
    }
  }
}

export function headersToRecord(headers: IHeaders | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) record[key] = first.toString();
  }
  return record;
}
