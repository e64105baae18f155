import { randomBytes, randomUUID } from 'node:crypto';
import { badRequest, conflict, forbidden, isAdminRole, isUuid, notFound, type OutboxEntry } from '@spinroom/platform';
import type { AccessGrant, Accounts, NewAccount } from '../accounts.js';
import type { User } from '../user.js';
import type { Actor } from './moderation.js';

export type VoucherStatus = 'PENDING' | 'REDEEMED' | 'REVOKED';

export interface Voucher {
  id: string;
  code: string;
  status: VoucherStatus;
  createdBy: string;
  redeemedBy: string | null;
  createdAt: Date;
  redeemedAt: Date | null;
}

/** A voucher that could not be redeemed or revoked: absent (null) or no longer PENDING. */
export class VoucherUnavailableError extends Error {
  constructor(readonly status: VoucherStatus | null) {
    super('voucher unavailable');
  }
}

export class VoucherCodeTakenError extends Error {}

/** Where vouchers are kept. The database implementation lives in db/. */
export interface VoucherStore {
  /** Throws VoucherCodeTakenError when the code exists. */
  create(voucher: Voucher): Promise<void>;
  list(): Promise<Voucher[]>;
  /** PENDING -> REVOKED; throws VoucherUnavailableError otherwise. */
  revoke(id: string): Promise<Voucher>;
  /** PENDING -> REDEEMED by the user, in one conditional write (a single winner among concurrent attempts); throws VoucherUnavailableError otherwise. */
  redeem(code: string, userUuid: string, at: Date): Promise<Voucher>;
  /** Creates the account and redeems the voucher by it in one transaction; throws VoucherUnavailableError (and creates nothing) when the voucher is not PENDING. */
  createAccountRedeeming(account: NewAccount, code: string, at: Date, announce: (user: User) => OutboxEntry): Promise<User>;
}

export const VOUCHER_SIGN_UP_MISSING = 'Email, password, or voucher code is missing in request';
export const ADMIN_SIGN_UP_MISSING = 'Email or password is missing in request';
export const VOUCHER_NOT_FOUND = 'Voucher not found';
export const VOUCHER_CODE_TAKEN = 'This voucher code already exists';

const CODE_PATTERN = /^[A-Za-z0-9_-]{4,64}$/;

function unavailable(error: VoucherUnavailableError): Error {
  if (error.status === null) return notFound(VOUCHER_NOT_FOUND);
  return conflict(error.status === 'REDEEMED' ? 'This voucher has already been redeemed' : 'This voucher has been revoked');
}

/** Vouchers (PENDING, then REDEEMED or REVOKED) and the sign-ups that are not the public one: by voucher and by an admin. */
export class Vouchers {
  constructor(
    private readonly store: VoucherStore,
    private readonly accounts: Accounts,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async create(actor: Actor, code: string | undefined): Promise<Voucher> {
    this.requireAdmin(actor);
    if (code !== undefined && !CODE_PATTERN.test(code)) throw badRequest('code must be 4 to 64 letters, digits, - or _');
    const voucher: Voucher = {
      id: randomUUID(),
      code: code ?? randomBytes(12).toString('base64url'),
      status: 'PENDING',
      createdBy: actor.userUuid,
      redeemedBy: null,
      createdAt: this.clock(),
      redeemedAt: null,
    };
    try {
      await this.store.create(voucher);
    } catch (error) {
      if (error instanceof VoucherCodeTakenError) throw conflict(VOUCHER_CODE_TAKEN);
      throw error;
    }
    return voucher;
  }

  async list(actor: Actor): Promise<Voucher[]> {
    this.requireAdmin(actor);
    return this.store.list();
  }

  async revoke(actor: Actor, id: string): Promise<Voucher> {
    this.requireAdmin(actor);
    if (!isUuid(id)) throw notFound(VOUCHER_NOT_FOUND);
    return this.unlessUnavailable(() => this.store.revoke(id));
  }

  async redeem(caller: { userUuid: string; kind: string }, code: string): Promise<Voucher> {
    if (caller.kind !== 'user') throw forbidden('Only signed-in users can redeem a voucher');
    if (!code) throw badRequest('code should not be empty');
    return this.unlessUnavailable(() => this.store.redeem(code, caller.userUuid, this.clock()));
  }

  /** Public sign-up with a voucher: the account exists only if the voucher was PENDING, and then the voucher is REDEEMED by it. */
  async signUp(input: { email: string; password: string; voucherCode: string; nickname?: string }): Promise<AccessGrant> {
    if (!input.email || !input.password || !input.voucherCode) throw badRequest(VOUCHER_SIGN_UP_MISSING);
    return this.unlessUnavailable(() =>
      this.accounts.signUp(input, ['user'], (account, announce) =>
        this.store.createAccountRedeeming(account, input.voucherCode, this.clock(), announce),
      ),
    );
  }

  /** An admin creates an account for someone; the admin gets its uuid, not its token. */
  async adminSignUp(actor: Actor, input: { email: string; password: string; nickname?: string }): Promise<{ userUuid: string }> {
    this.requireAdmin(actor);
    if (!input.email || !input.password) throw badRequest(ADMIN_SIGN_UP_MISSING);
    const { userUuid } = await this.accounts.signUp(input, ['user'], undefined, 'byAdmin');
    return { userUuid };
  }

  private requireAdmin(actor: Actor): void {
    if (!isAdminRole(actor.role)) throw forbidden();
  }

  private async unlessUnavailable<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof VoucherUnavailableError) throw unavailable(error);
      throw error;
    }
  }
}
