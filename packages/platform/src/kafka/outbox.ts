import { randomUUID } from 'node:crypto';
import { context as otelContext, propagation } from '@opentelemetry/api';
import { defineEntity, p, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../logging.js';
import type { EventMessage, EventProducer } from './client.js';

/**
 * Transactional outbox: a change and the event announcing it are written in
 * one database transaction; the relay then publishes unpublished rows to Kafka
 * in order. Delivery is at least once; consumers deduplicate by event id.
 */
export const OutboxMessage = defineEntity({
  name: 'OutboxMessage',
  tableName: 'outbox_message',
  properties: {
    seq: p.bigint('number').primary().autoincrement(),
    eventId: p.uuid().unique(),
    topic: p.string(),
    key: p.string(),
    eventType: p.string(),
    payload: p.blob(),
    headers: p.json<Record<string, string>>(),
    createdAt: p.datetime(),
    publishedAt: p.datetime().nullable(),
  },
});

/** SQL for the outbox and processed-event tables, run by every service's first migration. */
export const OUTBOX_TABLES_SQL = [
  `create table "outbox_message" (
    "seq" bigserial primary key,
    "event_id" uuid not null unique,
    "topic" varchar(255) not null,
    "key" varchar(255) not null,
    "event_type" varchar(255) not null,
    "payload" bytea not null,
    "headers" jsonb not null,
    "created_at" timestamptz not null,
    "published_at" timestamptz null)`,
  `create index "outbox_message_unpublished_idx" on "outbox_message" ("seq") where "published_at" is null`,
  `create table "processed_event" (
    "consumer" varchar(255) not null,
    "event_id" uuid not null,
    "processed_at" timestamptz not null default now(),
    primary key ("consumer", "event_id"))`,
];

export interface EventMetadata {
  eventId: string;
  eventType: string;
  occurredAt: Date;
}

export function newEventMetadata(eventType: string): EventMetadata {
  return { eventId: randomUUID(), eventType, occurredAt: new Date() };
}

export interface OutboxEntry {
  topic: string;
  key: string;
  metadata: EventMetadata;
  /** The protobuf-encoded event (from proto/spinroom/events/v1). */
  payload: Uint8Array;
}

/** Stages an event in the caller's unit of work: it commits or rolls back with the change. */
export function addToOutbox(em: EntityManager, entry: OutboxEntry): void {
  const headers: Record<string, string> = { 'event-id': entry.metadata.eventId, 'event-type': entry.metadata.eventType };
  // Trace context of the request that caused the event travels with it.
  propagation.inject(otelContext.active(), headers);
  em.create(OutboxMessage, {
    eventId: entry.metadata.eventId,
    topic: entry.topic,
    key: entry.key,
    eventType: entry.metadata.eventType,
    payload: Buffer.from(entry.payload),
    headers,
    createdAt: entry.metadata.occurredAt,
    publishedAt: null,
  });
}

interface OutboxRow {
  seq: string;
  topic: string;
  key: string;
  payload: Buffer;
  headers: Record<string, string>;
}

export interface OutboxRelayOptions {
  intervalMs?: number;
  batchSize?: number;
  /**
   * How long published rows stay. They are kept a while because an effect
   * replayed after a crash looks for its event id there (the room's stage
   * changes); beyond that they are only history, and the table would grow
   * without end. Default 7 days.
   */
  retentionMs?: number;
  /** How often the relay deletes published rows older than the retention. Default 10 minutes. */
  pruneEveryMs?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const PRUNE_BATCH = 1_000;

/**
 * Publishes committed outbox rows. Rows are locked (SKIP LOCKED) while sent, so
 * several replicas can relay side by side without sending a row twice.
 */
export class OutboxRelay {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private lastPrune = 0;

  constructor(
    private readonly orm: MikroORM,
    private readonly producer: EventProducer,
    private readonly logger: Logger,
    private readonly options: OutboxRelayOptions = {},
  ) {}

  /** Publishes one batch; returns how many rows it sent. */
  async relayOnce(): Promise<number> {
    const em = this.orm.em.fork();
    return em.transactional(async (tx) => {
      const rows = await tx.execute<OutboxRow[]>(
        `select "seq", "topic", "key", "payload", "headers" from "outbox_message"
         where "published_at" is null order by "seq" limit ? for update skip locked`,
        [this.options.batchSize ?? 100],
      );
      if (rows.length === 0) return 0;
      const messages: EventMessage[] = rows.map((r) => ({ topic: r.topic, key: r.key, value: r.payload, headers: r.headers }));
      await this.producer.send(messages);
      // An array parameter expands to a list: `in (?, ?, ...)`.
      await tx.execute(`update "outbox_message" set "published_at" = now() where "seq" in (?)`, [rows.map((r) => r.seq)]);
      return rows.length;
    });
  }

  /**
   * Deletes published rows older than the retention, a bounded batch at a
   * time (oldest first, along the primary key); returns how many went.
   */
  async pruneOnce(maxBatches = 10): Promise<number> {
    const retentionSeconds = (this.options.retentionMs ?? 7 * DAY_MS) / 1000;
    const em = this.orm.em.fork();
    let deleted = 0;
    for (let batch = 0; batch < maxBatches; batch++) {
      const rows = await em.execute<Array<{ seq: string }>>(
        `delete from "outbox_message" where "seq" in (
           select "seq" from "outbox_message"
           where "published_at" < now() - make_interval(secs => ?)
           order by "seq" limit ?)
         returning "seq"`,
        [retentionSeconds, PRUNE_BATCH],
      );
      deleted += rows.length;
      if (rows.length < PRUNE_BATCH) break;
    }
    return deleted;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        let sent = 0;
        try {
          sent = await this.relayOnce();
          if (Date.now() - this.lastPrune >= (this.options.pruneEveryMs ?? 10 * 60_000)) {
            this.lastPrune = Date.now();
            const pruned = await this.pruneOnce();
            if (pruned > 0) this.logger.debug({ pruned }, 'outbox: published rows past their retention deleted');
          }
        } catch (error) {
          this.logger.warn({ err: error }, 'outbox relay failed; retrying');
        }
        if (sent === 0 && this.running) await this.sleep(this.options.intervalMs ?? 250);
      }
    })();
  }

  /** Wakes the relay now (after a commit that staged events) instead of at the next tick. */
  nudge(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
