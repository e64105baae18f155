import { AnalyticsRecorded, PlayEventKind, PlayTracked } from '@spinroom/contracts/events/v1/analytics';
import { headersToRecord, type EventProducer, type KafkaClient, type Logger, type MikroORM } from '@spinroom/platform';
import { countBatch, type UserEventRow } from '../db/play-store.js';
import { APP_EVENT, PAGE_VIEW_EVENT } from '../domain/event-names.js';
import type { PlayEvent, PlayKind } from '../domain/plays.js';
import { APP_EVENTS_TOPIC, PAGE_VIEWS_TOPIC, PLAY_TRACKING_TOPIC } from './analytics-records.js';

const KINDS: Partial<Record<PlayEventKind, PlayKind>> = {
  [PlayEventKind.PLAY_EVENT_KIND_TOTAL_PLAYED]: 'totalPlayed',
  [PlayEventKind.PLAY_EVENT_KIND_FIFTEEN_SECONDS]: 'played15Sec',
  [PlayEventKind.PLAY_EVENT_KIND_THIRTY_SECONDS]: 'played30Sec',
};
type Consumer = ReturnType<KafkaClient['consumer']>;
type KafkaMessage = { key: Buffer | null; value: Buffer | null; offset: string; headers?: Parameters<typeof headersToRecord>[0] };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What one message of the consumed topics counts for: a play, and the user's last event. */
export interface DecodedRecord {
  play?: PlayEvent;
  userEvent: UserEventRow;
}

/** A message of play-tracking, page-views or app-events, decoded; throws for what cannot be read. */
export function decodeRecord(topic: string, value: Buffer): DecodedRecord {
  if (topic === PLAY_TRACKING_TOPIC) {
    const tracked = PlayTracked.decode(value);
    const kind = KINDS[tracked.kind];
    if (!kind || !tracked.playId || !UUID.test(tracked.userUuid) || !tracked.startedDate || !tracked.updatedDate) {
      throw new Error(`play.tracked without a kind, play id, user or dates (play ${JSON.stringify(tracked.playId)})`);
    }
    const play: PlayEvent = {
      kind,
      playId: tracked.playId,
      userUuid: tracked.userUuid.toLowerCase(),
      songId: tracked.songInfo?.songId ?? '',
      djUuid: tracked.djUuid,
      roomSlug: tracked.roomSlug,
      startedDate: tracked.startedDate,
      updatedDate: tracked.updatedDate,
      duration: tracked.songInfo?.duration ?? 0,
    };
    return {
      play,
      userEvent: {
        userUuid: play.userUuid,
        name: kind,
        topic,
        occurredAt: tracked.metadata?.occurredAt ?? tracked.updatedDate,
        detail: { playId: play.playId, roomSlug: play.roomSlug, djUuid: play.djUuid, songId: play.songId },
      },
    };
  }
  const recorded = AnalyticsRecorded.decode(value);
  if (!UUID.test(recorded.userUuid) || !recorded.metadata?.occurredAt) throw new Error('analytics record without a user or a time');
  let properties: unknown = {};
  try {
    properties = JSON.parse(recorded.propertiesJson || '{}');
  } catch {
    properties = {};
  }
  return {
    userEvent: {
      userUuid: recorded.userUuid.toLowerCase(),
      name: topic === PAGE_VIEWS_TOPIC ? PAGE_VIEW_EVENT : APP_EVENT,
      topic,
      occurredAt: recorded.metadata.occurredAt,
      detail: topic === PAGE_VIEWS_TOPIC ? { path: recorded.name, query: properties } : { name: recorded.name, properties },
    },
  };
}

export const RECORD_TOPICS = [PLAY_TRACKING_TOPIC, PAGE_VIEWS_TOPIC, APP_EVENTS_TOPIC];

/**
 * The play-tracking aggregates' consumer (and the users' last events from the
 * analytics topics). It reads a partition's batch, counts it in one
 * statement (the (play id, kind) dedupe rows, the totals and the users' last
 * events together: db/play-store.ts `countBatch`), and
 * only then commits the batch's offsets: a crash in between redelivers the
 * batch, whose plays are then found counted and add nothing. A message that
 * cannot be decoded goes to `<topic>.dlq` with the error.
 */
export async function startRecordConsumer(options: {
  kafka: KafkaClient;
  orm: MikroORM;
  groupId: string;
  deadLetters: EventProducer;
  logger: Logger;
  /** Called after each batch is committed (tests and the benchmark watch it). */
  onCounted?: (counted: number, messages: number) => void;
}): Promise<{ stop(): Promise<void> }> {
  const { kafka, orm, logger } = options;
  const fromBeginning = kafka.consumersFrom === 'earliest';
  // From the ends: pinned there now, so a rejoin (a missed heartbeat on a busy machine) skips nothing.
  if (!fromBeginning) await kafka.pinNewGroupAtEnds(options.groupId, RECORD_TOPICS);
  const consumer: Consumer = kafka.consumer(options.groupId);
  await consumer.connect();
  await consumer.subscribe({ topics: RECORD_TOPICS, fromBeginning });
  await consumer.run({
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }) => {
      if (!isRunning() || isStale() || batch.messages.length === 0) return;
      const plays: PlayEvent[] = [];
      const userEvents: UserEventRow[] = [];
      const unreadable: Array<{ message: KafkaMessage; error: unknown }> = [];
      for (const message of batch.messages) {
        try {
          const decoded = decodeRecord(batch.topic, message.value ?? Buffer.alloc(0));
          if (decoded.play) plays.push(decoded.play);
          userEvents.push(decoded.userEvent);
        } catch (error) {
          unreadable.push({ message, error });
        }
      }
      // One statement: the dedupe rows, the totals and the last events commit together, or not at all.
      const counted = await withRetries(() => countBatch(orm.em.fork(), plays, userEvents));
      if (unreadable.length > 0) {
        logger.error({ topic: batch.topic, count: unreadable.length, err: unreadable[0]!.error }, 'records sent to DLQ');
        await options.deadLetters.send(
          unreadable.map(({ message, error }) => ({
            topic: `${batch.topic}.dlq`,
            key: message.key?.toString() ?? '',
            value: message.value ?? Buffer.alloc(0),
            headers: {
              ...headersToRecord(message.headers),
              'dlq-error': String((error as Error)?.message ?? error),
              'dlq-source-offset': message.offset,
            },
          })),
        );
      }
      resolveOffset(batch.lastOffset());
      await commitOffsetsIfNecessary();
      await heartbeat();
      options.onCounted?.(counted, batch.messages.length);
    },
  });
  return { stop: () => consumer.disconnect() };
}

async function withRetries<T>(run: () => Promise<T>, retries = 3): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= retries) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    }
  }
}
