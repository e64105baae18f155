import { ForeignKeyConstraintViolationException, LockMode, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import type { AdminUserColumn, UserQuery } from '../domain/profiles/admin-query.js';
import type { AdminUserRow, AdminUserStore } from '../domain/profiles/admin-users.js';
import type { ImageOwners, ImageStore, ProfileImage } from '../domain/profiles/images.js';
import type { Page, ProfileStore } from '../domain/profiles/profile-paths.js';
import type { User } from '../domain/user.js';
import { UserProfileImageEntity } from './profiles-entities.js';
import { UserEntity } from './user-entity.js';
import type { PgUserStore } from './user-store.js';

/** The profile paths' reads and writes; a profile's own read and save are the accounts store's. */
export class PgProfileStore implements ProfileStore, ImageOwners {
  constructor(
    private readonly orm: MikroORM,
    private readonly users: PgUserStore,
  ) {}

  findByUuid(uuid: string): Promise<User | null> {
    return this.users.findByUuid(uuid);
  }

  saveProfile(user: User): Promise<User> {
    return this.users.saveProfile(user);
  }

  /** Changes a user's badges (announced with `user.profile-updated` in the same transaction). */
  async changeBadges(uuid: string, change: (current: string[]) => string[]): Promise<User | null> {
    return this.users.changeProfile(async (em) => {
      const user = await em.findOne(UserEntity, { uuid }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!user) return null;
      em.assign(user, { badges: change(user.badges), updatedAt: new Date() });
      await em.flush();
      return user;
    });
  }

  /** Sets (or, when it is still `ifCurrent`, clears) the cover picture, announced as `changeBadges`. */
  async setCoverPicture(uuid: string, url: string | null, ifCurrent?: string): Promise<void> {
    await this.users.changeProfile(async (em) => {
      const rows = await em.execute<Array<{ uuid: string }>>(
        `update "user_account" set "cover_picture" = ?, "updated_at" = now() where "uuid" = ?${ifCurrent === undefined ? '' : ' and "cover_picture" = ?'} returning "uuid"`,
        ifCurrent === undefined ? [url, uuid] : [url, uuid, ifCurrent],
      );
      return rows.length > 0 ? em.findOne(UserEntity, { uuid }) : null;
    });
  }

  async findUserData(uuid: string): Promise<Record<string, unknown> | null> {
    const [row] = await this.orm.em
      .fork()
      .execute<{ data: Record<string, unknown> | null }[]>(
        `select d."data" from "user_account" u left join "user_profile_data" d on d."user_uuid" = u."uuid" where u."uuid" = ?`,
        [uuid],
      );
    return row ? (row.data ?? {}) : null;
  }

  async saveUserData(uuid: string, data: Record<string, unknown>): Promise<boolean> {
    try {
      await this.orm.em.fork().execute(
        `insert into "user_profile_data" ("user_uuid", "data", "updated_at") values (?, ?::jsonb, now())
           on conflict ("user_uuid") do update set "data" = excluded."data", "updated_at" = excluded."updated_at"`,
        [uuid, JSON.stringify(data)],
      );
      return true;
    } catch (error) {
      if (error instanceof ForeignKeyConstraintViolationException) return false;
      throw error;
    }
  }

  async listProfiles(order: 'id' | 'updatedAt', page: Page): Promise<{ users: User[]; total: number }> {
    const [users, total] = await this.orm.em.fork().findAndCount(
      UserEntity,
      { kind: { $ne: 'guest' } },
      {
        orderBy: order === 'id' ? { id: 'asc' } : { updatedAt: 'desc', id: 'asc' },
        limit: page.take,
        offset: page.skip,
      },
    );
    return { users, total };
  }
}

export class PgImageStore implements ImageStore {
  constructor(private readonly orm: MikroORM) {}

  async insert(image: ProfileImage): Promise<void> {
    const em = this.orm.em.fork();
    em.create(UserProfileImageEntity, image);
    await em.flush();
  }

  async find(id: string): Promise<ProfileImage | null> {
    return this.orm.em.fork().findOne(UserProfileImageEntity, { id });
  }

  async delete(id: string): Promise<void> {
    await this.orm.em.fork().nativeDelete(UserProfileImageEntity, { id });
  }
}

/**
 * The admin users query, built from the checked UserQuery only (exported so
 * the property tests read the SQL it makes). Ties are broken by id, so pages
 * never overlap.
 */
export function adminUsersQueryBuilder(em: EntityManager, query: UserQuery) {
  const orderBy: Record<string, 'asc' | 'desc'>[] = query.orderBy.map(({ field, order }) => ({ [field]: order }));
  if (!query.orderBy.some(({ field }) => field === 'id')) orderBy.push({ id: 'asc' });
  return em
    .createQueryBuilder(UserEntity)
    .select(query.fields)
    .where(query.where as never)
    .orderBy(orderBy as never)
    .limit(query.limit)
    .offset(query.offset);
}

function toRow(user: Record<string, unknown>, fields: AdminUserColumn[]): AdminUserRow {
  return { ...Object.fromEntries(fields.map((field) => [field, user[field]])), fields };
}

export class PgAdminUserStore implements AdminUserStore {
  constructor(private readonly orm: MikroORM) {}

  async queryUsers(query: UserQuery): Promise<{ rows: AdminUserRow[]; total: number }> {
    const [users, total] = await adminUsersQueryBuilder(this.orm.em.fork(), query).getResultAndCount();
    return { rows: users.map((user) => toRow(user as unknown as Record<string, unknown>, query.fields)), total };
  }

  async findUser(uuid: string, fields: AdminUserColumn[]): Promise<AdminUserRow | null> {
    const user = await this.orm.em.fork().findOne(UserEntity, { uuid }, { fields: fields as never });
    return user ? toRow(user, fields) : null;
  }

  async ping(): Promise<boolean> {
    try {
      await this.orm.em.fork().execute('select 1');
      return true;
    } catch {
      return false;
    }
  }
}
