import { ERROR_CODES, isUuid, notFound, type Caller } from '@spinroom/platform';
import { PROFILE_NOT_FOUND } from '../accounts.js';
import { type AdminUserColumn, parseUserQuery, type UserPage, type UserQuery, userPage } from './admin-query.js';
import { requireAdmin } from './profile-paths.js';

/** A user's allowed columns, only those the query selected. */
export type AdminUserRow = Partial<Record<AdminUserColumn, unknown>> & { fields: AdminUserColumn[] };

export interface AdminUserStore {
  /** The page of rows and the total matching the filter. */
  queryUsers(query: UserQuery): Promise<{ rows: AdminUserRow[]; total: number }>;
  findUser(uuid: string, fields: AdminUserColumn[]): Promise<AdminUserRow | null>;
  /** True when the database answers. */
  ping(): Promise<boolean>;
}

/** The version spec 000 section 9 gives the user service. */
export const USER_SERVICE_VERSION = '1.8.5';

/** The admin paths: the users list and detail, and the service's status. */
export class AdminUsers {
  private readonly startedAt = new Date();

  constructor(private readonly store: AdminUserStore) {}

  async list(caller: Caller, queryString: string): Promise<UserPage<AdminUserRow>> {
    requireAdmin(caller);
    const query = parseUserQuery(queryString);
    const { rows, total } = await this.store.queryUsers(query);
    return userPage(rows, total, query);
  }

  async get(caller: Caller, userUuid: string, queryString: string): Promise<AdminUserRow> {
    requireAdmin(caller);
    const { fields } = parseUserQuery(queryString, { single: true });
    const user = isUuid(userUuid) ? await this.store.findUser(userUuid, fields) : null;
    if (!user) throw notFound(PROFILE_NOT_FOUND, ERROR_CODES.userProfileNotFound);
    return user;
  }

  async status(caller: Caller, now = new Date()) {
    requireAdmin(caller);
    return {
      version: USER_SERVICE_VERSION,
      startedAt: this.startedAt,
      uptimeSeconds: Math.floor((now.getTime() - this.startedAt.getTime()) / 1000),
      databaseOk: await this.store.ping(),
    };
  }
}
