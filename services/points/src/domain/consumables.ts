import { AppError, badRequest, ERROR_CODES, forbidden, isAdminRole, notFound } from '@spinroom/platform';
import { claimKey, type IdempotencyClaim } from './idempotency.js';
import { checkAmount, decideCommit, decideHold, type Decision, type HoldView } from './ledger.js';
import type { TokenAccount } from './ports.js';
import { tokenAccountMissing, TOKEN_ACCOUNT_NOT_FOUND, type Actor } from './tokens.js';

/** Spec 000: how a consumable shows in the room's chat. */
export const DISPLAY_TYPES = ['cover', 'small'] as const;
export type DisplayType = (typeof DISPLAY_TYPES)[number];
export const CONSUMABLE_ORDERS = ['createdAt', '-createdAt', 'tokenCost', '-tokenCost'] as const;
export type ConsumableOrder = (typeof CONSUMABLE_ORDERS)[number];

export const CONSUMABLE_NOT_FOUND = 'Consumable not found';
/** A purchase made on a balance the buyer no longer sees (`balanceUnmodifiedSince` older than the account's last change). */
export const TOKEN_BALANCE_STALE = 'Your token balance changed since you last saw it: check your balance and try again';
export const MAX_NAME_LENGTH = 100;
export const MAX_DESCRIPTION_LENGTH = 500;

export interface Consumable {
  id: string;
  name: string;
  description: string;
  tokenCost: number;
  displayType: DisplayType;
  /** Its picture (a shop file: POST /api/v1/consumables/files with its consumableId); '' until it has one. */
  imageUrl: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface ConsumableInput {
  name: string;
  description: string;
  tokenCost: number;
  displayType: DisplayType;
}

export interface ConsumableQuery {
  ids: string[];
  createdBefore?: Date;
  orderBy: ConsumableOrder;
  offset: number;
  limit: number;
}

export interface ConsumablePurchase {
  id: string;
  accountId: string;
  userUuid: string;
  consumableId: string;
  roomUuid: string;
  tokenCost: number;
  /** The account's available balance right after the purchase. */
  lastTokenBalance: number;
  balanceUnmodifiedSince: Date | null;
  /** The ledger's hold and the commit that spent it. */
  holdId: string;
  commitId: string;
  createdAt: Date;
}

/** What the store records beside the ledger rows. */
export type PurchaseRecord = Pick<ConsumablePurchase, 'consumableId' | 'roomUuid' | 'tokenCost' | 'balanceUnmodifiedSince' | 'userUuid'>;

/**
 * A purchase decided under the account's lock: the hold to append, then (with
 * the appended hold) its commit. `lastChange` is the account's last change
 * before anything this write did.
 */
export interface PurchasePlan {
  hold(account: TokenAccount, lastChange: Date): Decision;
  commit(account: TokenAccount, hold: HoldView): Decision;
}

/** Consumables in PostgreSQL (db/consumable-store.ts); purchases go through the token store's ledger. */
export interface ConsumableStore {
  create(input: ConsumableInput, now: Date): Promise<Consumable>;
  patch(id: string, changes: Partial<ConsumableInput>, now: Date): Promise<Consumable | undefined>;
  /** Marks it deleted (its purchases still name it); false when there was none. */
  delete(id: string, now: Date): Promise<boolean>;
  find(id: string): Promise<Consumable | undefined>;
  list(query: ConsumableQuery): Promise<Consumable[]>;
  count(): Promise<number>;
}

/** The part of the token store a purchase needs. */
export interface PurchaseLedger {
  findAccount(by: { accountId: string } | { userUuid: string }, now: Date): Promise<TokenAccount | undefined>;
  /**
   * One database transaction: claims the key (a repeat answers the stored
   * purchase), locks the account, expires its due holds, appends the plan's
   * hold and commit, records the purchase, stages the event announcing it
   * (the room's chat shows it) and stores it as the key's answer.
   */
  purchase(
    claim: IdempotencyClaim,
    accountId: string,
    plan: PurchasePlan,
    record: PurchaseRecord,
    now: Date,
    consumable: Pick<Consumable, 'id' | 'name' | 'tokenCost' | 'displayType'>,
  ): Promise<{ purchase: ConsumablePurchase; replayed: boolean }>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkUuid(value: string, what: string): void {
  if (!UUID.test(value)) throw badRequest(`${what} must be a UUID`);
}

export function checkConsumable(input: Partial<ConsumableInput>): void {
  if (input.name !== undefined && (input.name.trim().length === 0 || input.name.length > MAX_NAME_LENGTH)) {
    throw badRequest(`name must be 1 to ${MAX_NAME_LENGTH} characters`);
  }
  if (input.description !== undefined && input.description.length > MAX_DESCRIPTION_LENGTH) {
    throw badRequest(`description must be at most ${MAX_DESCRIPTION_LENGTH} characters`);
  }
  if (input.tokenCost !== undefined) checkAmount(input.tokenCost, 'tokenCost');
  if (input.displayType !== undefined && !(DISPLAY_TYPES as readonly string[]).includes(input.displayType)) {
    throw badRequest(`displayType must be one of ${DISPLAY_TYPES.join(', ')}`);
  }
}

/**
 * A stale balance is refused, not charged: the buyer saw the balance as of
 * `since`, and the account changed after that (409).
 */
export function checkFresh(lastChange: Date, since: Date | null): void {
  if (since && since.getTime() < lastChange.getTime())
    throw new AppError(409, TOKEN_BALANCE_STALE, { code: ERROR_CODES.tokenBalanceStale });
}

/** The ledger's side of a purchase: a hold of the cost, committed at once (both in one transaction). */
export function purchasePlan(tokenCost: number, since: Date | null, roomUuid: string, consumableId: string, now: Date): PurchasePlan {
  const reference = `consumable:${consumableId}:room:${roomUuid}`;
  return {
    hold(account, lastChange) {
      checkFresh(lastChange, since);
      return decideHold(account, account.status, { amount: tokenCost, expiresAt: new Date(now.getTime() + 60_000), reference });
    },
    commit: (account, hold) => decideCommit(account, hold, tokenCost, now),
  };
}

export interface PurchaseRequest {
  roomUuid: string;
  consumableId: string;
  accountId?: string;
  balanceUnmodifiedSince?: Date;
  idempotencyKey: string;
}

const isAdmin = (actor: Actor) => isAdminRole(actor.role);

/** A purchase for a room its buyer was removed from: nobody there would see it, so nothing is charged. */
export const REMOVED_FROM_ROOM = 'You can no longer use consumables in this room';

/**
 * A buyer's standing in a room (the room service's access rule): a
 * consumable is shown in the room's chat, so it is bought only for a room
 * that exists (404 from the room service) and its buyer was not removed from
 * (banned or kicked).
 */
export interface RoomEntrance {
  standing(roomUuid: string, userUuid: string, role: string): Promise<{ removed: boolean; message: string }>;
}

/**
 * Consumables: admins create, change and delete them; anyone signed in lists
 * and reads them and buys them with their own tokens.
 */
export class Consumables {
  private readonly now: () => Date;

  constructor(
    private readonly store: ConsumableStore,
    private readonly ledger: PurchaseLedger,
    private readonly rooms: RoomEntrance,
    now?: () => Date,
  ) {
    this.now = now ?? (() => new Date());
  }

  async create(actor: Actor, input: ConsumableInput): Promise<Consumable> {
    if (!isAdmin(actor)) throw forbidden('Only admins may create consumables');
    checkConsumable(input);
    return this.store.create(input, this.now());
  }

  async patch(actor: Actor, id: string, changes: Partial<ConsumableInput>): Promise<Consumable> {
    if (!isAdmin(actor)) throw forbidden('Only admins may change consumables');
    checkUuid(id, 'id');
    checkConsumable(changes);
    const consumable = await this.store.patch(id, changes, this.now());
    if (!consumable) throw notFound(CONSUMABLE_NOT_FOUND);
    return consumable;
  }

  async delete(actor: Actor, id: string): Promise<void> {
    if (!isAdmin(actor)) throw forbidden('Only admins may delete consumables');
    checkUuid(id, 'id');
    if (!(await this.store.delete(id, this.now()))) throw notFound(CONSUMABLE_NOT_FOUND);
  }

  async get(id: string): Promise<Consumable> {
    checkUuid(id, 'id');
    const consumable = await this.store.find(id);
    if (!consumable) throw notFound(CONSUMABLE_NOT_FOUND);
    return consumable;
  }

  async list(query: ConsumableQuery): Promise<Consumable[]> {
    for (const id of query.ids) checkUuid(id, 'id');
    if (!(CONSUMABLE_ORDERS as readonly string[]).includes(query.orderBy)) {
      throw badRequest(`orderBy must be one of ${CONSUMABLE_ORDERS.join(', ')}`);
    }
    return this.store.list(query);
  }

  count(): Promise<number> {
    return this.store.count();
  }

  /**
   * Spends the consumable's tokenCost from the caller's account (or the one
   * `accountId` names: the caller's own, or any for a service) in one ledger
   * transaction. 404 (spec 002's message) when the caller has no account, 402
   * when it is short, 409 when `balanceUnmodifiedSince` is older than the
   * account's last change. Idempotent by key.
   */
  async purchase(actor: Actor, request: PurchaseRequest): Promise<{ purchase: ConsumablePurchase; replayed: boolean }> {
    checkUuid(request.roomUuid, 'roomUuid');
    checkUuid(request.consumableId, 'consumableId');
    if (request.accountId) checkUuid(request.accountId, 'accountId');
    const since = request.balanceUnmodifiedSince ?? null;
    if (since && Number.isNaN(since.getTime())) throw badRequest('balanceUnmodifiedSince must be a date and time');
    const claim = claimKey(actor.userUuid, request.idempotencyKey, 'consumable-purchase', {
      roomUuid: request.roomUuid,
      consumableId: request.consumableId,
      accountId: request.accountId ?? '',
      balanceUnmodifiedSince: since ? since.toISOString() : '',
    });
    const now = this.now();
    const account = request.accountId
      ? await this.ledger.findAccount({ accountId: request.accountId }, now)
      : actor.role === 'service'
        ? undefined
        : await this.ledger.findAccount({ userUuid: actor.userUuid }, now);
    if (!account) {
      if (request.accountId) throw notFound(TOKEN_ACCOUNT_NOT_FOUND);
      throw actor.role === 'service' ? badRequest('A service names the account that pays (accountId)') : tokenAccountMissing();
    }
    if (account.userUuid !== actor.userUuid && actor.role !== 'service') {
      throw forbidden('You may only buy with your own token account');
    }
    const consumable = await this.get(request.consumableId);
    // Asked before the ledger's transaction (never inside it): a repeat of a
    // purchase made before the buyer was removed is refused too.
    const buyerRole = account.userUuid === actor.userUuid ? actor.role : 'user';
    const standing = await this.rooms.standing(request.roomUuid, account.userUuid, buyerRole);
    if (standing.removed) throw forbidden(standing.message || REMOVED_FROM_ROOM);
    return this.ledger.purchase(
      claim,
      account.id,
      purchasePlan(consumable.tokenCost, since, request.roomUuid, consumable.id, now),
      {
        consumableId: consumable.id,
        roomUuid: request.roomUuid,
        tokenCost: consumable.tokenCost,
        balanceUnmodifiedSince: since,
        userUuid: account.userUuid,
      },
      now,
      consumable,
    );
  }
}
