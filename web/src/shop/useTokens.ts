// The token economy's state through React Query: the caller's account (the
// header's balance, the shop, the room's consumables), the shop's lists, and
// a consumable's purchase with spec 002's balanceUnmodifiedSince, whose
// refusals are told in the reader's language.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { ApiError, errorText } from '../api/errors';
import { keys } from '../api/keys';
import { type Consumable, type ConsumablePurchase, shop, type TokenAccount, tokens } from '../api/shop';
import { fill, plural, type Locale, stringsFor } from '../i18n/i18n';
import { useSession } from '../session/session';

/** The caller's token account, for people signed in (guests and visitors have none). */
export function useTokenAccount() {
  const s = useSession();
  const userUuid = s.userUuid ?? '';
  return useQuery({
    queryKey: keys.tokenAccount,
    queryFn: () => tokens.mine(userUuid),
    enabled: s.isLoggedIn && !!userUuid,
    staleTime: 30_000,
  });
}

export function useConsumables(enabled = true) {
  return useQuery({ queryKey: keys.consumables, queryFn: shop.consumables, enabled, staleTime: 60_000 });
}

/** "30 tokens", "1 token" in the locale. */
export function tokenCount(count: number, which?: Locale): string {
  return plural(count, stringsFor(which).tokenCount, which);
}

/** Why a purchase cannot go ahead, before anything is sent: no account loaded (spec 002), or a balance short of the cost. */
export function purchaseBlock(account: TokenAccount | undefined, consumable: Consumable, which?: Locale): string | undefined {
  const t = stringsFor(which);
  if (!account) return t.errorCodes.TOKEN_ACCOUNT_MISSING;
  if (account.balance < consumable.tokenCost) {
    return fill(t.tokenBalanceShort, { available: tokenCount(account.balance, which), needed: tokenCount(consumable.tokenCost, which) });
  }
  return undefined;
}

/**
 * A refused purchase in words: a stale balance (409: the account changed
 * after the updatedAt the buyer saw; nothing was charged), a short one (402,
 * with the numbers the fresh account gives), else the error's own text.
 */
export function purchaseErrorText(error: unknown, fresh: TokenAccount | undefined, consumable: Consumable, which?: Locale): string {
  const t = stringsFor(which);
  if (error instanceof ApiError && error.code === 'TOKEN_BALANCE_STALE') {
    return fresh
      ? `${t.tokenBalanceStale}. ${fill(t.tokenBalanceRefreshed, { balance: tokenCount(fresh.balance, which) })}`
      : t.tokenBalanceStale;
  }
  if (error instanceof ApiError && error.status === 402) {
    return fresh
      ? fill(t.tokenBalanceShort, { available: tokenCount(fresh.balance, which), needed: tokenCount(consumable.tokenCost, which) })
      : errorText(error, which);
  }
  return errorText(error, which);
}

function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export type PurchaseOutcome =
  | { ok: true; purchase: ConsumablePurchase; consumable: Consumable }
  /** `short`: more tokens would let it through (the shop is the way). */
  | { ok: false; message: string; short: boolean };

const isShort = (error: unknown) => error instanceof ApiError && error.status === 402;

/**
 * Buys a consumable for a room with the balance as the buyer last saw it
 * (`balanceUnmodifiedSince` = the account's updatedAt) and a new idempotency
 * key. Whatever the answer, the account is read again, so the header and the
 * picker show the balance as it is now.
 */
export function usePurchase(roomUuid: string, which?: Locale) {
  const client = useQueryClient();
  const account = useTokenAccount();
  const [outcome, setOutcome] = useState<PurchaseOutcome>();
  const mutation = useMutation({
    mutationFn: (consumable: Consumable) => {
      const seen = account.data;
      if (!seen) throw new Error('no token account');
      return shop.purchase({ roomUuid, consumableId: consumable.id, balanceUnmodifiedSince: seen.updatedAt, idempotencyKey: newKey() });
    },
    onMutate: () => setOutcome(undefined),
    onSuccess: async (purchase, consumable) => {
      client.setQueryData<TokenAccount>(keys.tokenAccount, (old) => (old ? { ...old, balance: purchase.lastTokenBalance } : old));
      setOutcome({ ok: true, purchase, consumable });
      await client.invalidateQueries({ queryKey: keys.tokenAccount });
    },
    onError: async (error, consumable) => {
      await client.invalidateQueries({ queryKey: keys.tokenAccount });
      const fresh = client.getQueryData<TokenAccount>(keys.tokenAccount);
      setOutcome({ ok: false, message: purchaseErrorText(error, fresh, consumable, which), short: isShort(error) });
    },
  });
  /** Buys it, or says why not without sending anything. */
  const buy = (consumable: Consumable) => {
    const blocked = purchaseBlock(account.data, consumable, which);
    if (blocked) {
      setOutcome({ ok: false, message: blocked, short: !!account.data });
      return;
    }
    mutation.mutate(consumable);
  };
  const clear = useCallback(() => setOutcome(undefined), []);
  return { account, buy, outcome, pending: mutation.isPending, clear };
}
