import { LockMode, UniqueConstraintViolationException, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import { addToOutbox, type OutboxEntry } from '@spinroom/platform';
import { EmailTakenError, type NewAccount } from '../domain/accounts.js';
import type {
  AccountChange,
  DeactivateRequest,
  ModeratedAccount,
  ModerationComment,
  ModerationStore,
} from '../domain/moderation/moderation.js';
import {
  VoucherCodeTakenError,
  VoucherUnavailableError,
  type Voucher,
  type VoucherStatus,
  type VoucherStore,
} from '../domain/moderation/vouchers.js';
import type { User } from '../domain/user.js';
import { ModerationCommentEntity, VoucherEntity } from './moderation-entities.js';
import { UserEntity } from './user-entity.js';
import { insertAccount } from './user-store.js';

const MAX_LISTED = 1000;

function toModerated(user: User): ModeratedAccount {
  const at = (value: Date | string | null | undefined) => (value ? new Date(value) : null);
  return {
    uuid: user.uuid,
    kind: user.kind,
    email: user.email ?? null,
    nickname: user.nickname,
    roles: [...user.roles],
    capabilities: [...user.capabilities],
    bannedAt: at(user.bannedAt),
    bannedUntil: at(user.bannedUntil),
    deactivationRequestedAt: at(user.deactivationRequestedAt),
    deactivatedAt: at(user.deactivatedAt),
  };
}

/** Moderation's PostgreSQL store: account changes under a row lock, with their events in the same transaction. */
export class PgModerationStore implements ModerationStore {
  constructor(
    private readonly orm: MikroORM,
    /** Called after a commit that staged events, so the relay sends them now. */
    private readonly onEventsCommitted: () => void = () => undefined,
  ) {}

  async findAccount(uuid: string): Promise<ModeratedAccount | null> {
    const user = await this.orm.em.fork().findOne(UserEntity, { uuid });
    return user ? toModerated(user) : null;
  }

  async changeAccount(uuid: string, decide: (account: ModeratedAccount) => AccountChange): Promise<ModeratedAccount | null> {
    let staged = false;
    const account = await this.orm.em.fork().transactional(async (em) => {
      // The lock orders concurrent acts on one account: each decides on the state the previous one left.
      const user = await em.findOne(UserEntity, { uuid }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!user) return null;
      const { patch, event } = decide(toModerated(user));
      em.assign(user, { ...patch, updatedAt: new Date() });
      if (event) {
        addToOutbox(em, event);
        staged = true;
      }
      return toModerated(user);
    });
    if (staged) this.onEventsCommitted();
    return account;
  }

  async listDeactivateRequests(): Promise<DeactivateRequest[]> {
    const users = await this.orm.em
      .fork()
      .find(
        UserEntity,
        { deactivationRequestedAt: { $ne: null }, deactivatedAt: null },
        { orderBy: { deactivationRequestedAt: 'asc' }, limit: MAX_LISTED },
      );
    return users.map((user) => ({
      userUuid: user.uuid,
      nickname: user.nickname,
      email: user.email ?? '',
      requestedAt: user.deactivationRequestedAt!,
    }));
  }

  async addComment(comment: ModerationComment): Promise<void> {
    await this.orm.em.fork().insert(ModerationCommentEntity, comment);
  }

  async listComments(userUuid: string | null): Promise<ModerationComment[]> {
    return this.orm.em
      .fork()
      .find(ModerationCommentEntity, userUuid ? { userUuid } : {}, { orderBy: { createdAt: 'desc' }, limit: MAX_LISTED });
  }

  async findComment(id: string): Promise<ModerationComment | null> {
    return this.orm.em.fork().findOne(ModerationCommentEntity, { id });
  }
}

interface VoucherRow {
  id: string;
  code: string;
  status: VoucherStatus;
  created_by: string;
  redeemed_by: string | null;
  created_at: Date | string;
  redeemed_at: Date | string | null;
}

function toVoucher(row: VoucherRow): Voucher {
  return {
    id: row.id,
    code: row.code,
    status: row.status,
    createdBy: row.created_by,
    redeemedBy: row.redeemed_by,
    createdAt: new Date(row.created_at),
    redeemedAt: row.redeemed_at ? new Date(row.redeemed_at) : null,
  };
}

/** Vouchers on PostgreSQL: each transition is one conditional UPDATE, so among concurrent attempts exactly one finds the voucher PENDING. */
export class PgVoucherStore implements VoucherStore {
  constructor(
    private readonly orm: MikroORM,
    private readonly onEventsCommitted: () => void = () => undefined,
  ) {}

  async create(voucher: Voucher): Promise<void> {
    try {
      await this.orm.em.fork().insert(VoucherEntity, voucher);
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new VoucherCodeTakenError();
      throw error;
    }
  }

  async list(): Promise<Voucher[]> {
    const vouchers = await this.orm.em.fork().find(VoucherEntity, {}, { orderBy: { createdAt: 'desc' }, limit: MAX_LISTED });
    return vouchers.map((v) => ({ ...v, redeemedBy: v.redeemedBy ?? null, redeemedAt: v.redeemedAt ?? null }));
  }

  async revoke(id: string): Promise<Voucher> {
    return this.transition(this.orm.em.fork(), `"id" = ?`, id, `"status" = 'REVOKED'`, []);
  }

  async redeem(code: string, userUuid: string, at: Date): Promise<Voucher> {
    return this.transition(this.orm.em.fork(), `"code" = ?`, code, `"status" = 'REDEEMED', "redeemed_by" = ?, "redeemed_at" = ?`, [
      userUuid,
      at,
    ]);
  }

  async createAccountRedeeming(account: NewAccount, code: string, at: Date, announce: (user: User) => OutboxEntry): Promise<User> {
    try {
      const user = await this.orm.em.fork().transactional(async (em) => {
        const created = await insertAccount(em, account, announce, at);
        await this.transition(em, `"code" = ?`, code, `"status" = 'REDEEMED', "redeemed_by" = ?, "redeemed_at" = ?`, [created.uuid, at]);
        return created;
      });
      this.onEventsCommitted();
      return user;
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new EmailTakenError();
      throw error;
    }
  }

  /** PENDING -> the new status, or VoucherUnavailableError with what the voucher is instead. */
  private async transition(em: EntityManager, where: string, key: string, set: string, values: unknown[]): Promise<Voucher> {
    const [row] = await em.execute<VoucherRow[]>(`update "voucher" set ${set} where ${where} and "status" = 'PENDING' returning *`, [
      ...values,
      key,
    ]);
    if (row) return toVoucher(row);
    const [current] = await em.execute<VoucherRow[]>(`select "status" from "voucher" where ${where}`, [key]);
    throw new VoucherUnavailableError(current?.status ?? null);
  }
}
