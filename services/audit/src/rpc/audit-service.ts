import type {
  AnalyticsRecordError,
  AuditServiceServer,
  ModerationAction as ModerationActionMessage,
  ModerationActionInput,
} from '@spinroom/contracts/audit/v1/audit';
import { AppError, badRequest, notFound, type createUnaryFactory, type Logger, type TokenVerifier } from '@spinroom/platform';
import { randomUUID } from 'node:crypto';
import type { PgPlayStore } from '../db/play-store.js';
import type { Analytics, BatchRecord } from '../domain/analytics.js';
import { SOCKET_EVENT_NAMES, USER_EVENT_NAMES } from '../domain/event-names.js';
import type { Geolocator } from '../domain/geolocation.js';
import {
  MODERATION_ACTION_COLUMNS,
  type ActionInput,
  type ModerationActionColumn,
  type ModerationActionRow,
  type ModerationActions,
  type SelectedAction,
} from '../domain/moderation-actions.js';
import { PLAY_SCOPES, type PlayScope } from '../domain/plays.js';
import { requireAdmin, requireStaff } from '../domain/roles.js';

/** The audit service's API version. */
export const AUDIT_SERVICE_VERSION = '1.0.0';
const ALL_COLUMNS = Object.keys(MODERATION_ACTION_COLUMNS) as ModerationActionColumn[];

/** A row (or the columns a query selected) as the message; unselected and null columns are empty. */
export function actionMessage(row: SelectedAction | ModerationActionRow): ModerationActionMessage {
  const fields = 'fields' in row && Array.isArray(row.fields) ? row.fields : ALL_COLUMNS;
  return {
    fields,
    id: row.id ?? '',
    actionType: row.actionType ?? '',
    previousRole: row.previousRole ?? '',
    role: row.role ?? '',
    roomUuid: row.roomUuid ?? '',
    actorUuid: row.actorUuid ?? '',
    targetUuid: row.targetUuid ?? '',
    actorTokenRole: row.actorTokenRole ?? '',
    expirationTime: row.expirationTime ?? undefined,
    createdAt: row.createdAt ?? undefined,
    updatedAt: row.updatedAt ?? undefined,
    source: row.source ?? '',
  };
}

/** The message's fields that are set; an empty string or clear_expiration_time clears. */
export function actionInput(message: ModerationActionInput | undefined): ActionInput {
  if (!message) throw badRequest('action: is required');
  const input: ActionInput = {};
  const text = (value: string | undefined) => (value === undefined ? undefined : value === '' ? null : value);
  if (message.actionType !== undefined) input.actionType = message.actionType;
  for (const key of ['previousRole', 'role', 'roomUuid', 'actorUuid', 'targetUuid', 'actorTokenRole'] as const) {
    const value = text(message[key]);
    if (value !== undefined) input[key] = value;
  }
  if (message.clearExpirationTime) input.expirationTime = null;
  else if (message.expirationTime) input.expirationTime = message.expirationTime;
  return input;
}

/** The most records one RecordAnalyticsBatch call may carry. */
export const MAX_BATCH_RECORDS = 5000;

/** A record's refusal as its batch answer carries it: an AppError as is, anything else a 500 that names nothing. */
export function recordError(error: unknown, logger: Logger): AnalyticsRecordError {
  if (error instanceof AppError) {
    return { httpStatus: error.status, messagesJson: JSON.stringify(error.messages), code: error.code ?? '' };
  }
  logger.error({ err: error }, 'a /kinesis record failed');
  return { httpStatus: 500, messagesJson: JSON.stringify('Internal Server Error'), code: '' };
}

/** gRPC handlers of spinroom.audit.v1.AuditService: who calls, then the domain decides. */
export function auditServiceHandlers(deps: {
  analytics: Analytics;
  /** Verifies the tokens a batch's records carry (the kit's, which `unary` uses for the metadata's). */
  verifier: () => TokenVerifier | undefined;
  actions: ModerationActions;
  plays: PgPlayStore;
  geolocator: Geolocator;
  logger: Logger;
  unary: ReturnType<typeof createUnaryFactory>;
  startedAt: Date;
}): AuditServiceServer {
  const { analytics, actions, plays, geolocator, logger, unary, startedAt } = deps;
  return {
    recordAnalytics: unary(async (req, ctx) => analytics.record(ctx.caller, req.topic, req.recordJson)),
    // The call needs no token: each record proves its own caller, checked as the metadata's would be.
    recordAnalyticsBatch: unary.public(async (req) => {
      if (req.records.length > MAX_BATCH_RECORDS) throw badRequest(`records: at most ${MAX_BATCH_RECORDS} in one call`);
      const verifier = deps.verifier();
      // Each record's caller: at once when the verifier holds its token and session check
      // (most of a busy user's records), else verified (those alone wait, side by side).
      const records: BatchRecord[] = new Array(req.records.length);
      const verifying: Array<Promise<void>> = [];
      req.records.forEach(({ accessToken, topic, recordJson }, index) => {
        if (!verifier) {
          records[index] = { topic, recordJson, refused: new AppError(503, 'Sign-in is not available yet, please try again') };
          return;
        }
        const caller = verifier.verifiedNow(accessToken);
        if (caller) records[index] = { topic, recordJson, caller };
        else {
          verifying.push(
            verifier.verify(accessToken).then(
              (verified) => {
                records[index] = { topic, recordJson, caller: verified };
              },
              (refused: unknown) => {
                records[index] = { topic, recordJson, refused };
              },
            ),
          );
        }
      });
      await Promise.all(verifying);
      const outcomes = await analytics.recordAll(records);
      return {
        results: outcomes.map((outcome) =>
          'refused' in outcome
            ? { recordId: '', topic: '', error: recordError(outcome.refused, logger) }
            : { recordId: outcome.recordId, topic: outcome.topic, error: undefined },
        ),
      };
    }),
    getPlayTotals: unary(async (req, ctx) => {
      requireStaff(ctx.caller);
      const scope = (req.scope === '' ? 'all' : req.scope) as PlayScope;
      const keyed = scope !== 'all';
      if (!PLAY_SCOPES.includes(scope) || keyed !== (req.key !== '')) {
        throw badRequest('scope and key: both empty (every play), or song, dj, room or user with its key');
      }
      return { totals: await plays.totals(scope, req.key) };
    }),
    listModerationActions: unary(async (req, ctx) => {
      const page = await actions.list(ctx.caller, req.query);
      return { ...page, data: page.data.map(actionMessage) };
    }),
    getModerationAction: unary(async (req, ctx) => ({ action: actionMessage(await actions.get(ctx.caller, req.id, req.query)) })),
    createModerationActions: unary(async (req, ctx) => ({
      actions: (await actions.create(ctx.caller, req.actions.map(actionInput))).map(actionMessage),
    })),
    updateModerationAction: unary(async (req, ctx) => ({
      action: actionMessage(await actions.update(ctx.caller, req.id, actionInput(req.action), req.replace)),
    })),
    deleteModerationAction: unary(async (req, ctx) => ({ action: actionMessage(await actions.delete(ctx.caller, req.id)) })),
    listUserActions: unary(async (req, ctx) => {
      const { rows, total } = await actions.userActions(ctx.caller, req.userUuid, req.limit, req.offset);
      return { actions: rows.map(actionMessage), total };
    }),
    getSocketEventNames: unary(async (_req, ctx) => {
      requireStaff(ctx.caller);
      return { names: [...SOCKET_EVENT_NAMES] };
    }),
    getUserEventNames: unary(async (_req, ctx) => {
      requireStaff(ctx.caller);
      return { names: [...USER_EVENT_NAMES] };
    }),
    getLastUserEvent: unary(async (req, ctx) => {
      requireStaff(ctx.caller);
      const uuid = req.userUuid.toLowerCase();
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(uuid)) throw badRequest('id: must be a uuid');
      const event = await plays.lastEvent(uuid);
      if (!event) throw notFound('No event recorded for this user');
      return { event: { ...event, detailJson: JSON.stringify(event.detail) } };
    }),
    getAuditServiceStatus: unary(async (_req, ctx) => {
      requireStaff(ctx.caller);
      return { version: AUDIT_SERVICE_VERSION, startedAt, ...(await plays.status()) };
    }),
    geolocate: unary(async (req) => geolocator.locate(req.ip)),
    reportTestError: unary(async (_req, ctx) => {
      requireAdmin(ctx.caller);
      const eventId = randomUUID();
      // Logged as an error on purpose: whatever collects the service's errors should show it.
      logger.error({ err: new Error('Audit service test error'), eventId, by: ctx.caller.userUuid }, 'test error reported on request');
      return { eventId };
    }),
  };
}
