import { RequestQueryException, RequestQueryParser } from '@nestjsx/crud-request';
import { badRequest, isUuid } from '@spinroom/platform';

/**
 * The admin users list's query (ARCHITECTURE.md: the @nestjsx/crud request
 * format), parsed by @nestjsx/crud-request and turned into a MikroORM filter
 * over an allow-list of columns. Every field name and operator is checked
 * against the lists below before it reaches the ORM, and every value is typed
 * for its column and passed as a parameter: no query string writes SQL.
 */

type ColumnType = 'int' | 'uuid' | 'text' | 'date' | 'array';

/** The columns admins may select, filter and sort by (never the password hash). */
export const ADMIN_USER_COLUMNS = {
  id: 'int',
  uuid: 'uuid',
  kind: 'text',
  email: 'text',
  nickname: 'text',
  color: 'text',
  avatarId: 'text',
  firstName: 'text',
  lastName: 'text',
  roles: 'array',
  capabilities: 'array',
  badges: 'array',
  createdAt: 'date',
  updatedAt: 'date',
} as const satisfies Record<string, ColumnType>;
export type AdminUserColumn = keyof typeof ADMIN_USER_COLUMNS;
export const ADMIN_USER_COLUMN_NAMES = Object.keys(ADMIN_USER_COLUMNS) as AdminUserColumn[];

export const ADMIN_PAGE_DEFAULT = 25;
export const ADMIN_PAGE_MAX = 100;
const MAX_CONDITIONS = 50;
const MAX_DEPTH = 5;
const MAX_LIST = 100;

/** Query parameters of the format (and their aliases); `cache` is accepted and has no effect here. */
const PARAMS = ['fields', 'select', 's', 'filter', 'or', 'join', 'sort', 'limit', 'per_page', 'offset', 'page', 'cache'];

/** A MikroORM filter over the allowed properties (plain data; `$` operators only from the table below). */
export type Where = Record<string, unknown>;

export interface UserQuery {
  fields: AdminUserColumn[];
  where: Where;
  orderBy: { field: AdminUserColumn; order: 'asc' | 'desc' }[];
  limit: number;
  offset: number;
}

export interface UserPage<T> {
  data: T[];
  count: number;
  total: number;
  page: number;
  pageCount: number;
}

const shorten = (text: string) => (text.length > 64 ? `${text.slice(0, 64)}...` : text);

function column(field: unknown): AdminUserColumn {
  if (typeof field !== 'string' || !Object.hasOwn(ADMIN_USER_COLUMNS, field)) {
    throw badRequest(`Unknown field: ${shorten(String(field))}`);
  }
  return field as AdminUserColumn;
}

/** A query string (as received) to the parameters the parser reads: repeated keys, `filter[]` as `filter`. */
export function queryParams(queryString: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [rawKey, value] of new URLSearchParams(queryString)) {
    const key = rawKey.replace(/\[\d*\]$/, '');
    if (!PARAMS.includes(key)) throw badRequest(`Unknown query parameter: ${shorten(key)}`);
    const seen = params[key];
    params[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return params;
}

/** Parses a crud query string into a safe query; 400 for anything outside the allow-list. */
export function parseUserQuery(queryString: string, options: { single?: boolean } = {}): UserQuery {
  let parsed: ReturnType<RequestQueryParser['getParsed']>;
  try {
    parsed = RequestQueryParser.create().parseQuery(queryParams(queryString)).getParsed();
  } catch (error) {
    if (error instanceof RequestQueryException) throw badRequest(error.message);
    throw error;
  }
  const fields = parsed.fields.length > 0 ? [...new Set(['id', 'uuid', ...parsed.fields].map(column))] : ADMIN_USER_COLUMN_NAMES;
  for (const join of parsed.join) throw badRequest(`Unknown relation: ${shorten(String(join.field))}`);
  const counter = { conditions: 0 };
  const where = options.single ? {} : toWhere(parsed, counter);
  const orderBy = parsed.sort.map((sort) => {
    const field = column(sort.field);
    if (ADMIN_USER_COLUMNS[field] === 'array') throw badRequest(`Cannot sort by ${field}`);
    return { field, order: sort.order === 'DESC' ? ('desc' as const) : ('asc' as const) };
  });
  const limit = Math.min(nonNegative(parsed.limit, 'limit') || ADMIN_PAGE_DEFAULT, ADMIN_PAGE_MAX);
  const page = nonNegative(parsed.page, 'page');
  const offset = page > 0 ? (page - 1) * limit : nonNegative(parsed.offset, 'offset');
  nonNegative(parsed.cache, 'cache');
  return { fields, where, orderBy, limit, offset };
}

function nonNegative(value: number | undefined, name: string): number {
  if (value === undefined) return 0;
  if (!Number.isSafeInteger(value) || value < 0) throw badRequest(`${name} must be a whole number, 0 or more`);
  return value;
}

/** The crud answer around a page of rows. */
export function userPage<T>(rows: T[], total: number, query: Pick<UserQuery, 'limit' | 'offset'>): UserPage<T> {
  return {
    data: rows,
    count: rows.length,
    total,
    page: Math.floor(query.offset / query.limit) + 1,
    pageCount: Math.ceil(total / query.limit),
  };
}

/** `s` wins over `filter` and `or`, as in @nestjsx/crud; `filter`s are ANDed; `or`s OR the filters' group. */
function toWhere(parsed: ReturnType<RequestQueryParser['getParsed']>, counter: { conditions: number }): Where {
  if (parsed.search !== undefined) return searchCondition(parsed.search, 0, counter);
  const and = (filters: typeof parsed.filter) =>
    filters.map((f) => fieldCondition(f.field, { [operatorName(f.operator)]: f.value }, counter));
  const filters = and(parsed.filter);
  const ors = and(parsed.or);
  const all = (conditions: Where[]): Where => (conditions.length === 1 ? conditions[0]! : { $and: conditions });
  if (filters.length > 0 && ors.length > 0) {
    return filters.length === 1 && ors.length === 1 ? { $or: [filters[0]!, ors[0]!] } : { $or: [all(filters), all(ors)] };
  }
  if (filters.length > 0) return all(filters);
  if (ors.length > 0) return ors.length === 1 ? ors[0]! : { $or: ors };
  return {};
}

/** The format's old operator names (`eq`) are the same as the `$` ones. */
function operatorName(operator: string): string {
  return operator.startsWith('$') ? operator : `$${operator}`;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

function searchCondition(node: unknown, depth: number, counter: { conditions: number }): Where {
  if (depth > MAX_DEPTH) throw badRequest('The search is nested too deeply');
  if (!isPlainObject(node)) throw badRequest('Invalid search param. Object expected');
  const parts: Where[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0 || value.length > MAX_LIST) throw badRequest(`${key} must be a list of conditions`);
      parts.push({ [key]: value.map((child) => searchCondition(child, depth + 1, counter)) });
    } else {
      parts.push(fieldCondition(key, value, counter));
    }
  }
  if (parts.length === 0) return {};
  return parts.length === 1 ? parts[0]! : { $and: parts };
}

/** One field's condition: a value (equality) or `{operator: value, ...}`, with an optional `$or` of operators. */
function fieldCondition(field: string, value: unknown, counter: { conditions: number }): Where {
  const name = column(field);
  if (!isPlainObject(value)) return operatorCondition(name, '$eq', value, counter);
  const parts: Where[] = [];
  for (const [operator, operand] of Object.entries(value)) {
    if (operator === '$or') {
      if (!isPlainObject(operand)) throw badRequest('$or of a field must be an object of operators');
      const alternatives = Object.entries(operand).map(([op, v]) => operatorCondition(name, op, v, counter));
      if (alternatives.length === 0) throw badRequest('$or of a field must not be empty');
      parts.push({ $or: alternatives });
    } else {
      parts.push(operatorCondition(name, operator, operand, counter));
    }
  }
  if (parts.length === 0) throw badRequest(`No condition for ${name}`);
  return parts.length === 1 ? parts[0]! : { $and: parts };
}

/** LIKE's own characters, escaped (PostgreSQL's default escape is the backslash). */
function likeText(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function operatorCondition(field: AdminUserColumn, operator: string, raw: unknown, counter: { conditions: number }): Where {
  counter.conditions += 1;
  if (counter.conditions > MAX_CONDITIONS) throw badRequest(`At most ${MAX_CONDITIONS} conditions`);
  const type = ADMIN_USER_COLUMNS[field];
  const one = () => typed(field, type, raw);
  const list = () => {
    const values = Array.isArray(raw) ? raw : [raw];
    if (values.length === 0 || values.length > MAX_LIST) throw badRequest(`${operator} on ${field} takes 1 to ${MAX_LIST} values`);
    return values.map((v) => typed(field, type, v));
  };
  const text = () => {
    if (type !== 'text') throw badRequest(`${operator} does not apply to ${field}`);
    return likeText(String(one()));
  };
  const not = (condition: Where): Where => ({ $not: condition });
  if (type === 'array') {
    const element = () => ({ $contains: [typed(field, type, raw)] });
    switch (operator) {
      case '$eq':
      case '$cont':
        return { [field]: element() };
      case '$ne':
      case '$excl':
        return not({ [field]: element() });
      case '$in':
        return { [field]: { $overlap: list() } };
      case '$notin':
        return not({ [field]: { $overlap: list() } });
      default:
        throw badRequest(`${operator} does not apply to ${field}`);
    }
  }
  switch (operator) {
    case '$eq':
    case '$ne':
    case '$gt':
    case '$lt':
    case '$gte':
    case '$lte':
      return { [field]: { [operator]: one() } };
    case '$in':
      return { [field]: { $in: list() } };
    case '$notin':
      return { [field]: { $nin: list() } };
    case '$isnull':
      return { [field]: null };
    case '$notnull':
      return { [field]: { $ne: null } };
    case '$between': {
      const bounds = list();
      if (bounds.length !== 2) throw badRequest(`$between on ${field} takes two values`);
      return { [field]: { $gte: bounds[0], $lte: bounds[1] } };
    }
    case '$starts':
      return { [field]: { $like: `${text()}%` } };
    case '$ends':
      return { [field]: { $like: `%${text()}` } };
    case '$cont':
      return { [field]: { $like: `%${text()}%` } };
    case '$excl':
      return not({ [field]: { $like: `%${text()}%` } });
    case '$eqL':
      return { [field]: { $ilike: text() } };
    case '$neL':
      return not({ [field]: { $ilike: text() } });
    case '$startsL':
      return { [field]: { $ilike: `${text()}%` } };
    case '$endsL':
      return { [field]: { $ilike: `%${text()}` } };
    case '$contL':
      return { [field]: { $ilike: `%${text()}%` } };
    case '$exclL':
      return not({ [field]: { $ilike: `%${text()}%` } });
    case '$inL':
    case '$notinL': {
      if (type !== 'text') throw badRequest(`${operator} does not apply to ${field}`);
      const alternatives = list().map((v) => ({ [field]: { $ilike: likeText(String(v)) } }));
      return operator === '$inL' ? { $or: alternatives } : not({ $or: alternatives });
    }
    default:
      throw badRequest(`Unknown operator: ${shorten(String(operator))}`);
  }
}

/** A value checked and converted for its column, so PostgreSQL never sees a mistyped parameter. */
function typed(field: AdminUserColumn, type: ColumnType, value: unknown): string | number | Date {
  const invalid = () => badRequest(`Invalid value for ${field}`);
  switch (type) {
    case 'int': {
      const n = typeof value === 'string' && /^-?\d{1,10}$/.test(value) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isInteger(n) || Math.abs(n) > 2_147_483_647) throw invalid();
      return n;
    }
    case 'uuid':
      if (typeof value !== 'string' || !isUuid(value)) throw invalid();
      return value;
    case 'date': {
      const date = value instanceof Date ? value : typeof value === 'string' || typeof value === 'number' ? new Date(value) : undefined;
      // Years PostgreSQL and JavaScript both hold, so the database never refuses one.
      if (!date || Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999) throw invalid();
      return date;
    }
    default: {
      // The parser turns "12" into 12 and ISO dates into Dates: text columns take them back as text.
      const text =
        value instanceof Date ? value.toISOString() : typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
      if (typeof text !== 'string' || text.length > 320 || text.includes('\u0000')) throw invalid();
      return text;
    }
  }
}
