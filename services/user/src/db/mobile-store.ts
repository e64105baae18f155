import { randomUUID } from 'node:crypto';
import { ForeignKeyConstraintViolationException, type MikroORM, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { addToOutbox, type OutboxEntry } from '@spinroom/platform';
import {
  type MobileStore,
  type PhoneNumber,
  PhoneTakenError,
  type PhoneValidation,
  UnknownAccountError,
  type UserIdentity,
  type WhitelistedPhone,
} from '../domain/mobile/ports.js';
import { DEFAULT_AVATAR_ID, DEFAULT_COLOR } from '../domain/profiles.js';
import type { User } from '../domain/user.js';
import { PhoneNumberEntity, PhoneValidationEntity, PhoneWhitelistEntity, UserIdentityEntity } from './mobile-entities.js';
import { UserEntity } from './user-entity.js';
import { userPhoneNumberChanged } from '../events/user-events.js';

/** Constraint violations as the domain's errors. */
function translate(error: unknown): unknown {
  if (error instanceof UniqueConstraintViolationException) return new PhoneTakenError();
  if (error instanceof ForeignKeyConstraintViolationException) return new UnknownAccountError();
  return error;
}

const plain = <T extends object>(row: T): T => ({ ...row });

/** The phone area's PostgreSQL store. */
export class PgMobileStore implements MobileStore {
  constructor(
    private readonly orm: MikroORM,
    private readonly announceSignUp: (user: User) => OutboxEntry,
    /** Called after a commit that staged events, so the relay sends them now. */
    private readonly onEventsCommitted: () => void = () => undefined,
  ) {}

  private em() {
    return this.orm.em.fork();
  }

  async isWhitelisted(phone: string): Promise<boolean> {
    return (await this.em().count(PhoneWhitelistEntity, { phone })) > 0;
  }

  async addToWhitelist(entry: Omit<WhitelistedPhone, 'id' | 'createdAt'>): Promise<WhitelistedPhone> {
    const em = this.em();
    await em.execute(
      `insert into "phone_whitelist" ("id", "phone", "note", "created_by", "created_at") values (?, ?, ?, ?, now()) on conflict ("phone") do nothing`,
      [randomUUID(), entry.phone, entry.note ?? null, entry.createdBy],
    );
    return toWhitelisted(await em.findOneOrFail(PhoneWhitelistEntity, { phone: entry.phone }));
  }

  async removeFromWhitelist(id: string): Promise<boolean> {
    return (await this.em().nativeDelete(PhoneWhitelistEntity, { id })) > 0;
  }

  async recordValidation(validation: PhoneValidation, keep: number): Promise<void> {
    const em = this.em();
    em.create(PhoneValidationEntity, {
      id: randomUUID(),
      phone: validation.phone,
      status: validation.status,
      lineType: validation.lineType ?? null,
      countryCode: validation.countryCode ?? null,
      whitelisted: validation.whitelisted,
      validatedAt: validation.validatedAt,
    });
    await em.flush();
    await em.execute(
      `delete from "phone_validation" where "validated_at" < (select "validated_at" from "phone_validation" order by "validated_at" desc offset ? limit 1)`,
      [keep - 1],
    );
  }

  async recentValidations(limit: number): Promise<PhoneValidation[]> {
    const rows = await this.em().find(PhoneValidationEntity, {}, { orderBy: { validatedAt: 'desc' }, limit });
    return rows.map((row) => ({
      phone: row.phone,
      status: row.status,
      lineType: row.lineType ?? undefined,
      countryCode: row.countryCode ?? undefined,
      whitelisted: row.whitelisted,
      validatedAt: row.validatedAt,
    }));
  }

  async clearValidations(): Promise<number> {
    return this.em().nativeDelete(PhoneValidationEntity, {});
  }

  async findPhoneNumber(phone: string): Promise<PhoneNumber | null> {
    const row = await this.em().findOne(PhoneNumberEntity, { phone });
    return row ? plain(row) : null;
  }

  async getPhoneNumber(id: string): Promise<PhoneNumber | null> {
    const row = await this.em().findOne(PhoneNumberEntity, { id });
    return row ? plain(row) : null;
  }

  async listPhoneNumbers(filter: { userUuid?: string; limit: number; offset: number }) {
    const where = filter.userUuid ? { userUuid: filter.userUuid } : {};
    const [rows, total] = await this.em().findAndCount(PhoneNumberEntity, where, {
      orderBy: { createdAt: 'desc', id: 'asc' },
      limit: filter.limit,
      offset: filter.offset,
    });
    return { phoneNumbers: rows.map(plain), total };
  }

  async addPhoneNumber(userUuid: string, phone: string): Promise<PhoneNumber> {
    try {
      const row = await this.em().transactional(async (em) => {
        const added = em.create(PhoneNumberEntity, { id: randomUUID(), userUuid, phone, createdAt: new Date() });
        addToOutbox(em, userPhoneNumberChanged(userUuid, phone, 'added'));
        return added;
      });
      this.onEventsCommitted();
      return plain(row);
    } catch (error) {
      throw translate(error);
    }
  }

  async deletePhoneNumber(id: string): Promise<boolean> {
    const deleted = await this.em().transactional(async (em) => {
      const row = await em.findOne(PhoneNumberEntity, { id });
      if (!row) return false;
      em.remove(row);
      addToOutbox(em, userPhoneNumberChanged(row.userUuid, row.phone, 'removed'));
      return true;
    });
    if (deleted) this.onEventsCommitted();
    return deleted;
  }

  async createPhoneAccount(phone: string, nickname: string): Promise<{ userUuid: string }> {
    const now = new Date();
    try {
      const userUuid = await this.em().transactional(async (em) => {
        const user = em.create(UserEntity, {
          uuid: randomUUID(),
          kind: 'user',
          email: null,
          passwordHash: null,
          roles: ['user'],
          capabilities: [],
          badges: [],
          nickname,
          color: DEFAULT_COLOR,
          avatarId: DEFAULT_AVATAR_ID,
          displayPronouns: false,
          createdAt: now,
          updatedAt: now,
        });
        await em.flush(); // the account first (the number references it) and its id, which the event may carry
        em.create(PhoneNumberEntity, { id: randomUUID(), userUuid: user.uuid, phone, createdAt: now });
        addToOutbox(em, this.announceSignUp(user));
        addToOutbox(em, userPhoneNumberChanged(user.uuid, phone, 'added'));
        return user.uuid;
      });
      this.onEventsCommitted();
      return { userUuid };
    } catch (error) {
      throw translate(error);
    }
  }

  async addIdentity(userUuid: string, phone: string): Promise<UserIdentity> {
    const em = this.em();
    const inserted = await em
      .execute<{ id: string }[]>(
        `insert into "user_identity" ("id", "user_uuid", "channel", "phone", "created_at") values (?, ?, 'sms', ?, now())
       on conflict ("channel", "phone") do nothing returning "id"`,
        [randomUUID(), userUuid, phone],
      )
      .catch((error: unknown) => {
        throw translate(error);
      });
    const identity = await em.findOneOrFail(UserIdentityEntity, { channel: 'sms', phone });
    if (inserted.length === 0 && identity.userUuid !== userUuid) throw new PhoneTakenError();
    return plain(identity);
  }

  async getIdentity(id: string): Promise<UserIdentity | null> {
    const row = await this.em().findOne(UserIdentityEntity, { id });
    return row ? plain(row) : null;
  }

  async listIdentities(filter: { id?: string; userUuid?: string; limit: number }): Promise<UserIdentity[]> {
    const where: { id?: string; userUuid?: string } = {};
    if (filter.id) where.id = filter.id;
    if (filter.userUuid) where.userUuid = filter.userUuid;
    const rows = await this.em().find(UserIdentityEntity, where, { orderBy: { createdAt: 'desc', id: 'asc' }, limit: filter.limit });
    return rows.map(plain);
  }

  async deleteIdentity(id: string): Promise<boolean> {
    return (await this.em().nativeDelete(UserIdentityEntity, { id })) > 0;
  }
}

function toWhitelisted(row: { id: string; phone: string; note?: string | null; createdBy: string; createdAt: Date }): WhitelistedPhone {
  return { id: row.id, phone: row.phone, note: row.note ?? undefined, createdBy: row.createdBy, createdAt: row.createdAt };
}
