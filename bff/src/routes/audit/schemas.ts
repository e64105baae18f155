import { MODERATION_ACTION_TYPES } from '@spinroom/contracts/moderation';
import { z } from 'zod';

/** Spec 002's word for an instant: ISO 8601 with its offset, or milliseconds since 1970. */
const Instant = z.union([z.iso.datetime({ offset: true }), z.number().int().min(0).max(253_402_300_799_999)]);
const text = (max: number) => z.string().max(max);

export const DeviceSchema = z
  .object({
    platform: text(32).optional().openapi({ description: 'web, ios, android, discord...' }),
    os: text(64).optional(),
    osVersion: text(64).optional(),
    browser: text(64).optional(),
    browserVersion: text(64).optional(),
    appVersion: text(64).optional(),
    model: text(128).optional(),
    userAgent: text(512).optional(),
    language: text(35).optional(),
    timezone: text(64).optional(),
  })
  .openapi('DeviceData', { description: 'What the client says of its device (every field optional, the object required)' });

const PlayRecordSchema = z
  .object({
    event: z.enum(['totalPlayed', 'played15Sec', 'played30Sec']).openapi({
      description: 'totalPlayed when the play ends (its time listened counts), played15Sec once at 10-20 s, played30Sec once at 25-35 s',
    }),
    playId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .openapi({ description: 'The play, made by the client at its start: each play id counts once per event' }),
    userUuid: z.uuid().openapi({ description: "The caller's own uuid (403 for another's)" }),
    roomSlug: z.string().min(1).max(255),
    roomOwnerUuid: z.uuid().optional(),
    djUuid: z.uuid(),
    songInfo: z.object({
      songId: z.string().min(1).max(255),
      trackName: text(500).optional(),
      artistName: text(500).optional(),
      duration: z.number().min(0).max(86_400).optional().openapi({ description: 'Seconds' }),
      musicProvider: text(32).optional(),
      isrc: text(32).optional(),
    }),
    startedDate: Instant,
    updatedDate: Instant.openapi({ description: 'Not before startedDate; at least 10 s after it for played15Sec, 25 s for played30Sec' }),
    volumeStart: z.number().min(0).max(100).optional(),
    volumeEnd: z.number().min(0).max(100).optional(),
    sent15sec: z.boolean().optional(),
    sent30sec: z.boolean().optional(),
    userProvider: text(64).optional(),
    subscriptionLevel: text(64).optional(),
    device: DeviceSchema,
  })
  .openapi('PlayTrackingRecord');

const PageViewSchema = z
  .object({
    userUuid: z.uuid().optional(),
    path: z.string().min(1).max(2048).startsWith('/'),
    query: z.record(z.string().max(128), z.union([z.string().max(2048), z.array(z.string().max(2048)).max(50)])).optional(),
    device: DeviceSchema,
  })
  .openapi('PageViewRecord');

const AppEventSchema = z
  .object({
    userUuid: z.uuid().optional(),
    name: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/),
    properties: z.record(z.string().max(128), z.unknown()).optional(),
    device: DeviceSchema,
  })
  .openapi('AppEventRecord');

export const KinesisBody = z
  .discriminatedUnion('topic', [
    z.object({ topic: z.literal('play-tracking'), record: PlayRecordSchema }),
    z.object({ topic: z.literal('page-views'), record: PageViewSchema }),
    z.object({ topic: z.literal('app-events'), record: AppEventSchema }),
  ])
  .openapi('KinesisRecord');

export const ModerationActionSchema = z
  .object({
    id: z.uuid(),
    actionType: z.string(),
    previousRole: z.string().nullable(),
    role: z.string().nullable(),
    roomUuid: z.string().nullable(),
    actorUuid: z.string().nullable(),
    targetUuid: z.string().nullable(),
    actorTokenRole: z.string().nullable(),
    expirationTime: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    source: z.enum(['kafka', 'api']).openapi({ description: 'kafka: published by the room or user service; api: written by an admin' }),
  })
  .partial()
  .openapi('ModerationAction', { description: 'The columns asked for (`fields`; all by default)' });

const RoleWord = z
  .string()
  .regex(/^[A-Za-z]{1,64}$/)
  .nullable()
  .openapi({ description: 'A room role, user role or capability word (owner, globalModerator...)' });

const ActionFields = {
  actionType: z.enum(MODERATION_ACTION_TYPES as unknown as [string, ...string[]]),
  previousRole: RoleWord,
  role: RoleWord,
  roomUuid: z.uuid().nullable(),
  actorUuid: z.uuid().nullable().openapi({ description: 'The caller unless given' }),
  targetUuid: z.uuid(),
  actorTokenRole: z
    .string()
    .regex(/^[A-Za-z]{1,32}$/)
    .nullable()
    .openapi({ description: "The actor's token role; the caller's unless given" }),
  expirationTime: z.iso.datetime({ offset: true }).nullable(),
};

export const ActionCreateSchema = z
  .object({
    ...ActionFields,
    previousRole: ActionFields.previousRole.optional(),
    role: ActionFields.role.optional(),
    roomUuid: ActionFields.roomUuid.optional(),
    actorUuid: ActionFields.actorUuid.optional(),
    actorTokenRole: ActionFields.actorTokenRole.optional(),
    expirationTime: ActionFields.expirationTime.optional(),
  })
  .openapi('ModerationActionCreate');
export const ActionPatchSchema = z.object(ActionFields).partial().openapi('ModerationActionPatch');

const crudParam = (description: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .openapi({ description });
/** The @nestjsx/crud query (ARCHITECTURE.md), documented here and parsed by the audit service from the raw query string. */
export const CrudQuery = z.object({
  fields: crudParam('Columns to answer, comma-separated (id always)'),
  s: crudParam('A search condition as JSON, e.g. {"actionType":"banUser"}; takes precedence over filter and or'),
  filter: crudParam('field||$operator||value, repeated (ANDed)'),
  or: crudParam('field||$operator||value, repeated (ORed with the filters)'),
  sort: crudParam('field,ASC|DESC, repeated (newest first by default)'),
  join: crudParam('No relations can be joined here'),
  limit: crudParam('Page size (25 by default, 100 at most)'),
  offset: crudParam('Rows to skip'),
  page: crudParam('Page number from 1 (wins over offset)'),
  cache: crudParam('Accepted; answers are never cached'),
});

export const GeolocationSchema = z
  .object({
    ip: z.string(),
    found: z.boolean().openapi({ description: 'false for private and unknown addresses (the other fields are then empty)' }),
    country: z.string().openapi({ description: 'ISO 3166-1 alpha-2' }),
    region: z.string(),
    city: z.string(),
    timezone: z.string(),
    eu: z.boolean(),
    ll: z.array(z.number()).length(2).nullable().openapi({ description: 'Latitude and longitude' }),
    metro: z.number().int(),
    area: z.number().int().openapi({ description: 'Accuracy radius in km' }),
  })
  .openapi('Geolocation');
