import { AppError, badRequest, ERROR_CODES, forbidden, isAdminRole, notFound, type CallerKind, type Role } from '@spinroom/platform';
import { claimKey } from './idempotency.js';
import {
  ACCOUNT_STATUSES,
  checkAmount,
  decideCommit,
  decideCredit,
  decideDebit,
  decideHold,
  decideVoid,
  type AccountStatus,
  type Decision,
  type HoldView,
} from './ledger.js';
import type { Page, TokenAccount, TokenStore, TokenTransaction, WriteResult } from './ports.js';

/** Spec 002's message when a caller has no token account (TokenAccountMissingError). */
export const TOKEN_ACCOUNT_MISSING = 'We were unable to find your token account. Please try again.';
export const TOKEN_ACCOUNT_NOT_FOUND = 'Token account not found';
export const TOKEN_HOLD_NOT_FOUND = 'Token hold not found';

export const tokenAccountMissing = () => notFound(TOKEN_ACCOUNT_MISSING, ERROR_CODES.tokenAccountMissing);

/** Who calls, from their verified token. */
export interface Actor {
  userUuid: string;
  role: Role;
  kind: CallerKind;
}

export interface TokenSettings {
  /** A hold's time to live when the caller does not give one. */
  holdTtlSeconds: number;
  /** The longest a caller may ask for. */
  maxHoldTtlSeconds: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkUuid(value: string, what: string): void {
  if (!UUID.test(value)) throw badRequest(`${what} must be a UUID`);
}

const isService = (actor: Actor) => actor.role === 'service';
const isAdmin = (actor: Actor) => isAdminRole(actor.role);
const owns = (actor: Actor, account: TokenAccount) => account.userUuid === actor.userUuid;

/** Which account a credit or a hold names: by id, by its user, or (holds) the caller's own. */
export interface AccountRef {
  accountId?: string;
  userUuid?: string;
}

export interface CreditRequest extends AccountRef {
  amount: number;
  reason?: string;
  reference?: string;
  idempotencyKey: string;
}

/** A debit: `amount` is the most to take back. */
export type DebitRequest = CreditRequest;

export interface HoldRequest extends AccountRef {
  amount: number;
  /** Undefined or 0: the default. */
  ttlSeconds?: number;
  reference?: string;
  idempotencyKey: string;
}

export interface CommitRequest {
  holdId: string;
  /** Undefined: all the hold holds. */
  amount?: number;
  idempotencyKey: string;
}

export interface VoidRequest {
  holdId: string;
  reason?: string;
  idempotencyKey: string;
}

/** The accounts a batch's items name by their user, looked up together before the items go (`Tokens.writeMany`). */
interface KnownAccounts {
  byUser: Map<string, string>;
}

/** One write of a batch (`Tokens.writeMany`): what its own call would take. */
export type TokenWriteItem =
  | { kind: 'credit'; request: CreditRequest }
  | { kind: 'debit'; request: DebitRequest }
  | { kind: 'hold'; request: HoldRequest }
  | { kind: 'commit'; request: CommitRequest }
  | { kind: 'void'; request: VoidRequest };

/** The most writes one batch call carries. */
export const MAX_WRITES_A_CALL = 512;

/**
 * Token accounts and their ledger: who may do what, over the ledger's rules
 * (ledger.ts) and the store that applies them atomically.
 *
 * - An account: one per user, made from `user.signed-up` or on demand (the
 *   caller's own; services and admins may make anyone's). Its owner, admins
 *   and services read it.
 * - Credits: services and admins only (bought bundles, rewards, grants).
 * - Debits: services only (a refunded purchase takes its tokens back, at most
 *   what is available).
 * - Holds: the account's owner or a service. Commits: the owner or a service.
 *   Voids: the owner, a service or an admin (who may release a stuck hold).
 */
export class Tokens {
  private readonly now: () => Date;

  constructor(
    private readonly store: TokenStore,
    private readonly settings: TokenSettings,
    now?: () => Date,
  ) {
    this.now = now ?? (() => new Date());
  }

  async createAccount(actor: Actor, userUuid?: string): Promise<{ account: TokenAccount; created: boolean }> {
    if (userUuid) {
      checkUuid(userUuid, 'userUuid');
      if (userUuid !== actor.userUuid && !isService(actor) && !isAdmin(actor)) {
        throw forbidden('You may only create your own token account');
      }
      return this.store.createAccount(userUuid, this.now());
    }
    if (isService(actor)) throw badRequest('A service names the user whose token account to create (userUuid)');
    if (actor.kind === 'guest') throw forbidden('Guests have no token account: sign up to get one');
    return this.store.createAccount(actor.userUuid, this.now());
  }

  /** The caller's own account (spec 002's message when there is none). */
  async ownAccount(actor: Actor): Promise<TokenAccount> {
    const account = isService(actor) ? undefined : await this.store.findAccount({ userUuid: actor.userUuid }, this.now());
    if (!account) throw tokenAccountMissing();
    return account;
  }

  /** One account, for its owner, admins and services. */
  async account(actor: Actor, accountId: string): Promise<TokenAccount> {
    checkUuid(accountId, 'accountId');
    const account = await this.store.findAccount({ accountId }, this.now());
    if (!account) throw notFound(TOKEN_ACCOUNT_NOT_FOUND);
    if (!owns(actor, account) && !isAdmin(actor) && !isService(actor)) throw forbidden('You may only see your own token account');
    return account;
  }

  async setStatus(actor: Actor, accountId: string, status: string): Promise<TokenAccount> {
    if (!isAdmin(actor) && !isService(actor)) throw forbidden('Only admins may disable or enable token accounts');
    checkUuid(accountId, 'accountId');
    if (!(ACCOUNT_STATUSES as readonly string[]).includes(status)) throw badRequest(`status must be one of ${ACCOUNT_STATUSES.join(', ')}`);
    const account = await this.store.setStatus(accountId, status as AccountStatus, this.now());
    if (!account) throw notFound(TOKEN_ACCOUNT_NOT_FOUND);
    return account;
  }

  async credit(actor: Actor, request: CreditRequest, known?: KnownAccounts): Promise<WriteResult> {
    if (!isService(actor) && !isAdmin(actor)) throw forbidden('Only services and admins may credit tokens');
    return this.adjust(actor, 'credit', request, (account, text) => decideCredit(account, account.status, text), known);
  }

  /** Takes up to `amount` back, bounded by the available balance: services only. */
  async debit(actor: Actor, request: DebitRequest, known?: KnownAccounts): Promise<WriteResult> {
    if (!isService(actor)) throw forbidden('Only services may take tokens back');
    return this.adjust(actor, 'debit', request, (account, text) => decideDebit(account, text), known);
  }

  /** A credit or a debit: one account's balance moved by an amount, with its reason and reference, under its key. */
  private async adjust(
    actor: Actor,
    kind: 'credit' | 'debit',
    request: CreditRequest,
    decide: (account: TokenAccount, text: { amount: number; reason: string; reference: string }) => Decision,
    known?: KnownAccounts,
  ): Promise<WriteResult> {
    checkAmount(request.amount);
    const text = { amount: request.amount, reason: request.reason ?? '', reference: request.reference ?? '' };
    const claim = claimKey(actor.userUuid, request.idempotencyKey, kind, {
      accountId: request.accountId ?? '',
      userUuid: request.userUuid ?? '',
      ...text,
    });
    const resolved = this.resolve(actor, request, false, known);
    const accountId = typeof resolved === 'string' ? resolved : await resolved;
    return this.store.write(claim, { accountId }, (account) => decide(account, text), this.now());
  }

  async hold(actor: Actor, request: HoldRequest, known?: KnownAccounts): Promise<WriteResult> {
    checkAmount(request.amount);
    const ttlSeconds = request.ttlSeconds || this.settings.holdTtlSeconds;
    if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > this.settings.maxHoldTtlSeconds) {
      throw badRequest(`ttlSeconds must be a whole number of seconds from 1 to ${this.settings.maxHoldTtlSeconds}`);
    }
    const reference = request.reference ?? '';
    const claim = claimKey(actor.userUuid, request.idempotencyKey, 'hold', {
      accountId: request.accountId ?? '',
      userUuid: request.userUuid ?? '',
      amount: request.amount,
      ttlSeconds: request.ttlSeconds ?? 0,
      reference,
    });
    const resolved = this.resolve(actor, request, true, known);
    const accountId = typeof resolved === 'string' ? resolved : await resolved;
    const now = this.now();
    const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
    return this.store.write(
      claim,
      { accountId },
      (account) => {
        if (!owns(actor, account) && !isService(actor)) throw forbidden("Only the account's owner or a service may hold its tokens");
        return decideHold(account, account.status, { amount: request.amount, expiresAt, reference });
      },
      now,
    );
  }

  async commit(actor: Actor, request: CommitRequest): Promise<WriteResult> {
    checkUuid(request.holdId, 'transactionId');
    if (request.amount !== undefined) checkAmount(request.amount);
    const claim = claimKey(actor.userUuid, request.idempotencyKey, 'commit', { holdId: request.holdId, amount: request.amount ?? 0 });
    const now = this.now();
    return this.store.write(
      claim,
      { holdId: request.holdId },
      (account, hold) => {
        if (!owns(actor, account) && !isService(actor)) throw forbidden("Only the account's owner or a service may commit its holds");
        return decideCommit(account, requireHold(hold), request.amount, now);
      },
      now,
    );
  }

  async void(actor: Actor, request: VoidRequest): Promise<WriteResult> {
    checkUuid(request.holdId, 'transactionId');
    const reason = request.reason ?? '';
    const claim = claimKey(actor.userUuid, request.idempotencyKey, 'void', { holdId: request.holdId, reason });
    const now = this.now();
    return this.store.write(
      claim,
      { holdId: request.holdId },
      (account, hold) => {
        if (!owns(actor, account) && !isService(actor) && !isAdmin(actor)) {
          throw forbidden("Only the account's owner, a service or an admin may void its holds");
        }
        return decideVoid(account, requireHold(hold), reason, now);
      },
      now,
    );
  }

  /**
   * Several writes of a service at once: each decided exactly as its own
   * call would decide it (the same checks, rules and refusals, its own key),
   * all started in this turn so the ledger's group commit takes them
   * together. Answers one outcome per write, in order; one write's refusal
   * never touches the others.
   */
  async writeMany(actor: Actor, writes: readonly TokenWriteItem[]): Promise<Array<PromiseSettledResult<WriteResult>>> {
    if (!isService(actor)) throw forbidden('Only services may send token writes in batches');
    if (writes.length > MAX_WRITES_A_CALL) throw badRequest(`At most ${MAX_WRITES_A_CALL} writes a call`);
    // The accounts the items name by their user, in one query, so every item reaches the ledger in this turn, in order.
    const users = writes.flatMap(({ kind, request }) =>
      kind !== 'commit' && kind !== 'void' && !request.accountId && request.userUuid && UUID.test(request.userUuid)
        ? [request.userUuid]
        : [],
    );
    const known: KnownAccounts | undefined = users.length > 0 ? { byUser: await this.store.accountIdsOf([...new Set(users)]) } : undefined;
    return Promise.allSettled(writes.map((write) => this.writeOne(actor, write, known)));
  }

  private writeOne(actor: Actor, write: TokenWriteItem, known: KnownAccounts | undefined): Promise<WriteResult> {
    switch (write.kind) {
      case 'credit':
        return this.credit(actor, write.request, known);
      case 'debit':
        return this.debit(actor, write.request, known);
      case 'hold':
        return this.hold(actor, write.request, known);
      case 'commit':
        return this.commit(actor, write.request);
      case 'void':
        return this.void(actor, write.request);
    }
  }

  /** An account's transactions, newest first: the caller's own when no account is named. */
  async transactions(
    actor: Actor,
    accountId: string | undefined,
    page: Page,
  ): Promise<{ transactions: TokenTransaction[]; total: number }> {
    const account = accountId ? await this.account(actor, accountId) : await this.ownAccount(actor);
    return this.store.listTransactions(account.id, page, this.now());
  }

  /** The periodic sweep: voids every due hold (in batches of accounts) and forgets old idempotency keys. */
  async sweep(keyHours: number): Promise<{ expired: number; forgotten: number }> {
    const now = this.now();
    let expired = 0;
    for (;;) {
      const count = await this.store.expireDue(now, 100);
      expired += count;
      if (count === 0) break;
    }
    const forgotten = await this.store.forgetKeys(new Date(now.getTime() - keyHours * 3600_000));
    return { expired, forgotten };
  }

  /**
   * The account a credit or hold names; `own`: none named is the caller's own.
   * Named by id, answered at once (not a promise), so the write reaches the
   * ledger in the same turn as the call, in the order of a batch's items.
   */
  private resolve(actor: Actor, ref: AccountRef, own: boolean, known?: KnownAccounts): string | Promise<string> {
    if (ref.accountId) {
      checkUuid(ref.accountId, 'accountId');
      return ref.accountId;
    }
    if (known && ref.userUuid && UUID.test(ref.userUuid)) {
      const accountId = known.byUser.get(ref.userUuid);
      if (!accountId) throw ref.userUuid === actor.userUuid ? tokenAccountMissing() : notFound(TOKEN_ACCOUNT_NOT_FOUND);
      return accountId;
    }
    return this.resolveUser(actor, ref, own);
  }

  private async resolveUser(actor: Actor, ref: AccountRef, own: boolean): Promise<string> {
    const userUuid = ref.userUuid || (own && !isService(actor) ? actor.userUuid : undefined);
    if (!userUuid) throw badRequest('Name the token account (accountId or userUuid)');
    checkUuid(userUuid, 'userUuid');
    const account = await this.store.findAccount({ userUuid }, this.now());
    if (!account) throw userUuid === actor.userUuid ? tokenAccountMissing() : notFound(TOKEN_ACCOUNT_NOT_FOUND);
    return account.id;
  }
}

function requireHold(hold: HoldView | undefined): HoldView {
  if (!hold) throw new AppError(404, TOKEN_HOLD_NOT_FOUND);
  return hold;
}
