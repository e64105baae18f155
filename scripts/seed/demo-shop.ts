import { apiClient } from '../lib/http.js';

const MERCH = '/api/merch-service/api/v1';
const PAYMENT = '/api/payment-service/api/v1';

/** Token bundles sold through Stripe Checkout (stripe-mock locally): tokens, price in cents. */
export const DEMO_BUNDLES = [
  { name: '100 tokens', tokens: 100, price: 99 },
  { name: '550 tokens', tokens: 550, price: 499 },
  { name: '1,200 tokens', tokens: 1200, price: 999 },
];

/** What a room can be treated to, shown in its chat. */
export const DEMO_CONSUMABLES = [
  { name: 'Confetti', description: 'A burst of confetti over the stage', tokenCost: 5, displayType: 'small' },
  { name: 'Air horn', description: 'One loud horn for a great drop', tokenCost: 10, displayType: 'small' },
  { name: 'Spotlight', description: 'Puts the DJ in the spotlight', tokenCost: 25, displayType: 'cover' },
  { name: 'Disco ball', description: 'A disco ball for the whole room', tokenCost: 50, displayType: 'cover' },
] as const;

/** Tokens the demo admin starts with, so the shop can be tried at once. */
export const DEMO_ADMIN_TOKENS = 1000;

/**
 * The shop of a first run, through the real REST paths as the demo admin:
 * payment products and the token bundles that sell them, consumables, and the
 * admin's (`token`'s) token account with its starting tokens. Idempotent: what exists (by
 * name; the tokens once the account was ever credited) is kept.
 */
export async function seedDemoShop(options: { baseUrl: string; token: string; log: (line: string) => void }) {
  const call = apiClient(options.baseUrl);
  const { token } = options;

  const { products } = (await call('GET', `${PAYMENT}/products?limit=100`, token)) as { products: Array<{ id: string; name: string }> };
  const bundles = (await call('GET', `${MERCH}/token-bundles?limit=100`, token)) as unknown as Array<{ productId: string }>;
  let made = 0;
  for (const bundle of DEMO_BUNDLES) {
    const product =
      products.find((p) => p.name === bundle.name) ??
      ((await call('POST', `${PAYMENT}/products`, token, {
        name: bundle.name,
        description: `${bundle.tokens} Spinroom tokens`,
        price: bundle.price,
        currency: 'usd',
        tokens: bundle.tokens,
      })) as { id: string; name: string });
    if (!bundles.some((b) => b.productId === product.id)) {
      await call('POST', `${MERCH}/token-bundles`, token, { name: bundle.name, productId: product.id, tokens: bundle.tokens });
      made += 1;
    }
  }

  const consumables = (await call('GET', `${MERCH}/consumables?limit=100`, token)) as unknown as Array<{ name: string }>;
  for (const consumable of DEMO_CONSUMABLES) {
    if (consumables.some((c) => c.name === consumable.name)) continue;
    await call('POST', `${MERCH}/consumables`, token, consumable);
    made += 1;
  }

  // The demo admin is made in the user service's database, not signed up: its account is asked for.
  const account = await call('POST', `${MERCH}/token-accounts`, token);
  if (account.credited === 0) {
    await call('POST', `${MERCH}/token-transactions/credit`, token, {
      accountId: account.id,
      amount: DEMO_ADMIN_TOKENS,
      reason: 'demo tokens',
      idempotencyKey: `demo-admin-tokens-${account.id}`,
    });
    options.log(`gave the demo admin ${DEMO_ADMIN_TOKENS} tokens`);
  }
  if (made > 0) options.log(`made ${made} token bundles and consumables`);
  return { bundles: DEMO_BUNDLES.length, consumables: DEMO_CONSUMABLES.length };
}
