import { randomUUID } from 'node:crypto';
import { MODERATION_ACTION_TYPES } from '@spinroom/contracts/moderation';
import { roomUserRoles, userCapabilities, userRoles } from '@spinroom/contracts/vocabulary';
import {
  badRequest,
  crudPage,
  forbidden,
  isUuid,
  notFound,
  parseCrudQuery,
  type Caller,
  type CrudPage,
  type CrudQuery,
} from '@spinroom/platform';
import { isStaffOrSelf, requireAdmin, requireStaff } from './roles.js';

/**
 * Moderation actions (spec 002): every action the room and user services
 * publish on `moderation-actions`, and those admins write through the API.
 * Staff read them in the @nestjsx/crud query syntax; admins write them; a
 * user reads their own (as actor or target).
 */

export const MODERATION_ACTION_NOT_FOUND = 'Moderation action not found';
/** Spec 002's message for the user actions call, word for word. */
export const UNAUTHORIZED_ACTION = 'Unauthorized to perform action';
/** The most actions one bulk write takes. */
export const MAX_BULK = 1000;

export interface ModerationActionRow {
  id: string;
  actionType: string;
  previousRole: string | null;
  role: string | null;
  roomUuid: string | null;
  actorUuid: string | null;
  targetUuid: string | null;
  actorTokenRole: string | null;
  expirationTime: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** kafka: from `moderation-actions`; api: written by an admin. */
  source: 'kafka' | 'api';
}

/** The columns the list may select, filter and sort by. */
export const MODERATION_ACTION_COLUMNS = {
  id: 'uuid',
  actionType: 'text',
  previousRole: 'text',
  role: 'text',
  roomUuid: 'uuid',
  actorUuid: 'uuid',
  targetUuid: 'uuid',
  actorTokenRole: 'text',
  expirationTime: 'date',
  createdAt: 'date',
  updatedAt: 'date',
  source: 'text',
} as const;
export type ModerationActionColumn = keyof typeof MODERATION_ACTION_COLUMNS;
export type ModerationActionQuery = CrudQuery<ModerationActionColumn>;
/** A row with the columns a query selected (`fields` names them). */
export type SelectedAction = Partial<ModerationActionRow> & { fields: ModerationActionColumn[] };

/** What an admin writes: a field left out is unchanged (PATCH) or cleared (PUT); null clears it. */
export interface ActionInput {
  actionType?: string;
  previousRole?: string | null;
  role?: string | null;
  roomUuid?: string | null;
  actorUuid?: string | null;
  targetUuid?: string | null;
  actorTokenRole?: string | null;
  expirationTime?: Date | null;
}

export interface ModerationActionStore {
  query(query: ModerationActionQuery): Promise<{ rows: SelectedAction[]; total: number }>;
  find(id: string, fields: ModerationActionColumn[]): Promise<SelectedAction | null>;
  /** All or none. */
  insert(rows: ModerationActionRow[]): Promise<void>;
  update(id: string, changes: Partial<ModerationActionRow>): Promise<ModerationActionRow | null>;
  delete(id: string): Promise<ModerationActionRow | null>;
  /** A user's actions as actor or target, newest first. */
  byUser(userUuid: string, limit: number, offset: number): Promise<{ rows: ModerationActionRow[]; total: number }>;
}

const ROLE_WORDS = new Set<string>([...roomUserRoles.names, ...userRoles.names, ...userCapabilities.names]);
const ACTION_TYPES = new Set<string>(MODERATION_ACTION_TYPES);

function roleWord(value: string | null | undefined, field: string): string | null | undefined {
  if (value === undefined || value === null || value === '') return value === '' ? null : value;
  if (!ROLE_WORDS.has(value)) throw badRequest(`${field}: not a room role, user role or capability`);
  return value;
}

function uuidOrNull(value: string | null | undefined, field: string): string | null | undefined {
  if (value === undefined || value === null || value === '') return value === '' ? null : value;
  if (!isUuid(value)) throw badRequest(`${field}: must be a uuid`);
  return value.toLowerCase();
}

/** The input's fields checked; undefined stays undefined (not given). */
export function checkInput(input: ActionInput): ActionInput {
  if (input.actionType !== undefined && !ACTION_TYPES.has(input.actionType)) {
    throw badRequest(`actionType: must be one of ${MODERATION_ACTION_TYPES.join(', ')}`);
  }
  const tokenRole = input.actorTokenRole;
  if (tokenRole !== undefined && tokenRole !== null && tokenRole !== '' && !userRoles.parse(tokenRole)) {
    throw badRequest('actorTokenRole: not a user role');
  }
  const expiration = input.expirationTime;
  if (expiration && (Number.isNaN(expiration.getTime()) || expiration.getUTCFullYear() > 9999))
    throw badRequest('expirationTime: not a date');
  const checked: ActionInput = {
    actionType: input.actionType,
    previousRole: roleWord(input.previousRole, 'previousRole'),
    role: roleWord(input.role, 'role'),
    roomUuid: uuidOrNull(input.roomUuid, 'roomUuid'),
    actorUuid: uuidOrNull(input.actorUuid, 'actorUuid'),
    targetUuid: uuidOrNull(input.targetUuid, 'targetUuid'),
    actorTokenRole: tokenRole === '' ? null : tokenRole,
    expirationTime: expiration,
  };
  return Object.fromEntries(Object.entries(checked).filter(([, value]) => value !== undefined));
}

export class ModerationActions {
  constructor(
    private readonly store: ModerationActionStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(caller: Caller, queryString: string): Promise<CrudPage<SelectedAction>> {
    requireStaff(caller);
    const query = parseCrudQuery(queryString, MODERATION_ACTION_COLUMNS);
    const { rows, total } = await this.store.query(query);
    return crudPage(rows, total, query);
  }

  async get(caller: Caller, id: string, queryString: string): Promise<SelectedAction> {
    requireStaff(caller);
    const { fields } = parseCrudQuery(queryString, MODERATION_ACTION_COLUMNS, { single: true });
    const found = isUuid(id) ? await this.store.find(id.toLowerCase(), fields) : null;
    if (!found) throw notFound(MODERATION_ACTION_NOT_FOUND);
    return found;
  }

  /** One action or a bulk of them, all or none; the actor is the caller unless given. */
  async create(caller: Caller, inputs: ActionInput[]): Promise<ModerationActionRow[]> {
    requireAdmin(caller);
    if (inputs.length === 0 || inputs.length > MAX_BULK) throw badRequest(`bulk: 1 to ${MAX_BULK} actions`);
    const now = this.now();
    const rows = inputs.map((raw, index): ModerationActionRow => {
      const input = checkInput(raw);
      if (!input.actionType) throw badRequest(inputs.length > 1 ? `bulk.${index}.actionType: is required` : 'actionType: is required');
      if (!input.targetUuid) throw badRequest(inputs.length > 1 ? `bulk.${index}.targetUuid: is required` : 'targetUuid: is required');
      return {
        id: randomUUID(),
        actionType: input.actionType,
        previousRole: input.previousRole ?? null,
        role: input.role ?? null,
        roomUuid: input.roomUuid ?? null,
        actorUuid: input.actorUuid === undefined ? caller.userUuid : input.actorUuid,
        targetUuid: input.targetUuid,
        actorTokenRole: input.actorTokenRole === undefined ? caller.role : input.actorTokenRole,
        expirationTime: input.expirationTime ?? null,
        createdAt: now,
        updatedAt: now,
        source: 'api',
      };
    });
    await this.store.insert(rows);
    return rows;
  }

  /** replace: PUT (actionType and targetUuid required, every other field cleared unless given); else PATCH. */
  async update(caller: Caller, id: string, raw: ActionInput, replace: boolean): Promise<ModerationActionRow> {
    requireAdmin(caller);
    const input = checkInput(raw);
    if (replace) {
      if (!input.actionType) throw badRequest('actionType: is required');
      if (!input.targetUuid) throw badRequest('targetUuid: is required');
    }
    if (input.actionType === undefined && 'actionType' in raw) throw badRequest('actionType: cannot be cleared');
    if (input.targetUuid === null) throw badRequest('targetUuid: cannot be cleared');
    const cleared: Partial<ModerationActionRow> = replace
      ? { previousRole: null, role: null, roomUuid: null, actorUuid: null, actorTokenRole: null, expirationTime: null }
      : {};
    const changes = { ...cleared, ...input, updatedAt: this.now() } as Partial<ModerationActionRow>;
    const updated = isUuid(id) ? await this.store.update(id.toLowerCase(), changes) : null;
    if (!updated) throw notFound(MODERATION_ACTION_NOT_FOUND);
    return updated;
  }

  async delete(caller: Caller, id: string): Promise<ModerationActionRow> {
    requireAdmin(caller);
    const deleted = isUuid(id) ? await this.store.delete(id.toLowerCase()) : null;
    if (!deleted) throw notFound(MODERATION_ACTION_NOT_FOUND);
    return deleted;
  }

  /** `/user-actions/{id}`: the user themself or staff; anyone else is refused with spec 002's words. */
  async userActions(caller: Caller, userUuid: string, limit: number, offset: number) {
    if (!isUuid(userUuid)) throw badRequest('id: must be a uuid');
    if (!isStaffOrSelf(caller, userUuid.toLowerCase())) throw forbidden(UNAUTHORIZED_ACTION);
    const take = limit > 0 ? Math.min(limit, 100) : 25;
    return this.store.byUser(userUuid.toLowerCase(), take, Math.max(0, offset));
  }
}
