import type { ModerationAction, ModerationActionInput } from '@spinroom/contracts/audit/v1/audit';
import { AppError } from '@spinroom/platform/core';
import { z } from 'zod';
import { pageOffset, pageSize } from '../../http/paging.js';
import { route, type RouteDeps } from '../../http/route.js';
import { present } from '../../http/upstream.js';
import type { AuditClient } from './clients.js';
import { KinesisBatcher } from './kinesis-batcher.js';
import { ActionCreateSchema, ActionPatchSchema, CrudQuery, GeolocationSchema, KinesisBody, ModerationActionSchema } from './schemas.js';

export { createAuditClient, type AuditClient } from './clients.js';

const BASE = '/api/audit-service';
const ById = z.object({ id: z.uuid() });
const NULLABLE = new Set(['previousRole', 'role', 'roomUuid', 'actorUuid', 'targetUuid', 'actorTokenRole', 'expirationTime']);

function rawQuery(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

/** An action's selected columns as JSON: empty strings are nulls, times ISO. */
export function actionJson(action: ModerationAction | undefined): z.input<typeof ModerationActionSchema> {
  const a = present(action);
  const values: Record<string, unknown> = {
    id: a.id,
    actionType: a.actionType,
    previousRole: a.previousRole,
    role: a.role,
    roomUuid: a.roomUuid,
    actorUuid: a.actorUuid,
    targetUuid: a.targetUuid,
    actorTokenRole: a.actorTokenRole,
    expirationTime: a.expirationTime?.toISOString() ?? null,
    createdAt: a.createdAt?.toISOString(),
    updatedAt: a.updatedAt?.toISOString(),
    source: a.source,
  };
  return Object.fromEntries(
    a.fields.map((field) => {
      const value = values[field];
      return [field, NULLABLE.has(field) && (value === '' || value === undefined) ? null : value];
    }),
  );
}

/** A body's fields as the message: null clears (an empty string, or clear_expiration_time). */
function actionInput(body: z.infer<typeof ActionPatchSchema>): ModerationActionInput {
  const input: ModerationActionInput = { clearExpirationTime: false };
  if (body.actionType !== undefined) input.actionType = body.actionType;
  for (const key of ['previousRole', 'role', 'roomUuid', 'actorUuid', 'targetUuid', 'actorTokenRole'] as const) {
    const value = body[key];
    if (value !== undefined) input[key] = value ?? '';
  }
  if (body.expirationTime === null) input.clearExpirationTime = true;
  else if (body.expirationTime !== undefined) input.expirationTime = new Date(body.expirationTime);
  return input;
}

/** Every call refuses with 503 when the BFF runs without the audit service. */
function unavailable(): AuditClient {
  return new Proxy({}, { get: () => () => Promise.reject(new AppError(503, 'Audit is not available')) }) as AuditClient;
}

/**
 * /api/audit-service (spec 002 "Audit and analytics"): `/kinesis`, the
 * moderation actions, user actions, the info-admin paths and geolocation.
 * The audit service decides who may do what (staff read, admins write).
 */
export function auditServiceRoutes(deps: RouteDeps, client: AuditClient | undefined): void {
  const audit = client ?? unavailable();
  const tags = ['audit'];
  // Concurrent /kinesis requests share one call to the audit service (kinesis-batcher.ts).
  const kinesis = new KinesisBatcher((records) => audit.recordAnalyticsBatch({ records }));

  route(deps, {
    method: 'post',
    path: `${BASE}/kinesis`,
    summary:
      'An analytics record onto its Kafka topic (play-tracking, page-views, app-events), answered once the broker acknowledged it; 403 for a record naming another user',
    tags,
    body: KinesisBody,
    status: 201,
    response: z.object({ recordId: z.uuid(), topic: z.string() }),
    errors: [403, 503],
    handler: async ({ body, caller }) =>
      kinesis.record({ accessToken: caller.token, topic: body.topic, recordJson: JSON.stringify(body.record) }),
  });

  const moderation = ['moderation-actions'];
  route(deps, {
    method: 'get',
    path: `${BASE}/moderation-actions`,
    summary: 'Moderation actions, in the @nestjsx/crud query syntax (staff); unknown fields are a 400',
    tags: moderation,
    query: CrudQuery,
    response: z
      .object({
        data: z.array(ModerationActionSchema),
        count: z.number().int(),
        total: z.number().int(),
        page: z.number().int(),
        pageCount: z.number().int(),
      })
      .openapi('ModerationActionsPage'),
    errors: [403],
    handler: async ({ req }) => {
      const page = await audit.listModerationActions({ query: rawQuery(req.originalUrl) });
      return { data: page.data.map(actionJson), count: page.count, total: page.total, page: page.page, pageCount: page.pageCount };
    },
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/moderation-actions`,
    summary: 'Record a moderation action (admins); the actor is the caller unless given',
    tags: moderation,
    body: ActionCreateSchema,
    status: 201,
    response: ModerationActionSchema,
    errors: [403],
    handler: async ({ body }) => actionJson((await audit.createModerationActions({ actions: [actionInput(body)] })).actions[0]),
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/moderation-actions/bulk`,
    summary: 'Record up to 1000 moderation actions at once, all or none (admins)',
    tags: moderation,
    body: z.object({ bulk: z.array(ActionCreateSchema).min(1).max(1000) }),
    status: 201,
    response: z.array(ModerationActionSchema),
    errors: [403],
    handler: async ({ body }) => (await audit.createModerationActions({ actions: body.bulk.map(actionInput) })).actions.map(actionJson),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/moderation-actions/{id}`,
    summary: 'One moderation action (staff); `fields` chooses the columns',
    tags: moderation,
    params: ById,
    query: CrudQuery,
    response: ModerationActionSchema,
    errors: [403, 404],
    handler: async ({ params, req }) =>
      actionJson((await audit.getModerationAction({ id: params.id, query: rawQuery(req.originalUrl) })).action),
  });
  route(deps, {
    method: 'patch',
    path: `${BASE}/moderation-actions/{id}`,
    summary: 'Change the fields given of a moderation action (admins); null clears one',
    tags: moderation,
    params: ById,
    body: ActionPatchSchema,
    response: ModerationActionSchema,
    errors: [403, 404],
    handler: async ({ params, body }) =>
      actionJson((await audit.updateModerationAction({ id: params.id, action: actionInput(body), replace: false })).action),
  });
  route(deps, {
    method: 'put',
    path: `${BASE}/moderation-actions/{id}`,
    summary: 'Replace a moderation action (admins): actionType and targetUuid required, the fields left out cleared',
    tags: moderation,
    params: ById,
    body: ActionCreateSchema,
    response: ModerationActionSchema,
    errors: [403, 404],
    handler: async ({ params, body }) =>
      actionJson((await audit.updateModerationAction({ id: params.id, action: actionInput(body), replace: true })).action),
  });
  route(deps, {
    method: 'delete',
    path: `${BASE}/moderation-actions/{id}`,
    summary: 'Delete a moderation action (admins); answers what was deleted',
    tags: moderation,
    params: ById,
    response: ModerationActionSchema,
    errors: [403, 404],
    handler: async ({ params }) => actionJson((await audit.deleteModerationAction({ id: params.id })).action),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/user-actions/{id}`,
    summary:
      "The moderation actions a user took or was the target of, newest first (the user themself or staff; 403 'Unauthorized to perform action')",
    tags: moderation,
    params: ById,
    query: z.object({ limit: pageSize(25), offset: pageOffset() }),
    response: z.object({ data: z.array(ModerationActionSchema), total: z.number().int() }).openapi('UserActions'),
    errors: [403],
    handler: async ({ params, query }) => {
      const { actions, total } = await audit.listUserActions({ userUuid: params.id, limit: query.limit, offset: query.offset });
      return { data: actions.map(actionJson), total };
    },
  });

  const info = ['info'];
  route(deps, {
    method: 'get',
    path: `${BASE}/info-admin/socket-events-names`,
    summary: "The room feed's socket event names: actions, then messages (staff)",
    tags: info,
    response: z.array(z.string()),
    errors: [403],
    handler: async () => (await audit.getSocketEventNames({})).names,
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/info-admin/user-events-names`,
    summary: 'The names of the user events the audit service records (staff)',
    tags: info,
    response: z.array(z.string()),
    errors: [403],
    handler: async () => (await audit.getUserEventNames({})).names,
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/info-admin/event-last/{id}`,
    summary: 'The last event recorded of a user (staff); 404 when none is',
    tags: info,
    params: ById,
    response: z
      .object({
        userUuid: z.uuid(),
        name: z.string(),
        topic: z.string(),
        occurredAt: z.string(),
        detail: z.record(z.string(), z.unknown()),
      })
      .openapi('UserLastEvent'),
    errors: [403, 404],
    handler: async ({ params }) => {
      const event = present((await audit.getLastUserEvent({ userUuid: params.id })).event);
      return {
        userUuid: event.userUuid,
        name: event.name,
        topic: event.topic,
        occurredAt: present(event.occurredAt).toISOString(),
        detail: JSON.parse(event.detailJson) as Record<string, unknown>,
      };
    },
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/info-admin/play-totals`,
    summary:
      "Spinroom's play-tracking totals (staff): every play (no scope), or one song's, DJ's, room's or user's; plays, seconds heard, 15 s and 30 s plays",
    tags: info,
    query: z
      .object({
        scope: z.enum(['song', 'dj', 'room', 'user']).optional().openapi({ description: 'Left out with key: every play' }),
        key: z.string().min(1).max(255).optional().openapi({ description: "The song's id, or the DJ's, room's (slug) or user's uuid" }),
      })
      .refine((q) => (q.scope === undefined) === (q.key === undefined), { message: 'scope and key go together' }),
    response: z
      .object({
        totalPlayed: z.number().int(),
        playedSeconds: z.number().int(),
        fifteenSecondPlays: z.number().int(),
        thirtySecondPlays: z.number().int(),
      })
      .openapi('PlayTotals'),
    errors: [403],
    handler: async ({ query }) => {
      const { totals } = await audit.getPlayTotals({ scope: query.scope ?? '', key: query.key ?? '' });
      return {
        totalPlayed: totals?.totalPlayed ?? 0,
        playedSeconds: totals?.playedSeconds ?? 0,
        fifteenSecondPlays: totals?.fifteenSecondPlays ?? 0,
        thirtySecondPlays: totals?.thirtySecondPlays ?? 0,
      };
    },
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/info-admin/audit-service-status`,
    summary: "The audit service's version, uptime, database and what it has counted (staff)",
    tags: info,
    response: z
      .object({
        status: z.literal('ok'),
        version: z.string(),
        startedAt: z.string(),
        uptimeSeconds: z.number().int(),
        databaseOk: z.boolean(),
        moderationActions: z.number().int(),
        playsCounted: z.number().int(),
      })
      .openapi('AuditServiceStatus'),
    errors: [403],
    handler: async () => {
      const status = await audit.getAuditServiceStatus({});
      const startedAt = status.startedAt ?? new Date();
      return {
        status: 'ok' as const,
        version: status.version,
        startedAt: startedAt.toISOString(),
        uptimeSeconds: Math.max(0, Math.floor((Date.now() - startedAt.getTime()) / 1000)),
        databaseOk: status.databaseOk,
        moderationActions: status.moderationActions,
        playsCounted: status.playsCounted,
      };
    },
  });

  const geolocate = async (ip: string) => {
    const found = await audit.geolocate({ ip });
    return {
      ip: found.ip,
      found: found.found,
      country: found.country,
      region: found.region,
      city: found.city,
      timezone: found.timezone,
      eu: found.eu,
      ll: found.found ? [found.latitude, found.longitude] : null,
      metro: found.metro,
      area: found.area,
    };
  };
  route(deps, {
    method: 'get',
    path: `${BASE}/geolocate`,
    summary: "Where the caller's address is (as the BFF sees it, behind the trusted proxies), from a shipped database",
    tags,
    response: GeolocationSchema,
    handler: async ({ req }) => geolocate(req.ip ?? ''),
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/geolocate`,
    summary: "Where an address is (the caller's when none is given), from a shipped database",
    tags,
    body: z.object({ ip: z.union([z.ipv4(), z.ipv6()]).optional() }),
    response: GeolocationSchema,
    handler: async ({ body, req }) => geolocate(body.ip ?? req.ip ?? ''),
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/sentry-testing`,
    summary: 'Log an error on purpose, to check error reporting end to end (admins)',
    tags: info,
    response: z.object({ eventId: z.uuid() }),
    errors: [403],
    handler: async () => audit.reportTestError({}),
  });
}
