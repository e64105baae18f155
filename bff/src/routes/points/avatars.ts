import type { Avatar, AvatarAssignment } from '@spinroom/contracts/points/v1/avatars';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import { present } from '../../http/upstream.js';
import {
  AdminAvatarPageSchema,
  AdminAvatarSchema,
  AssignedSchema,
  AssignmentSchema,
  AssignSchema,
  AvatarCreateSchema,
  AvatarCrudQuery,
  AvatarPatchSchema,
  AvatarSchema,
  Slug,
  UserAvatarSchema,
} from './avatar-schemas.js';
import type { AvatarClient } from './clients.js';
import { iso } from './season-views.js';

const BASE = '/api/merch-service';
const BySlug = z.object({ slug: Slug });

export function avatarJson(avatar: Avatar | undefined): z.input<typeof AvatarSchema> {
  const a = present(avatar);
  return {
    slug: a.slug,
    name: a.name,
    status: a.status as z.input<typeof AvatarSchema>['status'],
    discordOnly: a.discordOnly,
    seasonId: a.seasonId ?? null,
    rankThreshold: a.rankThreshold ?? null,
    createdAt: iso(a.createdAt),
    updatedAt: iso(a.updatedAt),
  };
}

function assignmentJson(assignment: AvatarAssignment | undefined): z.input<typeof AssignmentSchema> {
  const a = present(assignment);
  return {
    id: a.id,
    avatarSlug: a.avatarSlug,
    userUuid: a.userUuid,
    assignmentType: a.assignmentType as z.input<typeof AssignmentSchema>['assignmentType'],
    seasonId: a.seasonId ?? null,
    createdAt: iso(a.createdAt),
  };
}

/** The admin lists answer the columns asked for (`fields`), the slug always. */
function pick(avatar: Avatar, fields: string[]): z.input<typeof AdminAvatarSchema> {
  const full = avatarJson(avatar) as Record<string, unknown>;
  return Object.fromEntries(['slug', ...fields].map((field) => [field, full[field]]));
}

function rawQuery(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

/**
 * Avatars and their assignments (spec 000's /avatars..., /all-avatars,
 * /service/avatar/{avatarSlug}, /avatar-assignment..., /admin/avatars... and
 * /points/backfill-achieved-avatars/{seasonId}). Reads need no token (a
 * caller sees what they may wear); admins write and assign; services look
 * avatars up and assign purchases.
 */
export function avatarRoutes(deps: RouteDeps, avatars: AvatarClient): void {
  const tags = ['avatars'];

  route(deps, {
    method: 'post',
    path: `${BASE}/avatars`,
    summary:
      'Creates an avatar (admins); a SEASON_AWARD avatar names its seasonId and rankThreshold. 409 for a slug taken, 404 for an unknown season',
    tags,
    status: 201,
    body: AvatarCreateSchema,
    response: AvatarSchema,
    errors: [403, 404, 409],
    handler: async ({ body }) => avatarJson((await avatars.createAvatar(body)).avatar),
  });

  const lists = [
    ['/avatars', 'mine', 'The avatars the caller may wear (public ones and those assigned to them); without a token the public ones'],
    ['/avatars/subscriber', 'subscriber', 'The SUBSCRIBER_ONLY avatars'],
    ['/all-avatars', 'all', 'Every avatar but the private ones (admins: all), for a picker showing what can be earned or bought'],
  ] as const;
  for (const [path, which, summary] of lists) {
    route(deps, {
      method: 'get',
      path: `${BASE}${path}`,
      summary,
      tags,
      auth: 'optional',
      response: z.array(AvatarSchema),
      handler: async () => (await avatars.listAvatars({ which })).avatars.map(avatarJson),
    });
  }

  route(deps, {
    method: 'get',
    path: `${BASE}/avatars/{slug}`,
    summary: 'One avatar (a PRIVATE one only for admins and those it is assigned to); 404 "Avatar not found"',
    tags,
    auth: 'optional',
    params: BySlug,
    response: AvatarSchema,
    errors: [404],
    handler: async ({ params }) => avatarJson((await avatars.getAvatar({ slug: params.slug })).avatar),
  });

  route(deps, {
    method: 'patch',
    path: `${BASE}/avatars/{slug}`,
    summary: 'Changes an avatar (admins); fields left out stay',
    tags,
    params: BySlug,
    body: AvatarPatchSchema,
    response: AvatarSchema,
    errors: [403, 404],
    handler: async ({ params, body }) => avatarJson((await avatars.patchAvatar({ slug: params.slug, ...body })).avatar),
  });

  for (const path of [`${BASE}/avatars/{slug}`, `${BASE}/admin/avatars/{slug}`]) {
    route(deps, {
      method: 'delete',
      path,
      summary: 'Deletes an avatar and its assignments (admins)',
      tags,
      params: BySlug,
      response: z.object({}).openapi('AvatarDeleted'),
      errors: [403, 404],
      handler: async ({ params }) => {
        await avatars.deleteAvatar({ slug: params.slug });
        return {};
      },
    });
  }

  route(deps, {
    method: 'get',
    path: `${BASE}/avatars/{slug}/{uuid}`,
    summary: 'Whether a user may wear an avatar, and their assignment of it',
    tags,
    auth: 'optional',
    params: z.object({ slug: Slug, uuid: z.uuid() }),
    response: UserAvatarSchema,
    errors: [404],
    handler: async ({ params }) => {
      const answer = await avatars.getUserAvatar({ slug: params.slug, userUuid: params.uuid });
      return {
        avatar: avatarJson(answer.avatar),
        userUuid: params.uuid,
        canWear: answer.canWear,
        assignment: answer.assignment ? assignmentJson(answer.assignment) : null,
      };
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/service/avatar/{avatarSlug}`,
    summary: 'One avatar whatever its status (services only)',
    tags,
    params: z.object({ avatarSlug: Slug }),
    response: AvatarSchema,
    errors: [403, 404],
    handler: async ({ params }) => avatarJson((await avatars.getServiceAvatar({ slug: params.avatarSlug })).avatar),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/avatar-assignment/{slug}`,
    summary:
      'Gives a user an avatar: admins MANUAL or SEASON_AWARD, services MANUAL or PURCHASED; a second call answers the assignment there is (created false)',
    tags,
    status: 201,
    params: BySlug,
    body: AssignSchema,
    response: AssignedSchema,
    errors: [403, 404],
    handler: async ({ params, body }) => {
      const answer = await avatars.assignAvatar({ slug: params.slug, userUuid: body.userUuid, assignmentType: body.assignmentType ?? '' });
      return { assignment: assignmentJson(answer.assignment), created: answer.created };
    },
  });

  route(deps, {
    method: 'delete',
    path: `${BASE}/avatar-assignment/{avatarAssignmentId}`,
    summary: 'Takes an avatar back (admins); 404 "Avatar assignment not found"',
    tags,
    params: z.object({ avatarAssignmentId: z.uuid() }),
    response: z.object({}).openapi('AvatarAssignmentDeleted'),
    errors: [403, 404],
    handler: async ({ params }) => {
      await avatars.deleteAvatarAssignment({ id: params.avatarAssignmentId });
      return {};
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/admin/avatars`,
    summary: 'Avatars in the @nestjsx/crud query syntax (admins); unknown fields are a 400',
    tags: ['admin'],
    query: AvatarCrudQuery,
    response: AdminAvatarPageSchema,
    errors: [403],
    handler: async ({ req }) => {
      const page = await avatars.adminListAvatars({ query: rawQuery(req.originalUrl), slug: '' });
      return {
        data: page.data.map((a) => pick(a, page.fields)),
        count: page.count,
        total: page.total,
        page: page.page,
        pageCount: page.pageCount,
      };
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/admin/avatars/{slug}`,
    summary: 'One avatar (admins); `fields` chooses the columns',
    tags: ['admin'],
    params: BySlug,
    query: AvatarCrudQuery,
    response: AdminAvatarSchema,
    errors: [403, 404],
    handler: async ({ params, req }) => {
      const page = await avatars.adminListAvatars({ query: rawQuery(req.originalUrl), slug: params.slug });
      return pick(present(page.data[0]), page.fields);
    },
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/points/backfill-achieved-avatars/{seasonId}`,
    summary:
      "Assigns the season's SEASON_AWARD avatars to the users whose rank earned them (admins), at most `limit` (1000 by default) a call; again until done",
    tags,
    params: z.object({ seasonId: z.uuid() }),
    query: z.object({ limit: z.coerce.number().int().min(1).max(10_000).default(1000) }),
    response: z.object({ assigned: z.number().int(), done: z.boolean() }).openapi('AvatarBackfill'),
    errors: [403, 404],
    handler: async ({ params, query }) => avatars.backfillAchievedAvatars({ seasonId: params.seasonId, limit: query.limit }),
  });
}
