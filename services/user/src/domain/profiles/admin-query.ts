import { type CrudPage, type CrudQuery, crudPage, parseCrudQuery } from '@spinroom/platform';

/** The columns admins may select, filter and sort by in the users list (never the password hash). */
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
} as const;
export type AdminUserColumn = keyof typeof ADMIN_USER_COLUMNS;
export const ADMIN_USER_COLUMN_NAMES = Object.keys(ADMIN_USER_COLUMNS) as AdminUserColumn[];

export type UserQuery = CrudQuery<AdminUserColumn>;
export type UserPage<T> = CrudPage<T>;

/** The admin users list's query (the @nestjsx/crud syntax, packages/platform/src/db/crud-query.ts) over those columns. */
export function parseUserQuery(queryString: string, options: { single?: boolean } = {}): UserQuery {
  return parseCrudQuery(queryString, ADMIN_USER_COLUMNS, options);
}

export const userPage = crudPage;
