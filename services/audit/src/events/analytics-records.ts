import { AnalyticsRecorded, PlayEventKind, PlayTracked, type Device as DeviceMessage } from '@spinroom/contracts/events/v1/analytics';
import { AppError, newEventMetadata, type EventMessage, type EventProducer } from '@spinroom/platform';
import type { Device, PublishOutcome, RecordSink, ValidRecord } from '../domain/analytics.js';
import type { PlayKind } from '../domain/plays.js';
import { TOPICS } from '@spinroom/contracts/topics';

export const PLAY_TRACKING_TOPIC = TOPICS.playTracking.name;
export const PAGE_VIEWS_TOPIC = TOPICS.pageViews.name;
export const APP_EVENTS_TOPIC = TOPICS.appEvents.name;
export const PLAY_TRACKED_EVENT = 'play.tracked';
export const PAGE_VIEW_EVENT_TYPE = 'analytics.page-view';
export const APP_EVENT_EVENT_TYPE = 'analytics.app-event';

export const PLAY_KIND_VALUES: Record<PlayKind, PlayEventKind> = {
  totalPlayed: PlayEventKind.PLAY_EVENT_KIND_TOTAL_PLAYED,
  played15Sec: PlayEventKind.PLAY_EVENT_KIND_FIFTEEN_SECONDS,
  played30Sec: PlayEventKind.PLAY_EVENT_KIND_THIRTY_SECONDS,
};

function deviceMessage(device: Device): DeviceMessage {
  return {
    platform: device.platform ?? '',
    os: device.os ?? '',
    osVersion: device.osVersion ?? '',
    browser: device.browser ?? '',
    browserVersion: device.browserVersion ?? '',
    appVersion: device.appVersion ?? '',
    model: device.model ?? '',
    userAgent: device.userAgent ?? '',
    language: device.language ?? '',
    timezone: device.timezone ?? '',
  };
}

type Writer = ReturnType<typeof PlayTracked.encode>;
/**
 * One protobuf writer for every record's encoding: its buffer is kept between
 * encodings (each `finish` copies out what it wrote), so a record's encoding
 * allocates its bytes once instead of growing a new buffer from 16 bytes. An
 * encoding that throws leaves it taken, and the next one starts a new writer.
 */
let spareWriter: Writer | undefined;

function encoded(encode: (writer: Writer | undefined) => Writer): Uint8Array {
  const spare = spareWriter;
  spareWriter = undefined;
  const writer = encode(spare);
  const bytes = writer.finish();
  spareWriter = writer;
  return bytes;
}

/** A checked record as its Kafka message (proto/spinroom/events/v1/analytics.proto), keyed by its user. */
export function recordMessage(valid: ValidRecord): { id: string; message: EventMessage } {
  if (valid.topic === 'play-tracking') {
    const { record } = valid;
    const metadata = newEventMetadata(PLAY_TRACKED_EVENT);
    const payload = encoded((writer) =>
      PlayTracked.encode(
        {
          metadata,
          kind: PLAY_KIND_VALUES[record.event],
          playId: record.playId,
          userUuid: valid.userUuid,
          roomSlug: record.roomSlug,
          roomOwnerUuid: record.roomOwnerUuid ?? '',
          djUuid: record.djUuid,
          songInfo: {
            songId: record.songInfo.songId,
            trackName: record.songInfo.trackName ?? '',
            artistName: record.songInfo.artistName ?? '',
            duration: record.songInfo.duration ?? 0,
            musicProvider: record.songInfo.musicProvider ?? '',
            isrc: record.songInfo.isrc ?? '',
          },
          startedDate: record.startedDate,
          updatedDate: record.updatedDate,
          volumeStart: record.volumeStart ?? 0,
          volumeEnd: record.volumeEnd ?? 0,
          sent15sec: record.sent15sec ?? false,
          sent30sec: record.sent30sec ?? false,
          userProvider: record.userProvider ?? '',
          subscriptionLevel: record.subscriptionLevel ?? '',
          device: deviceMessage(record.device),
        },
        writer,
      ),
    );
    return { id: metadata.eventId, message: eventMessage(PLAY_TRACKING_TOPIC, valid.userUuid, metadata, payload) };
  }
  const metadata = newEventMetadata(valid.topic === 'page-views' ? PAGE_VIEW_EVENT_TYPE : APP_EVENT_EVENT_TYPE);
  const payload = encoded((writer) =>
    AnalyticsRecorded.encode(
      {
        metadata,
        userUuid: valid.userUuid,
        name: valid.name,
        propertiesJson: JSON.stringify(valid.properties),
        device: deviceMessage(valid.device),
      },
      writer,
    ),
  );
  return { id: metadata.eventId, message: eventMessage(valid.topic, valid.userUuid, metadata, payload) };
}

function eventMessage(topic: string, key: string, metadata: { eventId: string; eventType: string }, payload: Uint8Array): EventMessage {
  return {
    topic,
    key,
    value: Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength),
    headers: { 'event-id': metadata.eventId, 'event-type': metadata.eventType },
  };
}

interface Pending {
  message: EventMessage;
  /** Called once: without an error when the broker acknowledged the message. */
  settle(error?: Error): void;
}

/**
 * The `/kinesis` records' way to Kafka: each caller waits for its own record
 * to be acknowledged by every in-sync replica (acks all, the kit's idempotent
 * producer), but records arriving while a send is in flight (or within
 * `lingerMs`) share the next send, so the broker sees few large requests
 * rather than one per record.
 */
export class BatchingRecordSink implements RecordSink {
  private readonly queue: Pending[] = [];
  private sending = false;
  private scheduled = false;
  private idle: Array<() => void> = [];

  constructor(
    private readonly producer: EventProducer,
    private readonly options: { lingerMs: number; maxBatch: number },
  ) {}

  publish(record: ValidRecord): Promise<string> {
    const { id, message } = recordMessage(record);
    return new Promise<string>((resolve, reject) => {
      this.queue.push({ message, settle: (error) => (error === undefined ? resolve(id) : reject(error)) });
      this.schedule();
    });
  }

  /**
   * Many records at once (a batch call's): one promise for all of them, which
   * resolves once each is acknowledged or refused (a refused send refuses only
   * its own records), with each record's id or refusal in order.
   */
  publishAll(records: readonly ValidRecord[]): Promise<PublishOutcome[]> {
    if (records.length === 0) return Promise.resolve([]);
    return new Promise<PublishOutcome[]>((resolve) => {
      const outcomes: PublishOutcome[] = new Array(records.length);
      let unsettled = records.length;
      const settle = (index: number, outcome: PublishOutcome) => {
        outcomes[index] = outcome;
        unsettled -= 1;
        if (unsettled === 0) resolve(outcomes);
      };
      records.forEach((record, index) => {
        let encoded: ReturnType<typeof recordMessage>;
        try {
          encoded = recordMessage(record);
        } catch (error) {
          settle(index, { refused: error });
          return;
        }
        const { id, message } = encoded;
        this.queue.push({ message, settle: (error) => settle(index, error === undefined ? { id } : { refused: error }) });
      });
      if (this.queue.length > 0) this.schedule();
    });
  }

  /** Resolves once every record given so far has been sent (or refused). */
  drained(): Promise<void> {
    if (!this.sending && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private schedule(): void {
    if (this.sending || this.scheduled) return;
    this.scheduled = true;
    if (this.queue.length >= this.options.maxBatch || this.options.lingerMs === 0) setImmediate(() => void this.flush());
    else setTimeout(() => void this.flush(), this.options.lingerMs);
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    if (this.sending || this.queue.length === 0) return;
    this.sending = true;
    const batch = this.queue.splice(0, this.options.maxBatch);
    try {
      await this.producer.send(batch.map((pending) => pending.message));
      for (const pending of batch) pending.settle();
    } catch (error) {
      const refusal = new AppError(503, 'Analytics are not available, please try again');
      refusal.cause = error;
      for (const pending of batch) pending.settle(refusal);
    } finally {
      this.sending = false;
      if (this.queue.length > 0) this.schedule();
      else for (const resolve of this.idle.splice(0)) resolve();
    }
  }
}
