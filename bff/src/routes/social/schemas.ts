import { z } from 'zod';
import { MAX_OFFSET } from '../../http/paging.js';

export const BASE = '/api/social-service';

/** `?skip&take`: 12 a page by default (spec 002's fans and following pages), at most 100. */
export const SkipTakeQuery = z.object({
  skip: z.coerce.number().int().min(0).max(MAX_OFFSET).default(0),
  take: z.coerce.number().int().min(1).max(100).default(12),
});

export const UuidParam = z.object({ id: z.uuid() });

const Instant = z.string().openapi({ description: 'ISO 8601' });

/** A page of a list: its items, how many there are in all, and the page asked for. */
export const pageOf = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      data: z.array(item),
      total: z.number().int().min(0),
      skip: z.number().int().min(0),
      take: z.number().int().min(1),
    })
    .openapi(name);

export const BlockSchema = z
  .object({ id: z.uuid(), blockerUuid: z.uuid(), blockedUuid: z.uuid(), createdAt: Instant })
  .openapi('BlockedUser');

export const DeviceSchema = z
  .object({
    id: z.uuid(),
    userUuid: z.uuid(),
    token: z.string().openapi({ description: "The FCM or APNs token; a web device's Web Push endpoint" }),
    type: z.enum(['ios', 'android', 'web']),
    webPush: z
      .object({ p256dh: z.string(), auth: z.string() })
      .nullable()
      .openapi({ description: "A web device's Web Push subscription keys; null for phones" }),
    createdAt: Instant,
    updatedAt: Instant,
  })
  .openapi('Device');

export const DjFanSchema = z.object({ id: z.uuid(), fanUuid: z.uuid(), djUuid: z.uuid(), createdAt: Instant }).openapi('DjFan');

export const DjSummarySchema = z
  .object({
    djUuid: z.uuid(),
    fans: z.number().int().min(0),
    following: z.number().int().min(0),
    lastFollowedAt: Instant.nullable(),
  })
  .openapi('DjSummary');

export const InvitationSchema = z
  .object({
    id: z.uuid(),
    fromUuid: z.uuid(),
    toUuid: z.uuid(),
    status: z.enum(['PENDING', 'ACCEPTED', 'REJECTED']),
    createdAt: Instant,
    answeredAt: Instant.nullable(),
  })
  .openapi('FriendInvitation');

export const FriendSchema = z
  .object({
    id: z.uuid().openapi({ description: "The friendship's id, the same from either side" }),
    userUuid: z.uuid(),
    friendUuid: z.uuid(),
    createdAt: Instant,
  })
  .openapi('Friend');

export const StoredContactSchema = z
  .object({ id: z.uuid(), kind: z.enum(['phone', 'email']), createdAt: Instant })
  .openapi('StoredContact');

export const Deleted = z.object({}).openapi('Deleted');
