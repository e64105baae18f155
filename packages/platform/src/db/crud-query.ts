import { RequestQueryException, RequestQueryParser } from '@nestjsx/crud-request';
import { badRequest } from '../errors.js';
import { isUuid } from '../vocabulary/ids.js';

/**
 * The admin lists' query (ARCHITECTURE.md: the @nestjsx/crud request format),
 * parsed by @nestjsx/crud-request and turned into a MikroORM filter over an
 * allow-list of columns each list gives. Every field name and operator is
 * checked against those lists before it reaches the ORM, and every value is
 * typed for its column and passed as a parameter: no query string writes SQL.
 */

export type CrudColumnType = 'int' | 'uuid' | 'text' | 'date' | 'array';
/** The properties a list may select, filter and sort by, with their types. */
export type CrudColumns = Record<string, CrudColumnType>;
type ColumnType = CrudColumnType;

export const CRUD_PAGE_DEFAULT = 25;
export const CRUD_PAGE_MAX = 100;
const MAX_CONDITIONS = 50;
const MAX_DEPTH = 5;
const MAX_LIST = 100;

/** Query parameters of the format (and their aliases); `cache` is accepted and has no effect here. */
const PARAMS = ['fields', 'select', 's', 'filter', 'or', 'join', 'sort', 'limit', 'per_page', 'offset', 'page', 'cache'];

/** A MikroORM filter over the allowed properties (plain data; `$` operators only from the table below). */
export type Where = Record<string, unknown>;

export interface CrudQuery<F extends string = string> {
  fields: F[];
  where: Where;
  orderBy: { field: F; order: 'asc' | 'desc' }[];
  limit: number;
  offset: number;
}

export interface CrudPage<T> {
  data: T[];
  count: number;
  total: number;
  page: number;
  pageCount: number;
}

const shorten = (text: string) => (text.length > 64 ? `${text.slice(0, 64)}...` : text);

function columnOf<F extends string>(columns: Record<F, CrudColumnType>) {
  return (field: unknown): F => {
    if (typeof field !== 'string' || !Object.hasOwn(columns, field)) throw badRequest(`Unknown field: ${shorten(String(field))}`);
    return field as F;
  };
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

/**
 * Parses a crud query string into a safe query over the columns; 400 for
 * anything outside them. `id` and `uuid` are always selected when the list has
 * them; `single` (one row's detail) reads `fields` only.
 */
export function parseCrudQuery<F extends string>(
  queryString: string,
  columns: Record<F, CrudColumnType>,
  options: { single?: boolean } = {},
): CrudQuery<F> {
  const column = columnOf(columns);
  const names = Object.keys(columns) as F[];
  const always = ['id', 'uuid'].filter((name) => Object.hasOwn(columns, name));
  let parsed: ReturnType<RequestQueryParser['getParsed']>;
  try {
    parsed = RequestQueryParser.create().parseQuery(queryParams(queryString)).getParsed();
  } catch (error) {
    if (error instanceof RequestQueryException) throw badRequest(error.message);
    throw error;
  }
  const fields = parsed.fields.length > 0 ? [...new Set([...always, ...parsed.fields].map(column))] : names;
  for (const join of parsed.join) throw badRequest(`Unknown relation: ${shorten(String(join.field))}`);
  const counter = { conditions: 0 };
  const where = options.single ? {} : toWhere(parsed, { columns, counter });
  const orderBy = parsed.sort.map((sort) => {
    const field = column(sort.field);
    if (columns[field] === 'array') throw badRequest(`Cannot sort by ${field}`);
    return { field, order: sort.order === 'DESC' ? ('desc' as const) : ('asc' as const) };
  });
  const limit = Math.min(nonNegative(parsed.limit, 'limit') || CRUD_PAGE_DEFAULT, CRUD_PAGE_MAX);
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
export function crudPage<T>(rows: T[], total: number, query: Pick<CrudQuery, 'limit' | 'offset'>): CrudPage<T> {
  return {
    data: rows,
    count: rows.length,
    total,
    page: Math.floor(query.offset / query.limit) + 1,
    pageCount: Math.ceil(total / query.limit),
  };
}

/** What the condition builders share: the list's columns and the count of conditions so far. */
interface Walk {
  columns: CrudColumns;
  counter: { conditions: number };
}

/** `s` wins over `filter` and `or`, as in @nestjsx/crud; `filter`s are ANDed; `or`s OR the filters' group. */
function toWhere(parsed: ReturnType<RequestQueryParser['getParsed']>, walk: Walk): Where {
  if (parsed.search !== undefined) return searchCondition(parsed.search, 0, walk);
  const and = (filters: typeof parsed.filter) => filters.map((f) => fieldCondition(f.field, { [operatorName(f.operator)]: f.value }, walk));
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

function searchCondition(node: unknown, depth: number, walk: Walk): Where {
  if (depth > MAX_DEPTH) throw badRequest('The search is nested too deeply');
  if (!isPlainObject(node)) throw badRequest('Invalid search param. Object expected');
  const parts: Where[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0 || value.length > MAX_LIST) throw badRequest(`${key} must be a list of conditions`);
      parts.push({ [key]: value.map((child) => searchCondition(child, depth + 1, walk)) });
    } else {
      parts.push(fieldCondition(key, value, walk));
    }
  }
  if (parts.length === 0) return {};
  return parts.length === 1 ? parts[0]! : { $and: parts };
}

/** One field's condition: a value (equality) or `{operator: value, ...}`, with an optional `$or` of operators. */
function fieldCondition(field: string, value: unknown, walk: Walk): Where {
  const name = columnOf(walk.columns)(field);
  if (!isPlainObject(value)) return operatorCondition(name, '$eq', value, walk);
  const parts: Where[] = [];
  for (const [operator, operand] of Object.entries(value)) {
    if (operator === '$or') {
      if (!isPlainObject(operand)) throw badRequest('$or of a field must be an object of operators');
      const alternatives = Object.entries(operand).map(([op, v]) => operatorCondition(name, op, v, walk));
      if (alternatives.length === 0) throw badRequest('$or of a field must not be empty');
      parts.push({ $or: alternatives });
    } else {
      parts.push(operatorCondition(name, operator, operand, walk));
    }
  }
  if (parts.length === 0) throw badRequest(`No condition for ${name}`);
  return parts.length === 1 ? parts[0]! : { $and: parts };
}

/** LIKE's own characters, escaped (PostgreSQL's default escape is the backslash). */
function likeText(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function operatorCondition(field: string, operator: string, raw: unknown, walk: Walk): Where {
  walk.counter.conditions += 1;
  if (walk.counter.conditions > MAX_CONDITIONS) throw badRequest(`At most ${MAX_CONDITIONS} conditions`);
  const type = walk.columns[field]!;
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
function typed(field: string, type: ColumnType, value: unknown): string | number | Date {
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
