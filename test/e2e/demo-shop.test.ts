import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEMO_ADMIN_TOKENS, DEMO_BUNDLES, DEMO_CONSUMABLES, seedDemoShop } from '../../scripts/seed/demo-shop.js';
import { signedToken, usePlatform } from '../support/platform.js';

// What `npm start` seeds so the shop is alive on a first run, through the REST paths.
describe('the demo shop', () => {
  const { call, platform } = usePlatform();

  it('sells token bundles and consumables and gives the demo admin tokens, once however often it runs', async () => {
    const admin = await signedToken('admin', randomUUID());
    const lines: string[] = [];
    for (let run = 0; run < 2; run += 1) {
      await seedDemoShop({ baseUrl: platform().baseUrl, token: admin, log: (line) => lines.push(line) });
    }
    // The second run made nothing.
    expect(lines).toEqual([
      `gave the demo admin ${DEMO_ADMIN_TOKENS} tokens`,
      `made ${DEMO_BUNDLES.length + DEMO_CONSUMABLES.length} token bundles and consumables`,
    ]);

    const buyer = await signedToken('user', randomUUID());
    const bundles = (await call('GET', '/api/merch-service/api/v1/token-bundles', { token: buyer })).body;
    expect(bundles.map((b: { tokens: number }) => b.tokens)).toEqual(DEMO_BUNDLES.map((b) => b.tokens));
    const { products } = (await call('GET', '/api/payment-service/api/v1/products', { token: buyer })).body;
    for (const bundle of bundles) {
      const product = products.find((p: { id: string }) => p.id === bundle.productId);
      expect(product).toMatchObject({ tokens: bundle.tokens, currency: 'usd', paymentType: 'one_time' });
    }
    const consumables = (await call('GET', '/api/merch-service/api/v1/consumables?orderBy=tokenCost', { token: buyer })).body;
    expect(consumables.map((c: { name: string }) => c.name)).toEqual(DEMO_CONSUMABLES.map((c) => c.name));

    const account = (await call('GET', '/api/merch-service/api/v1/token-accounts/self', { token: admin })).body;
    expect(account).toMatchObject({ balance: DEMO_ADMIN_TOKENS, credited: DEMO_ADMIN_TOKENS });
  });
});
