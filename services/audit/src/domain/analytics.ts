import { badRequest, forbidden, type Caller } from '@spinroom/platform';
import { z } from 'zod';
import { PLAY_KINDS, type PlayKind } from './plays.js';

/**
 * `/kinesis` (spec 002 "Audit and analytics"): a topic and a record carrying
 * device data, checked here, then written to its Kafka topic; the caller is
 * answered once every in-sync replica has it, so an answered record is never
 * lost. play-tracking records are the spec's play tracking record plus the
 * event they report; page-views carry a path and its query parameters;
 * app-events a name and its properties.
 */
export const ANALYTICS_TOPICS = ['play-tracking', 'page-views', 'app-events'] as const;
export type AnalyticsTopic = (typeof ANALYTICS_TOPICS)[number];

const text = (max: number) => z.string().max(max);
const Uuid = z.uuid();
const Instant = z
  .union([z.iso.datetime({ offset: true }), z.number().int().min(0).max(253_402_300_799_999)])
  .transform((value) => new Date(value));

/** What the client says of its device; every field is optional, the object is not. */
export const DeviceSchema = z.object({
  platform: text(32).optional(),
  os: text(64).optional(),
  osVersion: text(64).optional(),
  browser: text(64).optional(),
  browserVersion: text(64).optional(),
  appVersion: text(64).optional(),
  model: text(128).optional(),
  userAgent: text(512).optional(),
  language: text(35).optional(),
  timezone: text(64).optional(),
});
export type Device = z.infer<typeof DeviceSchema>;

export const PlayRecordSchema = z.object({
  event: z.enum(PLAY_KINDS as [PlayKind, ...PlayKind[]]),
  playId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'playId: 1 to 64 letters, digits, _ or -'),
  userUuid: Uuid,
  roomSlug: z.string().min(1).max(255),
  roomOwnerUuid: Uuid.optional(),
  djUuid: Uuid,
  songInfo: z.object({
    songId: z.string().min(1).max(255),
    trackName: text(500).optional(),
    artistName: text(500).optional(),
    duration: z.number().min(0).max(86_400).optional(),
    musicProvider: text(32).optional(),
    isrc: text(32).optional(),
  }),
  startedDate: Instant,
  updatedDate: Instant,
  volumeStart: z.number().min(0).max(100).optional(),
  volumeEnd: z.number().min(0).max(100).optional(),
  sent15sec: z.boolean().optional(),
  sent30sec: z.boolean().optional(),
  userProvider: text(64).optional(),
  subscriptionLevel: text(64).optional(),
  device: DeviceSchema,
});
export type PlayRecord = z.infer<typeof PlayRecordSchema>;

const JsonObject = z.record(z.string().max(128), z.unknown());

export const PageViewSchema = z.object({
  userUuid: Uuid.optional(),
  path: z.string().min(1).max(2048).startsWith('/'),
  query: z.record(z.string().max(128), z.union([z.string().max(2048), z.array(z.string().max(2048)).max(50)])).optional(),
  device: DeviceSchema,
});

export const AppEventSchema = z.object({
  userUuid: Uuid.optional(),
  name: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'name: 1 to 64 letters, digits, _ . : or -'),
  properties: JsonObject.optional(),
  device: DeviceSchema,
});

/** A record's JSON may be this long at most (the BFF's body limit is larger). */
export const MAX_RECORD_BYTES = 16_384;
/** A record dated further ahead than this is refused (clocks drift a little, not by hours). */
const FUTURE_LEEWAY_MS = 5 * 60_000;

/** A record checked for its topic, with the user it is about (the caller). */
export type ValidRecord =
  | { topic: 'play-tracking'; userUuid: string; record: PlayRecord }
  | { topic: 'page-views'; userUuid: string; name: string; properties: Record<string, unknown>; device: Device }
  | { topic: 'app-events'; userUuid: string; name: string; properties: Record<string, unknown>; device: Device };

function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw badRequest(parsed.error.issues.slice(0, 10).map((issue) => `record.${issue.path.join('.') || '(root)'}: ${issue.message}`));
  }
  return parsed.data;
}

/** The rules a play's dates follow: in order, not in the future, long enough for the event they report. */
export function checkPlayTimes(record: Pick<PlayRecord, 'event' | 'startedDate' | 'updatedDate'>, now: Date): void {
  const elapsedMs = record.updatedDate.getTime() - record.startedDate.getTime();
  if (elapsedMs < 0) throw badRequest('record.updatedDate: must not be before startedDate');
  if (record.updatedDate.getTime() > now.getTime() + FUTURE_LEEWAY_MS) throw badRequest('record.updatedDate: must not be in the future');
  // The client sends the 15-second event between 10 and 20 s, the 30-second one between 25 and 35 s.
  if (record.event === 'played15Sec' && elapsedMs < 10_000) throw badRequest('record: a 15-second play needs 10 s played');
  if (record.event === 'played30Sec' && elapsedMs < 25_000) throw badRequest('record: a 30-second play needs 25 s played');
}

/** Checks a `/kinesis` record for its topic, on behalf of its caller. */
export function validateRecord(caller: Caller, topic: string, recordJson: string, now: Date = new Date()): ValidRecord {
  if (caller.kind === 'service') throw forbidden('Records come from users');
  if (!(ANALYTICS_TOPICS as readonly string[]).includes(topic)) throw badRequest(`topic: must be one of ${ANALYTICS_TOPICS.join(', ')}`);
  // A UTF-16 unit is at most 3 bytes of UTF-8: short records need no count.
  if (recordJson.length * 3 > MAX_RECORD_BYTES && Buffer.byteLength(recordJson) > MAX_RECORD_BYTES)
    throw badRequest(`record: at most ${MAX_RECORD_BYTES} bytes of JSON`);
  let value: unknown;
  try {
    value = JSON.parse(recordJson);
  } catch {
    throw badRequest('record: must be a JSON object');
  }
  const ownUser = (userUuid: string | undefined) => {
    if (userUuid !== undefined && userUuid !== caller.userUuid) throw forbidden('A record may only be sent for its own user');
    return caller.userUuid;
  };
  switch (topic as AnalyticsTopic) {
    case 'play-tracking': {
      const record = parse(PlayRecordSchema, value);
      checkPlayTimes(record, now);
      return { topic: 'play-tracking', userUuid: ownUser(record.userUuid), record };
    }
    case 'page-views': {
      const view = parse(PageViewSchema, value);
      return { topic: 'page-views', userUuid: ownUser(view.userUuid), name: view.path, properties: view.query ?? {}, device: view.device };
    }
    case 'app-events': {
      const event = parse(AppEventSchema, value);
      return {
        topic: 'app-events',
        userUuid: ownUser(event.userUuid),
        name: event.name,
        properties: event.properties ?? {},
        device: event.device,
      };
    }
  }
}

/** A record's id once the broker has it, or why it was not sent. */
export type PublishOutcome = { id: string } | { refused: unknown };

/** Where checked records go: their Kafka topic; resolves with the record's id once the broker has it. */
export interface RecordSink {
  publish(record: ValidRecord): Promise<string>;
  /** Many records in one go: each one's outcome, in order, once every one is acknowledged or refused. */
  publishAll(records: readonly ValidRecord[]): Promise<PublishOutcome[]>;
}

/** A record of a batch, with the caller its token proved, or the refusal of its token. */
export type BatchRecord = { topic: string; recordJson: string } & ({ caller: Caller } | { refused: unknown });

/** A batch record's answer: its id and topic once the broker has it, or its refusal. */
export type BatchOutcome = { recordId: string; topic: AnalyticsTopic } | { refused: unknown };

export class Analytics {
  constructor(
    private readonly sink: RecordSink,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async record(caller: Caller, topic: string, recordJson: string): Promise<{ recordId: string; topic: AnalyticsTopic }> {
    const valid = validateRecord(caller, topic, recordJson, this.now());
    return { recordId: await this.sink.publish(valid), topic: valid.topic };
  }

  /**
   * A batch's records, each checked on behalf of its own caller as `record`
   * checks one, the valid ones sent together; answers each record's outcome,
   * in order, once every sent one is acknowledged (or refused).
   */
  async recordAll(records: readonly BatchRecord[]): Promise<BatchOutcome[]> {
    const now = this.now();
    const outcomes: BatchOutcome[] = new Array(records.length);
    const valid: ValidRecord[] = [];
    const sentAt: number[] = [];
    records.forEach((record, index) => {
      if ('refused' in record) {
        outcomes[index] = record;
        return;
      }
      try {
        valid.push(validateRecord(record.caller, record.topic, record.recordJson, now));
        sentAt.push(index);
      } catch (refused) {
        outcomes[index] = { refused };
      }
    });
    const published = await this.sink.publishAll(valid);
    published.forEach((outcome, i) => {
      outcomes[sentAt[i]!] = 'refused' in outcome ? outcome : { recordId: outcome.id, topic: valid[i]!.topic };
    });
    return outcomes;
  }
}
