import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import { addToOutbox, type OutboxEntry, type Role } from '@spinroom/platform';
import { EmailTakenError, type NewAccount, type Session, type UserStore } from '../domain/accounts.js';
import { DEFAULT_AVATAR_ID, DEFAULT_COLOR, GUEST_PROFILE, guestNickname } from '../domain/profiles.js';
import type { User } from '../domain/user.js';
import { userProfileUpdated } from '../events/user-events.js';
import { UserEntity } from './user-entity.js';

const EMPTY_PROFILE = {
  discord: null,
  discordNickname: null,
  firstName: null,
  lastName: null,
  pronoun: null,
  displayPronouns: false,
  songOfTheWeek: null,
  song: null,
  coverPicture: null,
  facebook: null,
  instagram: null,
  twitter: null,
  snapchat: null,
  tiktok: null,
  priceForGig: null,
  zodiac: null,
};

/** The user service's PostgreSQL store. */
export class PgUserStore implements UserStore {
  constructor(
    private readonly orm: MikroORM,
    /** Called after a commit that staged events, so the relay sends them now. */
    private readonly onEventsCommitted: () => void = () => undefined,
  ) {}

  private em() {
    return this.orm.em.fork();
  }

  async findByEmail(email: string): Promise<User | null> {
    return this.em().findOne(UserEntity, { email });
  }

  // Session and profile reads are the hottest path of the platform: they read
  // plain rows (no unit of work needed) straight from the ORM's own pg pool, as
  // named statements, so PostgreSQL parses and plans each once per connection.
  // They name their columns: a prepared `select *` fails ("cached plan must not
  // change result type") once a migration adds a column under a running service.
  async findByUuid(uuid: string): Promise<User | null> {
    const [row] = await this.read('user-by-uuid', `select ${this.userColumns()} from "user_account" where "uuid" = $1`, [uuid]);
    return row ? toUser(row) : null;
  }

  async findSession(uuid: string): Promise<Session | null> {
    const [row] = await this.read('user-session', `select "uuid", "kind", "roles" from "user_account" where "uuid" = $1`, [uuid]);
    return (row as Session | undefined) ?? null;
  }

  async findManyByUuid(uuids: string[]): Promise<User[]> {
    if (uuids.length === 0) return [];
    const rows = await this.read('users-by-uuid', `select ${this.userColumns()} from "user_account" where "uuid" = any($1::uuid[])`, [
      uuids,
    ]);
    return rows.map(toUser);
  }

  private columns: string | undefined;

  /** Every column of the entity, named as its property (`"avatar_id" as "avatarId"`). */
  private userColumns(): string {
    this.columns ??= Object.values(this.orm.getMetadata().get(UserEntity).properties)
      .map((property) => `"${property.fieldNames[0]}" as "${property.name}"`)
      .join(', ');
    return this.columns;
  }

  private async read(name: string, text: string, values: unknown[]): Promise<Record<string, unknown>[]> {
    const pool = await this.orm.em.getConnection().getNativeClient();
    const { rows } = await pool.query({ name, text, values });
    return rows;
  }

  async createAccount(account: NewAccount, announce: (user: User) => OutboxEntry): Promise<User> {
    const now = new Date();
    try {
      const user = await this.em().transactional((em) => insertAccount(em, account, announce, now));
      this.onEventsCommitted();
      return user;
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new EmailTakenError();
      throw error;
    }
  }

  async createGuest(): Promise<User> {
    const now = new Date();
    const guest = await this.em().transactional(async (em) => {
      const [row] = await em.execute<{ n: string }[]>(`select nextval('guest_number_seq') as n`);
      const created = em.create(UserEntity, {
        ...EMPTY_PROFILE,
        uuid: randomUUID(),
        kind: 'guest',
        email: null,
        passwordHash: null,
        roles: ['guest'],
        capabilities: [],
        badges: [],
        nickname: guestNickname(Number(row!.n)),
        ...GUEST_PROFILE,
        createdAt: now,
        updatedAt: now,
      });
      await em.flush(); // assigns the id the profile carries
      // Guests never sign up: their profile is announced as created, with the account, so that the room service
      // has it cached before their first join.
      addToOutbox(em, userProfileUpdated(created));
      return created;
    });
    this.onEventsCommitted();
    return guest;
  }

  async addRole(uuid: string, role: Role): Promise<void> {
    await this.em().execute(
      `update "user_account" set "roles" = array_append("roles", ?), "updated_at" = now() where "uuid" = ? and not (? = any("roles"))`,
      [role, uuid, role],
    );
  }

  /**
   * Runs a change of a user's profile in one transaction with its
   * `user.profile-updated` (the user as `change` answers it; null: nothing changed, nothing announced).
   */
  async changeProfile(change: (em: EntityManager) => Promise<User | null>): Promise<User | null> {
    const user = await this.em().transactional(async (em) => {
      const changed = await change(em);
      if (changed) addToOutbox(em, userProfileUpdated(changed));
      return changed;
    });
    if (user) this.onEventsCommitted();
    return user;
  }

  async saveProfile(user: User): Promise<User> {
    return (await this.changeProfile((em) => this.writeProfile(em, user)))!;
  }

  private async writeProfile(em: EntityManager, user: User): Promise<User> {
    const entity = await em.findOneOrFail(UserEntity, { uuid: user.uuid });
    // A profile save writes profile fields only: roles, capabilities and bans are moderation's, changed under a lock.
    const {
      id: _id,
      uuid: _uuid,
      createdAt: _createdAt,
      roles: _roles,
      capabilities: _capabilities,
      bannedAt: _bannedAt,
      bannedUntil: _bannedUntil,
      deactivationRequestedAt: _deactivationRequestedAt,
      deactivatedAt: _deactivatedAt,
      ...changes
    } = user;
    em.assign(entity, { ...changes, updatedAt: new Date() });
    await em.flush();
    return entity;
  }
}

/** Inserts an account and stages its announcing event in the caller's transaction (a voucher sign-up redeems in the same one). */
export async function insertAccount(
  em: EntityManager,
  account: NewAccount,
  announce: (user: User) => OutboxEntry,
  now: Date,
): Promise<User> {
  const created = em.create(UserEntity, {
    ...EMPTY_PROFILE,
    uuid: randomUUID(),
    kind: account.kind,
    email: account.email,
    passwordHash: account.passwordHash,
    roles: account.roles,
    capabilities: [],
    badges: [],
    nickname: account.nickname,
    color: DEFAULT_COLOR,
    avatarId: DEFAULT_AVATAR_ID,
    createdAt: now,
    updatedAt: now,
  });
  await em.flush(); // assigns the id the event may carry
  addToOutbox(em, announce(created));
  return created;
}

/** A `user_account` row read with property names (the driver parses arrays and jsonb; MikroORM leaves timestamps as text). */
function toUser(row: Record<string, unknown>): User {
  return { ...row, createdAt: new Date(row.createdAt as string), updatedAt: new Date(row.updatedAt as string) } as unknown as User;
}
