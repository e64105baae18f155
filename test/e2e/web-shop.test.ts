// The token economy in the web client (issue 16), in Debian's Chromium
// against the whole platform (the points and payment services, Stripe's own
// stripe-mock): the header shows the balance; the shop lists token bundles at
// their product's price and consumables with their cost and display; buying a
// bundle goes to the url the checkout answered, and Stripe's return page waits
// until the signed webhook's credit is in the ledger, then shows the new
// balance; in a room, a consumable is bought with the balance as last seen and
// everyone in the room sees it in the chat (a cover), a balance changed
// meanwhile is refused (nothing charged) and said so, and a short one is said
// before anything is sent, also on a phone; a paid room asks before the first
// entry and answers joinRoom's short-balance refusal with the fee, the balance
// and a retry. A subscriber-only avatar leads to the shop's Subscription
// section: a plan's Subscribe goes to its subscription checkout's url, Stripe's
// signed events make the subscription active (the return page waits for it),
// the section shows it, Manage opens the billing portal's url, and the avatar
// becomes wearable; axe-core finds nothing serious on the section.
// Screenshots go to test-artifacts/web/.
import AxeBuilder from '@axe-core/playwright';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../web/build.js';
import { CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM, openSignedIn, WEB_ARTIFACTS as ARTIFACTS } from '../support/browser.js';
import { png } from '../support/images.js';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';
import { checkoutCompletedEvent } from '../support/stripe-mock.js';

type Json = any;
/** What the page's document gives these checks (the tests' own types have no DOM). */
type Element = { textContent: string | null; closest(selector: string): Element | null };
type Doc = { activeElement: Element | null; elementFromPoint(x: number, y: number): Element | null };
const MERCH = '/api/merch-service/api/v1';
const PRODUCTS = '/api/payment-service/api/v1/products';
const WEBHOOK = '/api/payment-service/webhook/stripe';
const SUBSCRIPTION = '/api/payment-service/subscription';
const RUN = Math.random().toString(36).slice(2, 8);
const stripe = new Stripe('sk_test_spinroom');

/** Serious and critical WCAG 2.1 A/AA findings (as test/e2e/web-a11y.test.ts counts them), one line each. */
async function axeFindings(page: Page, include?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const result = await (include ? builder.include(include) : builder).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe.skipIf(!HAS_CHROMIUM)('the token shop in a browser', () => {
  const webDir = ensureWebBuild();
  const { call, platform } = usePlatform({ webDir });
  let browser: Browser;
  let admin: string;
  const names = { bundle: `Handful ${RUN}`, confetti: `Confetti ${RUN}`, horn: `Air horn ${RUN}`, cheap: `Sparkle ${RUN}` };
  let productId: string;
  let confettiImage = '';
  const pages: Page[] = [];
  const problems: string[] = [];
  /** Every request a page sent, as "METHOD path" and its JSON body. */
  const sent = new Map<Page, Array<{ what: string; body: Json }>>();

  const signUp = async () => {
    const res = await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery' } });
    expect(res.status).toBe(201);
    return { token: res.body.accessToken as string, userUuid: res.body.userUuid as string };
  };
  /** Tokens for someone, as an admin credits them (their account made first if the sign-up event has not yet). */
  const credit = async (who: { token: string; userUuid: string }, amount: number) => {
    expect((await call('POST', `${MERCH}/token-accounts`, { token: who.token })).status).toBe(201);
    const res = await call('POST', `${MERCH}/token-transactions/credit`, {
      token: admin,
      body: { userUuid: who.userUuid, amount, reason: 'test', idempotencyKey: randomUUID() },
    });
    expect(res.status).toBe(201);
  };
  const open = async (width: number, height: number, expected: RegExp[] = []) => {
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    const log: Array<{ what: string; body: Json }> = [];
    sent.set(page, log);
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (m) => {
      // Chromium logs each refused request; the ones a test provokes on purpose are expected.
      if (m.type() === 'error' && !expected.some((e) => e.test(m.text()))) problems.push(`console: ${m.text()}`);
    });
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (!url.pathname.startsWith('/api/')) return;
      log.push({ what: `${r.method()} ${url.pathname}`, body: r.postData() ? JSON.parse(r.postData()!) : undefined });
    });
    page.on('response', (r) => {
      const line = `${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`;
      if (r.status() >= 400 && !expected.some((e) => e.test(line))) problems.push(line);
    });
    pages.push(page);
    return page;
  };

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    admin = await signedToken('admin');
    const product = await call('POST', PRODUCTS, {
      token: admin,
      body: { name: names.bundle, description: '100 tokens', paymentType: 'one_time', price: 499, currency: 'usd', tokens: 100 },
    });
    expect([product.status, product.body]).toEqual([201, expect.anything()]);
    productId = product.body.id as string;
    const bundle = await call('POST', `${MERCH}/token-bundles`, { token: admin, body: { name: names.bundle, productId, tokens: 100 } });
    expect(bundle.status).toBe(201);
    for (const [name, tokenCost, displayType] of [
      [names.confetti, 25, 'cover'],
      [names.horn, 1000, 'small'],
      [names.cheap, 5, 'small'],
    ] as const) {
      const made = await call('POST', `${MERCH}/consumables`, {
        token: admin,
        body: { name, tokenCost, displayType, description: `${name}!` },
      });
      expect(made.status).toBe(201);
      if (name === names.confetti) {
        // Confetti has a picture (the points service's files); the others are drawn.
        const form = new FormData();
        form.append('consumableId', made.body.id as string);
        form.append('file', new Blob([new Uint8Array(await png(256, 256))], { type: 'image/png' }), 'confetti.png');
        const res = await fetch(`${platform().baseUrl}${MERCH}/consumables/files`, {
          method: 'POST',
          headers: { authorization: `Bearer ${admin}` },
          body: form,
        });
        expect(res.status).toBe(201);
        confettiImage = ((await res.json()) as Json).url as string;
      }
    }
  }, 60_000);
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    for (const [i, page] of pages.entries()) {
      await page.screenshot({ path: join(ARTIFACTS, `failure-shop-${i}.png`), fullPage: true }).catch(() => {});
    }
    console.log(problems);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the balance, lists the shop, and a bundle bought through checkout arrives on the return page', {
    timeout: 120_000,
  }, async () => {
    const person = await signUp();
    await credit(person, 100);
    const page = await open(1280, 860);
    // Stripe's hosted page is outside this machine's reach: a stand-in answers its address.
    await page.route('https://checkout.stripe.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Stripe Checkout</title><h1>Pay</h1>' }),
    );
    await openSignedIn(page, platform().baseUrl, person, '#/');
    const balance = page.getByRole('banner').getByRole('link', { name: '100 tokens' });
    await balance.waitFor();
    await balance.click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#/shop');
    await page.getByRole('heading', { name: 'Token shop' }).waitFor();

    const bundles = page.getByRole('list', { name: 'Token bundles' });
    const buy = bundles.getByRole('button', { name: `Buy ${names.bundle} for US$4.99` });
    await buy.waitFor();
    const consumables = page.getByRole('list', { name: 'Consumables' });
    const confetti = consumables.getByRole('listitem').filter({ hasText: names.confetti });
    await expect.poll(() => confetti.textContent()).toContain('25 tokens');
    await expect(confetti.textContent()).resolves.toContain('Shows as a cover in the chat');
    await expect(consumables.getByRole('listitem').filter({ hasText: names.horn }).textContent()).resolves.toContain(
      'Shows small in the chat',
    );
    await page.screenshot({ path: join(ARTIFACTS, 'shop.png'), fullPage: true });

    // Buying goes to the url the checkout answered.
    // (The checkout's answer passes through unchanged and is kept: the page leaves before its body could be read.)
    let checkout: { id: string; url: string } | undefined;
    await page.route(`**${PRODUCTS}/${productId}/checkout`, async (route) => {
      const response = await route.fetch();
      checkout = (await response.json()) as { id: string; url: string };
      await route.fulfill({ response });
    });
    await buy.click();
    await expect.poll(() => checkout).toBeDefined();
    if (!checkout) throw new Error('no checkout');
    expect(checkout.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    await page.waitForURL(checkout.url);
    const asked = sent.get(page)!.find((r) => r.what === `POST ${PRODUCTS}/${productId}/checkout`)!;
    expect(asked.body.successUrl).toBe(`${platform().baseUrl}/#/shop/paid/{CHECKOUT_SESSION_ID}`);

    // Stripe sends the buyer back (its session id filled in); the tokens arrive with its webhook, a moment later.
    await page.goto(`${platform().baseUrl}/#/shop/paid/${checkout.id}`);
    await page.getByRole('heading', { name: 'Thank you for your purchase' }).waitFor();
    const status = page.getByTestId('checkout-status');
    await expect.poll(() => status.textContent()).toBe('Waiting for the payment to be confirmed…');
    await page.screenshot({ path: join(ARTIFACTS, 'shop-paid-waiting.png') });
    const payload = checkoutCompletedEvent({ id: checkout.id, userUuid: person.userUuid, productId, tokens: 100 });
    const delivered = await call('POST', WEBHOOK, {
      rawBody: payload,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: platform().payment.webhookSecret }),
      },
    });
    expect([delivered.status, delivered.body.processed]).toEqual([200, true]);
    await expect.poll(() => status.textContent()).toBe('Your tokens have arrived: your balance is 200 tokens.');
    await page.getByRole('banner').getByRole('link', { name: '200 tokens' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'shop-paid.png') });

    // Stripe's cancel address says nothing was charged.
    await page.goto(`${platform().baseUrl}/#/shop/cancelled`);
    await page.getByRole('heading', { name: 'Checkout cancelled' }).waitFor();
    expect(problems).toEqual([]);
  });

  it('uses a consumable in a room: bought with the balance as last seen, shown in the chat; a stale balance and a short one are said plainly', {
    timeout: 150_000,
  }, async () => {
    const owner = await signUp();
    const room = await call('POST', '/api/room-service/rooms/infrastructure', { token: owner.token, body: { name: `Shop Room ${RUN}` } });
    expect(room.status).toBe(201);
    const person = await signUp();
    await credit(person, 100);
    // The stale purchase is refused on purpose (409).
    const page = await open(1280, 860, [/^409 POST \/api\/merch-service\/api\/v1\/consumable-purchases$/, /status of 409/]);
    await openSignedIn(page, platform().baseUrl, person, `#/room/${room.body.slug}`);
    await page.getByRole('toolbar', { name: 'Room controls' }).waitFor();
    const header = page.getByRole('banner');
    await header.getByRole('link', { name: '100 tokens' }).waitFor();
    // Someone else in the room sees what is used, in the chat (a phone).
    const bo = await signUp();
    const other = await open(390, 844);
    await openSignedIn(other, platform().baseUrl, bo, `#/room/${room.body.slug}`);
    await other.getByRole('toolbar', { name: 'Room controls' }).waitFor();
    const nickname = (await call('GET', '/api/user-service/users/profile', { token: person.token })).body.nickname as string;

    const use = page.getByRole('button', { name: 'Use a consumable' });
    await use.click();
    const dialog = page.getByRole('dialog', { name: 'Use a consumable in this room' });
    await expect.poll(() => dialog.getByTestId('picker-balance').textContent()).toBe('100 tokens');
    await page.screenshot({ path: join(ARTIFACTS, 'room-consumables.png') });
    await dialog.getByRole('button', { name: `Use ${names.confetti} for 25 tokens` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `You used ${names.confetti}. Your balance is 75 tokens.` })
      .waitFor();
    await header.getByRole('link', { name: '75 tokens' }).waitFor();
    // The chat shows it to both, once, as a cover (its display type).
    for (const p of [page, other]) {
      const shown = p.locator('.chat-consumable').filter({ hasText: `${nickname} used ${names.confetti}` });
      // (The chat service reads the purchase from Kafka: a new platform's first consumer can take a while to join.)
      await shown.waitFor({ timeout: 60_000 });
      expect(await shown.getAttribute('data-display')).toBe('cover');
      await expect.poll(() => shown.locator('img').getAttribute('src')).toBe(confettiImage);
    }
    await page.screenshot({ path: join(ARTIFACTS, 'room-consumable-chat.png') });
    await other.screenshot({ path: join(ARTIFACTS, 'room-consumable-chat-phone.png') });
    const purchases = () => sent.get(page)!.filter((r) => r.what === `POST ${MERCH}/consumable-purchases`);
    const self = await call('GET', `${MERCH}/token-accounts/self`, { token: person.token });
    expect(self.body.balance).toBe(75);
    expect(purchases()).toHaveLength(1);
    expect(purchases()[0]!.body).toMatchObject({ roomUuid: room.body.uuid, balanceUnmodifiedSince: expect.any(String) });

    // The balance changes elsewhere while the list is open: the purchase is refused, nothing is charged, the new balance shows.
    await use.click();
    await expect.poll(() => dialog.getByTestId('picker-balance').textContent()).toBe('75 tokens');
    await credit(person, 5);
    await dialog.getByRole('button', { name: `Use ${names.cheap} for 5 tokens` }).click();
    const alert = dialog.getByRole('alert');
    await expect
      .poll(() => alert.textContent())
      .toContain('Your token balance changed since you last saw it: check your balance and try again. Your balance is now 80 tokens.');
    expect((await call('GET', `${MERCH}/token-accounts/self`, { token: person.token })).body.balance).toBe(80);
    await header.getByRole('link', { name: '80 tokens' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'room-consumable-stale.png') });

    // Short: said before anything is sent, with the way to the shop.
    const before = purchases().length;
    await dialog.getByRole('button', { name: `Use ${names.horn} for 1,000 tokens` }).click();
    await expect.poll(() => alert.textContent()).toContain('Not enough tokens: 80 tokens available, 1,000 tokens needed.');
    await expect(alert.getByRole('link', { name: 'Buy tokens' }).getAttribute('href')).resolves.toBe('#/shop');
    expect(purchases()).toHaveLength(before);
    await page.screenshot({ path: join(ARTIFACTS, 'room-consumable-short.png') });

    // The list and its words in Spanish.
    await page.getByRole('combobox', { name: 'Language' }).selectOption('es');
    await page.getByRole('banner').getByRole('link', { name: '80 tokens' }).waitFor();
    await page.getByRole('button', { name: `Usar ${names.horn} por 1000 tokens` }).click();
    const aviso = page.getByRole('dialog', { name: 'Usar un consumible en esta sala' }).getByRole('alert');
    await expect.poll(() => aviso.textContent()).toContain('No tienes suficientes tokens: 80 tokens disponibles, 1000 tokens necesarios.');
    await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');

    // Escape closes the list and gives the focus back to its button.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { document: Doc }).document.activeElement?.textContent?.trim()))
      .toBe('Use a consumable');
    for (const p of [page, other]) expect(await p.locator('.chat-consumable').count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it('keeps the consumables in view beside the chat on a phone', { timeout: 60_000 }, async () => {
    const owner = await signUp();
    const room = await call('POST', '/api/room-service/rooms/infrastructure', { token: owner.token, body: { name: `Phone Shop ${RUN}` } });
    const person = await signUp();
    await credit(person, 30);
    const page = await open(390, 844);
    await openSignedIn(page, platform().baseUrl, person, `#/room/${room.body.slug}`);
    await page.getByRole('banner').getByRole('link', { name: '30 tokens' }).waitFor();
    await page.getByRole('button', { name: 'Use a consumable' }).click();
    const dialog = page.getByRole('dialog', { name: 'Use a consumable in this room' });
    await expect.poll(() => dialog.getByTestId('picker-balance').textContent()).toBe('30 tokens');
    const option = dialog.getByRole('button', { name: `Use ${names.confetti} for 25 tokens` });
    await option.scrollIntoViewIfNeeded();
    // Nothing covers it: the option itself is what a tap at its middle reaches.
    const box = (await option.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(box.height).toBeGreaterThanOrEqual(44);
    const reached = await page.evaluate(
      ([x, y]) => (globalThis as unknown as { document: Doc }).document.elementFromPoint(x!, y!)?.closest('button')?.textContent ?? '',
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(reached).toContain(names.confetti);
    // So is its title, above the options.
    const title = (await dialog.getByRole('heading', { name: 'Use a consumable in this room' }).boundingBox())!;
    const atTitle = await page.evaluate(
      ([x, y]) => (globalThis as unknown as { document: Doc }).document.elementFromPoint(x!, y!)?.textContent ?? '',
      [title.x + 10, title.y + title.height / 2],
    );
    expect(atTitle).toBe('Use a consumable in this room');
    await page.screenshot({ path: join(ARTIFACTS, 'room-consumables-phone.png') });
    await option.click();
    await page
      .getByRole('status')
      .filter({ hasText: `You used ${names.confetti}. Your balance is 5 tokens.` })
      .waitFor();
    expect(problems).toEqual([]);
  });

  it("asks before entering a paid room, and answers joinRoom's short-balance refusal with the fee, the balance and a retry", {
    timeout: 90_000,
  }, async () => {
    const owner = await signUp();
    const made = await call('POST', '/api/room-service/rooms/infrastructure', {
      token: owner.token,
      body: { name: `Paid Room ${RUN}`, entryFee: 30, freeEntries: 0 },
    });
    expect(made.status).toBe(201);
    const person = await signUp();
    await credit(person, 20);
    const page = await open(1280, 860);
    await openSignedIn(page, platform().baseUrl, person, `#/room/${made.body.slug}`);

    // Before the first entry: the fee and the balance, and nothing charged until "Enter the room".
    await page.getByRole('heading', { name: 'A paid room' }).waitFor();
    await page.getByText(`Entering Paid Room ${RUN} costs 30 tokens, paid once: after that you enter free.`).waitFor();
    await expect.poll(() => page.getByTestId('entry-balance').textContent()).toBe('20 tokens');
    await page.getByText('Not enough tokens: 20 tokens available, 30 tokens needed.').waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'paid-room-prompt.png') });
    await page.getByRole('button', { name: 'Enter the room' }).click();

    // joinRoom refuses the short balance (ROOM_ENTRY_FEE_SHORT): said so, with the way to the shop and a retry.
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Not enough tokens to enter this room');
    await expect(page.getByRole('link', { name: 'Buy tokens' }).getAttribute('href')).resolves.toBe('#/shop');
    await page.screenshot({ path: join(ARTIFACTS, 'paid-room-short.png') });
    await credit(person, 20);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('toolbar', { name: 'Room controls' }).waitFor();
    await page.getByRole('banner').getByRole('link', { name: '10 tokens' }).waitFor();
    const ownerAccount = await call('GET', `${MERCH}/token-accounts/self`, { token: owner.token });
    expect(ownerAccount.body.balance).toBe(30);

    // Paid once: coming back asks nothing and charges nothing.
    await page.reload();
    await page.getByRole('toolbar', { name: 'Room controls' }).waitFor();
    await page.getByRole('banner').getByRole('link', { name: '10 tokens' }).waitFor();
    expect(await page.getByRole('heading', { name: 'A paid room' }).count()).toBe(0);
    expect((await call('GET', `${MERCH}/token-accounts/self`, { token: person.token })).body.balance).toBe(10);
    expect(problems).toEqual([]);
  });

  it("sells a subscription: a subscriber-only avatar leads to the plans, Subscribe goes to Stripe's checkout, its events make it active, Manage opens the portal", {
    timeout: 120_000,
  }, async () => {
    const level = `vip-${RUN}`;
    const planName = `Supporter ${RUN}`;
    const made = await call('POST', PRODUCTS, {
      token: admin,
      body: {
        name: planName,
        description: 'Backs the station',
        paymentType: 'recurring',
        price: 499,
        currency: 'usd',
        interval: 'month',
        level,
      },
    });
    expect(made.status).toBe(201);
    const plan: Json = made.body;
    const avatar = `backer-${RUN}`;
    expect(
      (
        await call('POST', '/api/merch-service/avatars', {
          token: admin,
          body: { slug: avatar, name: `Backer ${RUN}`, status: 'SUBSCRIBER_ONLY' },
        })
      ).status,
    ).toBe(201);
    const person = await signUp();
    const page = await open(1280, 860);
    // Stripe's hosted pages (checkout; stripe-mock's portal is on a stripe.me host) are outside this machine's reach: stand-ins answer them.
    await page.route(/^https:\/\/([\w-]+\.)*stripe\.(com|me)\//, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Stripe</title><h1>Stripe</h1>' }),
    );

    // The locked subscribers' avatar leads to the shop's Subscription section.
    await openSignedIn(page, platform().baseUrl, person, '#/profile');
    const locked = page
      .getByRole('region', { name: 'Avatars to earn' })
      .getByRole('listitem')
      .filter({ hasText: `Backer ${RUN}` });
    await locked.getByRole('link', { name: 'Subscribe to wear it' }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#/shop/subscription');
    const section = page.getByRole('region', { name: 'Subscription' });
    await section.getByText('You have no subscription.').waitFor();
    const plans = section.getByRole('list', { name: 'Subscription plans' });
    const card = plans.getByRole('listitem').filter({ hasText: planName });
    await expect.poll(() => card.textContent()).toContain(`Level: ${level}`);
    await expect(card.textContent()).resolves.toMatch(/\$4\.99 a month/);
    // The section was brought into view: its heading has the focus.
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { document: Doc }).document.activeElement?.textContent))
      .toBe('Subscription');
    expect(await section.getByRole('button', { name: 'Manage subscription' }).count()).toBe(0);
    expect(await axeFindings(page, '#subscription')).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'shop-subscription.png'), fullPage: true });

    // Subscribe goes to the url the subscription checkout answered (stripe-mock's session).
    let checkout: { id: string; url: string } | undefined;
    await page.route(`**${SUBSCRIPTION}/checkout/${plan.id}`, async (route) => {
      const response = await route.fetch();
      checkout = (await response.json()) as { id: string; url: string };
      await route.fulfill({ response });
    });
    await card.getByRole('button', { name: `Subscribe to ${planName}` }).click();
    await expect.poll(() => checkout).toBeDefined();
    if (!checkout) throw new Error('no checkout');
    expect(checkout.id).toMatch(/^cs_/);
    await page.waitForURL(checkout.url);
    const asked = sent.get(page)!.find((r) => r.what === `POST ${SUBSCRIPTION}/checkout/${plan.id}`)!;
    expect(asked.body).toEqual({
      successUrl: `${platform().baseUrl}/#/shop/subscribed`,
      cancelUrl: `${platform().baseUrl}/#/shop/cancelled`,
    });

    // Stripe sends the subscriber back; the subscription is active once Stripe's signed events arrive.
    await page.goto(`${platform().baseUrl}/#/shop/subscribed`);
    await page.getByRole('heading', { name: 'Thank you for subscribing' }).waitFor();
    const status = page.getByTestId('subscribed-status');
    await expect.poll(() => status.textContent()).toBe('Waiting for Stripe to confirm your subscription…');
    const created = Math.floor(Date.now() / 1000) - 30;
    const subscriptionId = `sub_${randomUUID()}`;
    const customer = `cus_${randomUUID()}`;
    const metadata = { userUuid: person.userUuid, productId: plan.id as string, level };
    const stripeEvent = (type: string, at: number, object: object) =>
      JSON.stringify({ id: `evt_${randomUUID()}`, object: 'event', type, created: at, livemode: false, data: { object } });
    const periodEnd = created + 30 * 86_400;
    for (const payload of [
      stripeEvent('customer.subscription.created', created, {
        id: subscriptionId,
        object: 'subscription',
        customer,
        status: 'active',
        start_date: created,
        ended_at: null,
        cancel_at_period_end: false,
        metadata,
        items: { object: 'list', data: [{ id: 'si_1', current_period_start: created, current_period_end: periodEnd }] },
      }),
      stripeEvent('checkout.session.completed', created + 1, {
        id: checkout.id,
        object: 'checkout.session',
        mode: 'subscription',
        payment_status: 'paid',
        customer,
        subscription: subscriptionId,
        customer_details: { address: { country: 'NL' } },
        metadata,
      }),
    ]) {
      const delivered = await call('POST', WEBHOOK, {
        rawBody: payload,
        headers: {
          'content-type': 'application/json',
          'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: platform().payment.webhookSecret }),
        },
      });
      expect([delivered.status, delivered.body.processed]).toEqual([200, true]);
    }
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe(`Your subscription is active: level ${level}.`);

    // The section shows it: plan, level, status, renewal, Stripe; the plan is no longer offered.
    const mine = page.getByTestId('my-subscription');
    await expect.poll(() => mine.getByTestId('subscription-plan-name').textContent()).toBe(planName);
    expect(await mine.getByTestId('subscription-level').textContent()).toBe(level);
    expect(await mine.getByTestId('subscription-status').textContent()).toBe('Active');
    const renews = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' }).format(new Date(periodEnd * 1000));
    expect(await mine.getByTestId('subscription-period').textContent()).toBe(`Renews on ${renews}.`);
    await mine.getByText('Paid through Stripe').waitFor();
    await card.getByText('Your plan').waitFor();
    expect(await card.getByRole('button').count()).toBe(0);
    expect(await axeFindings(page, '#subscription')).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'shop-subscribed.png'), fullPage: true });

    // Manage opens the billing portal's url, with the way back to the section.
    let portal: { id: string; url: string } | undefined;
    await page.route(`**${SUBSCRIPTION}/portal`, async (route) => {
      const response = await route.fetch();
      portal = (await response.json()) as { id: string; url: string };
      await route.fulfill({ response });
    });
    await mine.getByRole('button', { name: 'Manage subscription' }).click();
    await expect.poll(() => portal).toBeDefined();
    if (!portal) throw new Error('no portal');
    const portalUrl = new URL(portal.url).href;
    await page.waitForURL((url) => url.href === portalUrl);
    const portalAsked = sent.get(page)!.find((r) => r.what === `POST ${SUBSCRIPTION}/portal`)!;
    expect(portalAsked.body).toEqual({ returnUrl: `${platform().baseUrl}/#/shop/subscription` });

    // The subscribers' avatar is now the subscriber's to wear.
    await page.goto(`${platform().baseUrl}/#/profile`);
    await page
      .getByRole('group', { name: 'Yours from the catalogue' })
      .getByRole('radio', { name: `Backer ${RUN}` })
      .waitFor();
    expect(problems).toEqual([]);
  });

  it("shows the current season's ranking in pages, the person's own place pinned, then marked on its page", {
    timeout: 90_000,
  }, async () => {
    const season = await call('POST', `${MERCH.replace('/api/v1', '')}/points/season`, {
      token: admin,
      body: { name: `Season ${RUN}`, start: new Date(Date.now() - 86_400_000).toISOString() },
    });
    expect(season.status).toBe(201);
    const give = async (userUuid: string, points: number) => {
      const res = await call('POST', `${MERCH.replace('/api/v1', '')}/points/season/admin/handle-points`, {
        token: admin,
        body: { userUuid, points, reason: 'test' },
      });
      expect(res.status).toBe(201);
    };
    for (let i = 0; i < 24; i += 1) await give(randomUUID(), 10 + i);
    const person = await signUp();
    await give(person.userUuid, 3);
    const page = await open(390, 844);
    await openSignedIn(page, platform().baseUrl, person, '#/ranking');
    await page.getByRole('heading', { name: `Ranking: Season ${RUN}` }).waitFor();
    const first = page.getByRole('list', { name: 'Places 1 to 20' });
    await expect.poll(() => first.getByRole('listitem').count()).toBe(20);
    const pinned = page.getByRole('region', { name: 'Your place' });
    await expect.poll(() => pinned.textContent()).toContain('#25');
    await expect(pinned.textContent()).resolves.toContain('3 points');
    await page.screenshot({ path: join(ARTIFACTS, 'ranking-phone.png'), fullPage: true });
    await page.getByRole('button', { name: 'Next page' }).click();
    const second = page.getByRole('list', { name: 'Places 21 to 25' });
    await expect.poll(() => second.locator('li[aria-current="true"]').textContent()).toContain('#25');
    expect(await pinned.count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('picks an avatar in the profile: owned ones (public, assigned) to choose, a subscriber-only one locked and explained', {
    timeout: 60_000,
  }, async () => {
    const M = '/api/merch-service';
    const slugs = { open: `disco-${RUN}`, given: `gold-${RUN}`, vip: `vip-${RUN}` };
    for (const [slug, name, status] of [
      [slugs.open, `Disco ${RUN}`, 'PUBLIC'],
      [slugs.given, `Gold ${RUN}`, 'SUBSCRIBER_ONLY'],
      [slugs.vip, `VIP ${RUN}`, 'SUBSCRIBER_ONLY'],
    ] as const) {
      expect((await call('POST', `${M}/avatars`, { token: admin, body: { slug, name, status } })).status).toBe(201);
    }
    const person = await signUp();
    const given = await call('POST', `${M}/avatar-assignment/${slugs.given}`, { token: admin, body: { userUuid: person.userUuid } });
    expect(given.status).toBe(201);
    const page = await open(1280, 860);
    await openSignedIn(page, platform().baseUrl, person, '#/profile');
    const owned = page.getByRole('group', { name: 'Yours from the catalogue' });
    await expect.poll(() => owned.getByRole('radio').count()).toBe(2);
    const locked = page.getByRole('region', { name: 'Avatars to earn' });
    await expect
      .poll(() =>
        locked
          .getByRole('listitem')
          .filter({ hasText: `VIP ${RUN}` })
          .textContent(),
      )
      .toContain('For subscribers');
    expect(
      await locked
        .getByRole('listitem')
        .filter({ hasText: `Gold ${RUN}` })
        .count(),
    ).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'avatar-picker.png'), fullPage: true });
    // The radio is the drawing's label: a click on the drawing picks it.
    await owned.getByRole('img', { name: `Gold ${RUN}` }).click();
    await expect.poll(() => owned.getByRole('radio', { name: `Gold ${RUN}` }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await call('GET', '/api/user-service/users/profile', { token: person.token })).body.avatarId)
      .toBe(slugs.given);
    expect(problems).toEqual([]);
  });
});
