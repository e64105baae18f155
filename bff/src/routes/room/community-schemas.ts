import type { Community, CommunityMember, CommunityRef, Event, EventRef } from '@spinroom/contracts/room/v1/community_service';
import { z } from 'zod';
import { present } from '../../http/upstream.js';

/** Communities and events as the REST paths answer and take them (room service, CommunityService). */

const iso = (date: Date | undefined) => (date ?? new Date(0)).toISOString();
const isoOrNull = (date: Date | undefined) => (date ? date.toISOString() : null);

/** A community or event in a path: its numeric id, uuid or slug. */
export const CommunityKey = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9-]+$/, 'must be an id, a uuid or a slug');
/** A room in a path or a list: its slug (any case) or uuid. */
export const RoomKey = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9-]+$/, 'must be a room slug or uuid');

export const CommunitySchema = z
  .object({
    id: z.number().int(),
    uuid: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    imageUrl: z.string().nullable(),
    ownerUuid: z.string().nullable(),
    membersCount: z.number().int(),
    roomsCount: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
    isMember: z.boolean().openapi({ description: "Whether the caller is a member (the special communities' check: jqbx, web3)" }),
    memberRole: z.enum(['owner', 'moderator', 'member']).nullable(),
  })
  .openapi('Community');

export const AdminCommunitySchema = CommunitySchema.partial().openapi('AdminCommunity');

const Name = z.string().min(1).max(100);
const Slug = z.string().min(1).max(64);
const Description = z.string().max(2000);
const ImageUrl = z.string().max(2048).nullable();

export const CommunityCreateSchema = z
  .object({
    name: Name,
    slug: Slug.optional().openapi({ description: 'Derived from the name when left out (-2, -3, ... on a clash); a slug taken is 409' }),
    description: Description.optional(),
    imageUrl: ImageUrl.optional(),
    ownerUuid: z.uuid().nullable().optional().openapi({ description: 'The owner, who becomes a member as owner' }),
  })
  .openapi('CommunityCreate');

export const CommunityPatchSchema = CommunityCreateSchema.partial().openapi('CommunityPatch');

/** A bulk entry: a community to create (nothing to clear, so no nulls). */
const CommunityBulkItemSchema = z
  .object({
    name: Name,
    slug: Slug.optional(),
    description: Description.optional(),
    imageUrl: z.string().max(2048).optional(),
    ownerUuid: z.uuid().optional(),
  })
  .openapi('CommunityBulkItem');

export const CommunityBulkSchema = z.object({ bulk: z.array(CommunityBulkItemSchema).min(1).max(100) }).openapi('CommunityBulk');

export const CommunityMemberSchema = z
  .object({ userUuid: z.string(), role: z.enum(['owner', 'moderator', 'member']), joinedAt: z.string() })
  .openapi('CommunityMember');

export const CommunityMemberPageSchema = z
  .object({ users: z.array(CommunityMemberSchema), total: z.number().int() })
  .openapi('CommunityMemberPage');

export const CommunityRoomsChangeSchema = z
  .object({ community: CommunitySchema, changed: z.number().int().openapi({ description: 'Rooms added (or taken out) by this call' }) })
  .openapi('CommunityRoomsChange');

export const EventSchema = z
  .object({
    id: z.number().int(),
    uuid: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    imageUrl: z.string().nullable(),
    roomId: z.number().int(),
    roomUuid: z.string(),
    roomSlug: z.string(),
    roomName: z.string(),
    communityId: z.number().int().nullable(),
    communityUuid: z.string().nullable(),
    communitySlug: z.string().nullable(),
    startTime: z.string(),
    endTime: z.string(),
    liveAt: z.string().nullable().openapi({ description: 'When its room went live for it' }),
    status: z.enum(['upcoming', 'live', 'ended']),
    createdBy: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Event');

export const AdminEventSchema = EventSchema.partial().openapi('AdminEvent');

export const EventPageSchema = z.object({ events: z.array(EventSchema), total: z.number().int() }).openapi('EventPage');

const Time = z.iso.datetime({ offset: true });

export const EventCreateSchema = z
  .object({
    name: Name,
    slug: Slug.optional(),
    description: Description.optional(),
    imageUrl: ImageUrl.optional(),
    room: RoomKey.openapi({ description: 'The room that goes live at the start: its slug or uuid' }),
    community: CommunityKey.nullable().optional().openapi({ description: 'The community whose members are told: its id, uuid or slug' }),
    startTime: Time,
    endTime: Time.optional().openapi({ description: 'Two hours after the start when left out; an event lasts at most 7 days' }),
  })
  .openapi('EventCreate');

export const EventPatchSchema = EventCreateSchema.partial().openapi('EventPatch');

export const EventListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  community: CommunityKey.optional().openapi({ description: "Only this community's events" }),
});

const crudParam = (description: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .openapi({ description });

/** The @nestjsx/crud query (ARCHITECTURE.md), documented here and parsed by the room service from the raw query string. */
export function crudQuerySchema(columns: string) {
  return z.object({
    fields: crudParam(`Columns to answer, comma-separated: ${columns} (id and uuid always)`),
    s: crudParam('A search condition as JSON, e.g. {"name":{"$cont":"house"}}; takes precedence over filter and or'),
    filter: crudParam('field||$operator||value, repeated (ANDed)'),
    or: crudParam('field||$operator||value, repeated (ORed with the filters)'),
    sort: crudParam('field,ASC|DESC, repeated'),
    join: crudParam('No relations can be joined here'),
    limit: crudParam('Page size (25 by default, 100 at most)'),
    offset: crudParam('Rows to skip'),
    page: crudParam('Page number from 1 (wins over offset)'),
    cache: crudParam('Accepted; answers are never cached'),
  });
}

export function rawQuery(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

/** A path key as the service's ref: it tells an id, a uuid and a slug apart. */
export function communityRef(key: string): CommunityRef & EventRef {
  return { id: 0, uuid: '', slug: key };
}

export function communityJson(community: Community | undefined): z.input<typeof CommunitySchema> {
  const c = present(community);
  return {
    id: c.id,
    uuid: c.uuid,
    slug: c.slug,
    name: c.name,
    description: c.description,
    imageUrl: c.imageUrl ?? null,
    ownerUuid: c.ownerUuid || null,
    membersCount: c.membersCount,
    roomsCount: c.roomsCount,
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
    isMember: c.isMember,
    memberRole: (c.memberRole || null) as z.input<typeof CommunitySchema>['memberRole'],
  };
}

export function memberJson(member: CommunityMember | undefined): z.input<typeof CommunityMemberSchema> {
  const m = present(member);
  return { userUuid: m.userUuid, role: m.role as z.input<typeof CommunityMemberSchema>['role'], joinedAt: iso(m.joinedAt) };
}

export function eventJson(event: Event | undefined): z.input<typeof EventSchema> {
  const e = present(event);
  return {
    id: e.id,
    uuid: e.uuid,
    slug: e.slug,
    name: e.name,
    description: e.description,
    imageUrl: e.imageUrl ?? null,
    roomId: e.roomId,
    roomUuid: e.roomUuid,
    roomSlug: e.roomSlug,
    roomName: e.roomName,
    communityId: e.communityId || null,
    communityUuid: e.communityUuid || null,
    communitySlug: e.communitySlug || null,
    startTime: iso(e.startTime),
    endTime: iso(e.endTime),
    liveAt: isoOrNull(e.liveAt),
    status: e.status as z.input<typeof EventSchema>['status'],
    createdBy: e.createdBy,
    createdAt: iso(e.createdAt),
    updatedAt: iso(e.updatedAt),
  };
}

/** The admin lists answer the columns asked for (`fields`). */
export function pick<T extends Record<string, unknown>>(full: T, fields: string[]): Partial<T> {
  return Object.fromEntries(fields.filter((f) => f in full).map((field) => [field, full[field]])) as Partial<T>;
}
