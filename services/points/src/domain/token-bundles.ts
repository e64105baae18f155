import { AppError, badRequest, forbidden, isAdminRole, notFound } from '@spinroom/platform';
import { checkAmount } from './ledger.js';
import type { Actor } from './tokens.js';

export const TOKEN_BUNDLE_NOT_FOUND = 'Token bundle not found';
export const TOKEN_BUNDLE_PRODUCT_TAKEN = 'Another token bundle already sells this productId';
export const MAX_BUNDLE_NAME_LENGTH = 100;
export const MAX_PRODUCT_ID_LENGTH = 255;

/**
 * A token bundle (spec 000: id, productId, thumbnail): what the shop sells
 * for money. `productId` is the payment provider's product; buying it credits
 * `tokens` to the buyer's account (the payment service, through CreditTokens).
 */
export interface TokenBundle {
  id: string;
  name: string;
  productId: string;
  tokens: number;
  /** Its picture (a shop file, PATCH /api/v1/token-bundles/{id}/thumbnail); '' until it has one. */
  thumbnailUrl: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface TokenBundleInput {
  name: string;
  productId: string;
  tokens: number;
}

export interface TokenBundleQuery {
  ids: string[];
  productIds: string[];
  offset: number;
  limit: number;
}

/** Token bundles in PostgreSQL (db/token-bundle-store.ts). */
export interface TokenBundleStore {
  /** Undefined when another live bundle sells the productId. */
  create(input: TokenBundleInput, now: Date): Promise<TokenBundle | undefined>;
  /** 'taken' when another live bundle sells the productId. */
  patch(id: string, changes: Partial<TokenBundleInput>, now: Date): Promise<TokenBundle | 'taken' | undefined>;
  delete(id: string, now: Date): Promise<boolean>;
  find(id: string): Promise<TokenBundle | undefined>;
  list(query: TokenBundleQuery): Promise<TokenBundle[]>;
  count(): Promise<number>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkUuid(value: string, what: string): void {
  if (!UUID.test(value)) throw badRequest(`${what} must be a UUID`);
}

export function checkTokenBundle(input: Partial<TokenBundleInput>): void {
  if (input.name !== undefined && (input.name.trim().length === 0 || input.name.length > MAX_BUNDLE_NAME_LENGTH)) {
    throw badRequest(`name must be 1 to ${MAX_BUNDLE_NAME_LENGTH} characters`);
  }
  if (input.productId !== undefined && (input.productId.trim().length === 0 || input.productId.length > MAX_PRODUCT_ID_LENGTH)) {
    throw badRequest(`productId must be 1 to ${MAX_PRODUCT_ID_LENGTH} characters`);
  }
  if (input.tokens !== undefined) checkAmount(input.tokens, 'tokens');
}

const taken = () => new AppError(409, TOKEN_BUNDLE_PRODUCT_TAKEN);

/** Token bundles: admins create, change and delete them; anyone signed in reads them. */
export class TokenBundles {
  private readonly now: () => Date;

  constructor(
    private readonly store: TokenBundleStore,
    now?: () => Date,
  ) {
    this.now = now ?? (() => new Date());
  }

  async create(actor: Actor, input: TokenBundleInput): Promise<TokenBundle> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may create token bundles');
    checkTokenBundle(input);
    const bundle = await this.store.create(input, this.now());
    if (!bundle) throw taken();
    return bundle;
  }

  async patch(actor: Actor, id: string, changes: Partial<TokenBundleInput>): Promise<TokenBundle> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may change token bundles');
    checkUuid(id, 'id');
    checkTokenBundle(changes);
    const bundle = await this.store.patch(id, changes, this.now());
    if (bundle === 'taken') throw taken();
    if (!bundle) throw notFound(TOKEN_BUNDLE_NOT_FOUND);
    return bundle;
  }

  async delete(actor: Actor, id: string): Promise<void> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may delete token bundles');
    checkUuid(id, 'id');
    if (!(await this.store.delete(id, this.now()))) throw notFound(TOKEN_BUNDLE_NOT_FOUND);
  }

  async get(id: string): Promise<TokenBundle> {
    checkUuid(id, 'id');
    const bundle = await this.store.find(id);
    if (!bundle) throw notFound(TOKEN_BUNDLE_NOT_FOUND);
    return bundle;
  }

  async list(query: TokenBundleQuery): Promise<TokenBundle[]> {
    for (const id of query.ids) checkUuid(id, 'id');
    return this.store.list(query);
  }

  count(): Promise<number> {
    return this.store.count();
  }
}
