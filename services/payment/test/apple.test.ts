// App Store Server Notifications V2 on PostgreSQL: the signedPayload's x5c
// chain (a root, intermediate and leaf made here, shaped as Apple's) must
// verify up to the configured root and its ES256 signature must hold;
// subscriptions follow SUBSCRIBED, DID_RENEW, DID_CHANGE_RENEWAL_STATUS,
// EXPIRED and REFUND, never undone by an older notification; ONE_TIME_CHARGE
// credits a token product once.
import { randomUUID } from 'node:crypto';
import { dropDatabase, openServiceDatabase, type MikroORM } from '@spinroom/platform';
import { outcome, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLE_UNAVAILABLE, AppleJwsVerifier, certificatesOfPem } from '../src/apple.js';
import { paymentDatabase } from '../src/db/database.js';
import { Payments, type Actor, type CreditTokens } from '../src/domain/payments.js';
import { appleNotification, makeChain, signJws, type TestChain } from './apple-chain.js';

const ADMIN: Actor = { userUuid: randomUUID(), role: 'admin', kind: 'user' };
const SERVICE: Actor = { userUuid: randomUUID(), role: 'service', kind: 'service' };
const DAY = 86_400_000;

describe("Apple's App Store notifications", () => {
  const databaseUrl = uniqueDatabaseUrl('payment_apple');
  let orm: MikroORM;
  let chain: TestChain;
  let payments: Payments;
  const credits: Parameters<CreditTokens>[0][] = [];
  const appleProduct = `fm.spinroom.supporter.${randomUUID().slice(0, 8)}`;
  const appleTokens = `fm.spinroom.tokens500.${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    chain = await makeChain();
    orm = await openServiceDatabase('payment', databaseUrl, paymentDatabase);
    payments = new Payments(orm, {
      apple: new AppleJwsVerifier(certificatesOfPem(chain.rootPem)),
      appleBundleId: 'fm.spinroom.app',
      async credit(request) {
        await new Promise((resolve) => setTimeout(resolve, 30));
        credits.push(request);
      },
    });
    await payments.createProduct(ADMIN, {
      name: 'Supporter (iOS)',
      description: '',
      price: 599,
      currency: 'usd',
      paymentType: 'recurring',
      interval: 'month',
      level: 'supporter',
      appleProductId: appleProduct,
    });
    await payments.createProduct(ADMIN, {
      name: '500 tokens (iOS)',
      description: '',
      price: 999,
      currency: 'usd',
      tokens: 500,
      appleProductId: appleTokens,
    });
  }, 60_000);
  afterAll(async () => {
    await orm?.close();
    await dropDatabase(databaseUrl);
  });

  it('keeps a subscription from SUBSCRIBED to EXPIRED, in order whatever order the notifications come in', async () => {
    const userUuid = randomUUID();
    const originalTransactionId = `2000000${Date.now()}`;
    const t0 = Date.now() - 60_000;
    const transaction = {
      productId: appleProduct,
      originalTransactionId,
      appAccountToken: userUuid,
      type: 'Auto-Renewable Subscription',
      purchaseDate: t0,
      expiresDate: t0 + 30 * DAY,
      storefront: 'USA',
    };
    const subscribed = appleNotification(chain, { notificationType: 'SUBSCRIBED', subtype: 'INITIAL_BUY', signedDate: t0, transaction });
    const answers = await Promise.all([1, 2, 3].map(() => payments.handleAppleNotification(subscribed.signedPayload)));
    expect(answers.filter(Boolean)).toHaveLength(1);
    const active = await payments.activeSubscription(SERVICE, userUuid);
    expect(active).toMatchObject({
      provider: 'apple',
      providerSubscriptionId: originalTransactionId,
      level: 'supporter',
      status: 'active',
      region: 'USA',
      cancelAtPeriodEnd: false,
      currentPeriodEnd: new Date(t0 + 30 * DAY),
    });

    const disabled = appleNotification(chain, {
      notificationType: 'DID_CHANGE_RENEWAL_STATUS',
      subtype: 'AUTO_RENEW_DISABLED',
      signedDate: t0 + 1000,
      transaction,
      autoRenewStatus: 0,
    });
    expect(await payments.handleAppleNotification(disabled.signedPayload)).toBe(true);
    expect((await payments.activeSubscription(SERVICE, userUuid))?.cancelAtPeriodEnd).toBe(true);

    // A renewal signed later, then an expiry signed before it but arriving after it: the renewal stands.
    const renewal = { ...transaction, transactionId: `${originalTransactionId}1`, purchaseDate: t0 + 30 * DAY, expiresDate: t0 + 60 * DAY };
    const renewed = appleNotification(chain, { notificationType: 'DID_RENEW', signedDate: t0 + 5000, transaction: renewal });
    const staleExpiry = appleNotification(chain, { notificationType: 'EXPIRED', subtype: 'VOLUNTARY', signedDate: t0 + 4000, transaction });
    expect(await payments.handleAppleNotification(renewed.signedPayload)).toBe(true);
    expect(await payments.handleAppleNotification(staleExpiry.signedPayload)).toBe(false);
    expect((await payments.activeSubscription(SERVICE, userUuid))?.currentPeriodEnd).toEqual(new Date(t0 + 60 * DAY));

    const expired = appleNotification(chain, {
      notificationType: 'EXPIRED',
      subtype: 'VOLUNTARY',
      signedDate: t0 + 9000,
      transaction: renewal,
    });
    expect(await payments.handleAppleNotification(expired.signedPayload)).toBe(true);
    expect(await payments.activeSubscription(SERVICE, userUuid)).toBeUndefined();
    const [kept] = (await payments.subscriptions(SERVICE, userUuid)).subscriptions;
    expect(kept).toMatchObject({ status: 'expired', active: false, endedAt: new Date(t0 + 60 * DAY) });
  });

  it('ends a refunded subscription at once', async () => {
    const userUuid = randomUUID();
    const originalTransactionId = `3000000${Date.now()}`;
    const t0 = Date.now() - 60_000;
    const transaction = {
      productId: appleProduct,
      originalTransactionId,
      appAccountToken: userUuid,
      type: 'Auto-Renewable Subscription',
      purchaseDate: t0,
      expiresDate: t0 + 30 * DAY,
    };
    await payments.handleAppleNotification(
      appleNotification(chain, { notificationType: 'SUBSCRIBED', signedDate: t0, transaction }).signedPayload,
    );
    expect((await payments.activeSubscription(SERVICE, userUuid))?.level).toBe('supporter');
    const refund = appleNotification(chain, {
      notificationType: 'REFUND',
      signedDate: t0 + 1000,
      transaction: { ...transaction, revocationDate: t0 + 900 },
    });
    expect(await payments.handleAppleNotification(refund.signedPayload)).toBe(true);
    expect(await payments.activeSubscription(SERVICE, userUuid)).toBeUndefined();
    expect((await payments.subscriptions(SERVICE, userUuid)).subscriptions[0]).toMatchObject({
      status: 'revoked',
      endedAt: new Date(t0 + 900),
    });
  });

  it('credits a ONE_TIME_CHARGE once, however often it is delivered, and refuses a product it does not sell', async () => {
    const userUuid = randomUUID();
    const transactionId = `4000000${Date.now()}`;
    const transaction = { productId: appleTokens, originalTransactionId: transactionId, appAccountToken: userUuid, type: 'Consumable' };
    const charge = appleNotification(chain, { notificationType: 'ONE_TIME_CHARGE', signedDate: Date.now(), transaction });
    const before = credits.length;
    const answers = await Promise.all([1, 2, 3].map(() => payments.handleAppleNotification(charge.signedPayload)));
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(credits.slice(before)).toEqual([
      {
        userUuid,
        amount: 500,
        reason: 'purchase',
        reference: `apple:${transactionId}`,
        idempotencyKey: `apple-transaction:${transactionId}`,
      },
    ]);
    expect(await payments.handleAppleNotification(charge.signedPayload)).toBe(false);

    const unknown = appleNotification(chain, {
      notificationType: 'ONE_TIME_CHARGE',
      signedDate: Date.now(),
      transaction: { ...transaction, productId: 'fm.spinroom.nothing', originalTransactionId: `5${transactionId}` },
    });
    expect(await outcome(payments.handleAppleNotification(unknown.signedPayload))).toBe(
      '400 No token product is sold as the App Store product fm.spinroom.nothing',
    );
    const anonymous = appleNotification(chain, {
      notificationType: 'ONE_TIME_CHARGE',
      signedDate: Date.now(),
      transaction: { productId: appleTokens, originalTransactionId: `6${transactionId}`, type: 'Consumable' },
    });
    expect(await outcome(payments.handleAppleNotification(anonymous.signedPayload))).toMatch(/^400 .*appAccountToken/);
    expect(credits.length).toBe(before + 1);
  });

  it("refuses what Apple did not sign: another chain, a changed body, a leaf without Apple's marker, an expired leaf, another app", async () => {
    const userUuid = randomUUID();
    const transaction = {
      productId: appleTokens,
      originalTransactionId: `7000000${Date.now()}`,
      appAccountToken: userUuid,
      type: 'Consumable',
    };
    const notify = (signer: TestChain, extra: { bundleId?: string } = {}) =>
      appleNotification(signer, { notificationType: 'ONE_TIME_CHARGE', signedDate: Date.now(), transaction, ...extra }).signedPayload;
    const before = credits.length;

    const forger = await makeChain({ name: 'Forger' });
    expect(await outcome(payments.handleAppleNotification(notify(forger)))).toMatch(/^400 .*does not lead to the trusted Apple root/);
    // The forger's own leaf and intermediate with the trusted root named as the third certificate.
    const spliced = { ...forger, x5c: [forger.x5c[0]!, forger.x5c[1]!, chain.x5c[2]!] };
    expect(await outcome(payments.handleAppleNotification(notify(spliced)))).toMatch(/^400 /);
    // The genuine chain in the header, signed by another key.
    const stolenHeader = { ...forger, x5c: chain.x5c };
    expect(await outcome(payments.handleAppleNotification(notify(stolenHeader)))).toMatch(/^400 .*signature does not verify/);
    // A changed payload under a genuine signature.
    const [header, , signature] = notify(chain).split('.');
    const changed = Buffer.from(JSON.stringify({ notificationType: 'ONE_TIME_CHARGE', notificationUUID: randomUUID(), data: {} })).toString(
      'base64url',
    );
    expect(await outcome(payments.handleAppleNotification(`${header}.${changed}.${signature}`))).toMatch(
      /^400 .*signature does not verify/,
    );
    expect(await outcome(payments.handleAppleNotification(signJws(chain, { notificationType: 'TEST' }, { alg: 'none' })))).toMatch(
      /^400 .*ES256/,
    );
    expect(await outcome(payments.handleAppleNotification('not a jws'))).toMatch(/^400 /);
    expect(await outcome(payments.handleAppleNotification(notify({ ...chain, x5c: [chain.x5c[0]!] })))).toMatch(/^400 .*x5c/);

    const unmarked = await makeChain({ leafMarked: false });
    const expired = await makeChain({ leafExpired: true });
    for (const other of [unmarked, expired]) {
      const trusting = new Payments(orm, { apple: new AppleJwsVerifier(certificatesOfPem(other.rootPem)), credit: async () => {} });
      expect(await outcome(trusting.handleAppleNotification(notify(other)))).toMatch(/^400 .*certificate chain does not verify/);
    }
    expect(await outcome(payments.handleAppleNotification(notify(chain, { bundleId: 'com.example.other' })))).toBe(
      '400 The notification is for another app than fm.spinroom.app',
    );
    expect(credits.length).toBe(before);

    const unconfigured = new Payments(orm, { credit: async () => {} });
    expect(await outcome(unconfigured.handleAppleNotification(notify(chain)))).toBe(`503 ${APPLE_UNAVAILABLE}`);
  });
});
