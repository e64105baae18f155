import { z } from 'zod';
import '../../http/route.js'; // extends zod with .openapi()

export const AvatarStatus = z.enum(['PUBLIC', 'PRIVATE', 'SEASON_AWARD', 'SUBSCRIBER_ONLY']);
export const AssignmentType = z.enum(['MANUAL', 'SEASON_AWARD', 'PURCHASED']);
export const Slug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/)
  .openapi({ description: '1 to 64 lowercase letters, digits, - or _', example: 'disco-ball' });

export const AvatarSchema = z
  .object({
    slug: z.string(),
    name: z.string(),
    status: AvatarStatus,
    discordOnly: z.boolean().openapi({ description: 'Reserved for the Discord activity: worn only through an assignment' }),
    seasonId: z.uuid().nullable().openapi({ description: 'SEASON_AWARD: the season whose ranking earns it' }),
    rankThreshold: z.number().int().nullable().openapi({ description: 'SEASON_AWARD: the rank (this or better) that earns it' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Avatar');

export const AvatarCreateSchema = z
  .object({
    slug: Slug,
    name: z.string().trim().min(1).max(100),
    status: AvatarStatus,
    discordOnly: z.boolean().default(false),
    seasonId: z.uuid().optional(),
    rankThreshold: z.number().int().min(1).max(1_000_000).optional(),
  })
  .openapi('AvatarCreate');

export const AvatarPatchSchema = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    status: AvatarStatus.optional(),
    discordOnly: z.boolean().optional(),
    seasonId: z.uuid().optional(),
    rankThreshold: z.number().int().min(1).max(1_000_000).optional(),
  })
  .openapi('AvatarPatch');

export const AssignmentSchema = z
  .object({
    id: z.uuid(),
    avatarSlug: z.string(),
    userUuid: z.uuid(),
    assignmentType: AssignmentType,
    seasonId: z.uuid().nullable(),
    createdAt: z.string(),
  })
  .openapi('AvatarAssignment');

export const UserAvatarSchema = z
  .object({ avatar: AvatarSchema, userUuid: z.uuid(), canWear: z.boolean(), assignment: AssignmentSchema.nullable() })
  .openapi('UserAvatar');

export const AssignSchema = z
  .object({ userUuid: z.uuid(), assignmentType: AssignmentType.optional().openapi({ description: 'MANUAL when left out' }) })
  .openapi('AvatarAssign');

export const AssignedSchema = z.object({ assignment: AssignmentSchema, created: z.boolean() }).openapi('AvatarAssigned');

export const AdminAvatarSchema = AvatarSchema.partial().openapi('AdminAvatar');

const crudParam = (description: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .openapi({ description });
/** The @nestjsx/crud query (ARCHITECTURE.md), documented here and parsed by the points service from the raw query string. */
export const AvatarCrudQuery = z.object({
  fields: crudParam('Columns to answer, comma-separated: slug, name, status, seasonId, rankThreshold, createdAt, updatedAt'),
  s: crudParam('A search condition as JSON, e.g. {"status":"PUBLIC"}; takes precedence over filter and or'),
  filter: crudParam('field||$operator||value, repeated (ANDed)'),
  or: crudParam('field||$operator||value, repeated (ORed with the filters)'),
  sort: crudParam('field,ASC|DESC, repeated'),
  join: crudParam('No relations can be joined here'),
  limit: crudParam('Page size (25 by default, 100 at most)'),
  offset: crudParam('Rows to skip'),
  page: crudParam('Page number from 1 (wins over offset)'),
  cache: crudParam('Accepted; answers are never cached'),
});

export const AdminAvatarPageSchema = z
  .object({
    data: z.array(AdminAvatarSchema),
    count: z.number().int(),
    total: z.number().int(),
    page: z.number().int(),
    pageCount: z.number().int(),
  })
  .openapi('AdminAvatarPage');
