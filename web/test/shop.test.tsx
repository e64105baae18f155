import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/api/errors';
import type { Consumable, TokenAccount } from '../src/api/shop';
import { href, parseRoute } from '../src/app/router';
import { formatPrice, setLocale } from '../src/i18n/i18n';
import { session } from '../src/session/session';
import { ConsumablePicker } from '../src/shop/ConsumablePicker';
import { acceptEntryFee, asksEntryFee, EntryFeeConfirm, EntryFeeRefused } from '../src/shop/EntryFee';
import type { Room } from '../src/api/types';
import { checkoutUrls, leaveFor, ShopScreen } from '../src/shop/ShopScreen';
import { TokenBalance } from '../src/shop/TokenBalance';
import { purchaseBlock, purchaseErrorText } from '../src/shop/useTokens';
import { json, renderWithQueries, stubBff, type SentRequest } from './fakeBff';

const ROOM = '22222222-2222-4222-8222-222222222222';
const PRODUCT = '33333333-3333-4333-8333-333333333333';
const confetti: Consumable = {
  id: '44444444-4444-4444-8444-444444444444',
  name: 'Confetti',
  description: 'A shower of paper',
  tokenCost: 25,
  displayType: 'cover',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};
const airhorn: Consumable = {
  ...confetti,
  id: '55555555-5555-4555-8555-555555555555',
  name: 'Air horn',
  tokenCost: 200,
  displayType: 'small',
};
const account = (balance: number, updatedAt = '2026-11-25T10:00:00.000Z'): TokenAccount => ({
  id: '66666666-6666-4666-8666-666666666666',
  userUuid: 'me',
  status: 'active',
  balance,
  held: 0,
  credited: balance,
  spent: 0,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt,
});

/** The BFF as these screens use it: the caller's account, the shop's lists, purchases and checkout; every request recorded. */
function fakeBff() {
  const state = {
    account: account(120),
    requests: [] as SentRequest[],
    purchaseAnswer: undefined as undefined | { status: number; body: unknown },
    credits: [] as Array<{ type: string; reference: string }>,
  };
  state.requests = stubBff(({ method, path, body }) => {
    if (path.endsWith('/token-accounts') && method === 'POST') return json(state.account, 201);
    if (path.endsWith('/token-accounts/self')) return json(state.account);
    if (path.endsWith('/token-transactions')) return json({ transactions: state.credits, total: state.credits.length });
    if (path.endsWith('/consumables')) return json([confetti, airhorn]);
    if (path.endsWith('/consumable-purchases')) {
      if (state.purchaseAnswer) return json(state.purchaseAnswer.body, state.purchaseAnswer.status);
      state.account = account(state.account.balance - confetti.tokenCost, '2026-11-25T10:05:00.000Z');
      return json(
        { id: 'p1', consumableId: body?.consumableId, roomUuid: ROOM, tokenCost: 25, lastTokenBalance: state.account.balance },
        201,
      );
    }
    if (path.endsWith('/token-bundles'))
      return json([
        { id: 'b1', name: 'Handful', productId: PRODUCT, tokens: 100, thumbnail: '' },
        { id: 'b2', name: 'Retired', productId: 'prod_old', tokens: 500, thumbnail: '' },
      ]);
    if (path.endsWith(`/products/${PRODUCT}`)) return json({ id: PRODUCT, name: 'Handful', price: 499, currency: 'usd', tokens: 100 });
    if (path.endsWith(`/products/${PRODUCT}/checkout`))
      return json({ id: 'cs_test_1', url: 'https://checkout.stripe.com/c/pay/cs_test_1' }, 201);
    return undefined;
  });
  return state;
}

const wrap = renderWithQueries;

describe('what a purchase says', () => {
  afterEach(() => setLocale('en'));

  it('refuses before sending without a loaded account (spec 002) or with a short balance, in either language', () => {
    expect(purchaseBlock(undefined, confetti, 'en')).toBe('We were unable to find your token account. Please try again.');
    expect(purchaseBlock(account(25), confetti, 'en')).toBeUndefined();
    expect(purchaseBlock(account(24), confetti, 'en')).toBe('Not enough tokens: 24 tokens available, 25 tokens needed.');
    expect(purchaseBlock(account(1), confetti, 'es')).toBe('No tienes suficientes tokens: 1 token disponibles, 25 tokens necesarios.');
  });

  it('tells a stale balance (409) and a short one (402) with the balance as it is now', () => {
    const stale = new ApiError(
      409,
      'Your token balance changed since you last saw it: check your balance and try again',
      'TOKEN_BALANCE_STALE',
    );
    expect(purchaseErrorText(stale, account(80), confetti, 'en')).toBe(
      'Your token balance changed since you last saw it: check your balance and try again. Your balance is now 80 tokens.',
    );
    expect(purchaseErrorText(stale, account(80), confetti, 'es')).toBe(
      'Tu saldo de tokens cambió desde la última vez que lo viste: revisa tu saldo y vuelve a intentarlo. Tu saldo ahora es 80 tokens.',
    );
    const short = new ApiError(402, 'Not enough tokens: 3 available, 25 needed', 'TOKEN_BALANCE_SHORT');
    expect(purchaseErrorText(short, account(3), confetti, 'es')).toBe(
      'No tienes suficientes tokens: 3 tokens disponibles, 25 tokens necesarios.',
    );
    expect(purchaseErrorText(short, undefined, confetti, 'en')).toBe('Not enough tokens');
    const missing = new ApiError(404, 'We were unable to find your token account. Please try again.', 'TOKEN_ACCOUNT_MISSING');
    expect(purchaseErrorText(missing, undefined, confetti, 'es')).toBe('No pudimos encontrar tu cuenta de tokens. Inténtalo de nuevo.');
  });

  it('writes prices in the currency and the locale, from its smallest unit', () => {
    expect(formatPrice(499, 'usd', 'en')).toBe('US$4.99');
    expect(formatPrice(499, 'eur', 'es')).toBe('4,99\u00a0€');
    expect(formatPrice(500, 'jpy', 'en')).toBe('JP¥500');
  });

  it('routes the shop and the pages Stripe returns to', () => {
    expect(parseRoute('#/shop')).toEqual({ name: 'shop' });
    expect(parseRoute('#/shop/paid/cs_test_1')).toEqual({ name: 'shop', checkout: 'paid', sessionId: 'cs_test_1' });
    expect(parseRoute('#/shop/cancelled')).toEqual({ name: 'shop', checkout: 'cancelled' });
    expect(href({ name: 'shop', checkout: 'paid', sessionId: 'cs_test_1' })).toBe('#/shop/paid/cs_test_1');
    expect(checkoutUrls({ origin: 'https://spinroom.example', pathname: '/' })).toEqual({
      successUrl: 'https://spinroom.example/#/shop/paid/{CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://spinroom.example/#/shop/cancelled',
    });
  });
});

describe('the token economy on screen', () => {
  let bff: ReturnType<typeof fakeBff>;
  beforeEach(() => {
    session.signIn('token', 'me', 'user');
    bff = fakeBff();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    session.signOut();
    setLocale('en');
  });

  it('shows the balance in the header as a link to the shop', async () => {
    wrap(<TokenBalance />);
    const link = await screen.findByRole('link', { name: '120 tokens' });
    expect(link.getAttribute('href')).toBe('#/shop');
  });

  it('buys a consumable with the balance as last seen and a new key, then shows the balance the purchase left', async () => {
    wrap(<ConsumablePicker roomUuid={ROOM} />);
    fireEvent.click(screen.getByRole('button', { name: /Use a consumable/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Use a consumable in this room' });
    await within(dialog).findByText('120 tokens');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use Confetti for 25 tokens' }));
    await screen.findByText('You used Confetti. Your balance is 95 tokens.');
    const purchases = bff.requests.filter((r) => r.path.endsWith('/consumable-purchases'));
    expect(purchases).toHaveLength(1);
    expect(purchases[0]!.body).toMatchObject({
      roomUuid: ROOM,
      consumableId: confetti.id,
      balanceUnmodifiedSince: '2026-11-25T10:00:00.000Z',
    });
    expect(String(purchases[0]!.body?.idempotencyKey)).toMatch(/^[\x21-\x7e]{8,}$/);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends nothing when the balance is short, and says so with the way to the shop', async () => {
    wrap(<ConsumablePicker roomUuid={ROOM} />);
    fireEvent.click(screen.getByRole('button', { name: /Use a consumable/ }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('120 tokens');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use Air horn for 200 tokens' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Not enough tokens: 120 tokens available, 200 tokens needed.');
    expect(within(alert).getByRole('link', { name: 'Buy tokens' }).getAttribute('href')).toBe('#/shop');
    expect(bff.requests.some((r) => r.path.endsWith('/consumable-purchases'))).toBe(false);
  });

  it('tells a stale balance in Spanish, charging nothing, and shows the balance read again', async () => {
    setLocale('es');
    wrap(<ConsumablePicker roomUuid={ROOM} />);
    fireEvent.click(screen.getByRole('button', { name: /Usar un consumible/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Usar un consumible en esta sala' });
    await within(dialog).findByText('120 tokens');
    // Spent elsewhere meanwhile: the server refuses the balance the picker saw.
    bff.account = account(70, '2026-11-25T10:03:00.000Z');
    bff.purchaseAnswer = {
      status: 409,
      body: {
        statusCode: 409,
        message: 'Your token balance changed since you last saw it: check your balance and try again',
        code: 'TOKEN_BALANCE_STALE',
      },
    };
    fireEvent.click(within(dialog).getByRole('button', { name: 'Usar Confetti por 25 tokens' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(
      'Tu saldo de tokens cambió desde la última vez que lo viste: revisa tu saldo y vuelve a intentarlo. Tu saldo ahora es 70 tokens.',
    );
    await within(dialog).findByText('70 tokens');
    // The next try sends the fresh updatedAt.
    bff.purchaseAnswer = undefined;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Usar Confetti por 25 tokens' }));
    await screen.findByText('Has usado Confetti. Tu saldo es 45 tokens.');
    const purchases = bff.requests.filter((r) => r.path.endsWith('/consumable-purchases'));
    expect(purchases.map((p) => p.body?.balanceUnmodifiedSince)).toEqual(['2026-11-25T10:00:00.000Z', '2026-11-25T10:03:00.000Z']);
    expect(purchases[0]!.body?.idempotencyKey).not.toBe(purchases[1]!.body?.idempotencyKey);
  });

  it('lists bundles at their product price and consumables with cost and display, and goes to the checkout url', async () => {
    const leave = vi.spyOn(leaveFor, 'url').mockImplementation(() => {});
    wrap(<ShopScreen />);
    await screen.findByText('120 tokens', { selector: '[data-testid="shop-balance"]' });
    const bundles = await screen.findAllByTestId('token-bundle');
    expect(bundles).toHaveLength(2);
    await within(bundles[1]!).findByText('Not on sale right now');
    const buy = await within(bundles[0]!).findByRole('button', { name: 'Buy Handful for US$4.99' });
    const consumables = await screen.findAllByTestId('consumable');
    expect(consumables.map((c) => c.textContent)).toEqual([
      'ConfettiA shower of paperShows as a cover in the chat25 tokens',
      'Air hornA shower of paperShows small in the chat200 tokens',
    ]);
    fireEvent.click(buy);
    await waitFor(() => expect(leave).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1'));
    const checkout = bff.requests.find((r) => r.path.endsWith('/checkout'));
    expect(String(checkout?.body?.successUrl)).toMatch(/#\/shop\/paid\/\{CHECKOUT_SESSION_ID\}$/);
    expect(String(checkout?.body?.cancelUrl)).toMatch(/#\/shop\/cancelled$/);
    // A product id that is not the payment service's (a uuid) is never asked for.
    expect(bff.requests.some((r) => r.path.includes('prod_old'))).toBe(false);
  });

  it("waits on the return page until the checkout's credit is in the ledger, then reads the balance again", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      wrap(<ShopScreen checkout="paid" sessionId="cs_test_1" />);
      await screen.findByText('Thank you for your purchase');
      await screen.findByText('Waiting for the payment to be confirmed…');
      bff.credits = [{ type: 'credit', reference: 'stripe:cs_test_other' }];
      await vi.advanceTimersByTimeAsync(2100);
      expect(screen.getByTestId('checkout-status').textContent).toBe('Waiting for the payment to be confirmed…');
      bff.account = account(220, '2026-11-25T10:10:00.000Z');
      bff.credits.push({ type: 'credit', reference: 'stripe:cs_test_1' });
      await vi.advanceTimersByTimeAsync(2100);
      await waitFor(() =>
        expect(screen.getByTestId('checkout-status').textContent).toBe('Your tokens have arrived: your balance is 220 tokens.'),
      );
      expect(screen.getByTestId('shop-balance').textContent).toBe('220 tokens');
    } finally {
      vi.useRealTimers();
    }
  });

  const paidRoom = (extra: Partial<Room> = {}) =>
    ({
      uuid: `room-${Math.random()}`,
      slug: 'vip',
      name: 'VIP Lounge',
      ownerUuid: 'owner',
      entryFee: 30,
      freeEntries: 2,
      ...extra,
    }) as Room;

  it('asks before the first entry into a paid room, with the fee, the free entries and the balance, once per room', async () => {
    const room = paidRoom();
    const me = { userUuid: 'me', isLoggedIn: true };
    expect(asksEntryFee(room, me)).toBe(true);
    expect(asksEntryFee({ ...room, entryFee: 0 }, me)).toBe(false);
    expect(asksEntryFee({ ...room, ownerUuid: 'me' }, me)).toBe(false);
    expect(asksEntryFee(room, { userUuid: 'g', isLoggedIn: false })).toBe(false);
    const entered = vi.fn();
    wrap(<EntryFeeConfirm room={room} onEnter={entered} />);
    screen.getByText('Entering VIP Lounge costs 30 tokens, paid once: after that you enter free.');
    screen.getByText('Your first 2 entries are free.');
    await screen.findByText('120 tokens');
    fireEvent.click(screen.getByRole('button', { name: 'Enter the room' }));
    expect(entered).toHaveBeenCalledOnce();
    expect(asksEntryFee(room, me)).toBe(false);
    acceptEntryFee(room.uuid);
    expect(asksEntryFee(paidRoom(), me)).toBe(true);
  });

  it('answers a refused paid entry with the reason, the fee and the balance in Spanish, and tries again on request', async () => {
    setLocale('es');
    const retry = vi.fn();
    wrap(
      <EntryFeeRefused
        room={paidRoom({ freeEntries: 0 })}
        code="ROOM_ENTRY_FEE_SHORT"
        message="No tienes suficientes tokens para entrar en esta sala"
        onRetry={retry}
      />,
    );
    expect(screen.getByRole('alert').textContent).toBe('No tienes suficientes tokens para entrar en esta sala');
    screen.getByText('Entrar en VIP Lounge cuesta 30 tokens, que se pagan una sola vez: después entras gratis.');
    await screen.findByText('120 tokens');
    expect(screen.getByRole('link', { name: 'Comprar tokens' }).getAttribute('href')).toBe('#/shop');
    fireEvent.click(screen.getByRole('button', { name: 'Intentar de nuevo' }));
    expect(retry).toHaveBeenCalledOnce();
  });

  it('sends a guest past the free entries to sign up', () => {
    wrap(
      <EntryFeeRefused
        room={paidRoom()}
        code="ROOM_ENTRY_FEE_GUEST"
        message="Guests cannot enter a paid room: sign up to enter it"
        onRetry={() => {}}
      />,
    );
    expect(screen.getByRole('alert').textContent).toBe('Guests cannot enter a paid room: sign up to enter it');
    expect(screen.getByRole('button', { name: 'Sign up' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});
