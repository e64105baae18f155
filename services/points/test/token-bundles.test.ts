import { randomUUID } from 'node:crypto';
import { dropDatabase, openServiceDatabase, type MikroORM } from '@spinroom/platform';
import { outcome, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointsDatabase } from '../src/db/database.js';
import { PgTokenBundleStore } from '../src/db/token-bundle-store.js';
import { TOKEN_BUNDLE_PRODUCT_TAKEN, TokenBundles } from '../src/domain/token-bundles.js';
import type { Actor } from '../src/domain/tokens.js';

const ADMIN: Actor = { userUuid: randomUUID(), role: 'admin', kind: 'user' };
const USER: Actor = { userUuid: randomUUID(), role: 'user', kind: 'user' };

describe('token bundles on PostgreSQL', () => {
  const databaseUrl = uniqueDatabaseUrl('points_bundles');
  let orm: MikroORM;
  let bundles: TokenBundles;

  beforeAll(async () => {
    orm = await openServiceDatabase('points', databaseUrl, pointsDatabase);
    bundles = new TokenBundles(new PgTokenBundleStore(orm));
  });
  afterAll(async () => {
    await orm.close();
    await dropDatabase(databaseUrl);
  });

  it('lets admins create, change and delete bundles, one live bundle per productId, and anyone read them', async () => {
    expect(await outcome(bundles.create(USER, { name: 'Handful', productId: 'prod_1', tokens: 100 }))).toBe(
      '403 Only admins may create token bundles',
    );
    expect(await outcome(bundles.create(ADMIN, { name: 'Handful', productId: '', tokens: 100 }))).toBe(
      '400 productId must be 1 to 255 characters',
    );
    const small = await bundles.create(ADMIN, { name: 'Handful', productId: 'prod_1', tokens: 100 });
    const big = await bundles.create(ADMIN, { name: 'Crate', productId: 'prod_2', tokens: 1_000 });
    expect(small).toMatchObject({ name: 'Handful', productId: 'prod_1', tokens: 100, thumbnailUrl: '' });
    expect(await outcome(bundles.create(ADMIN, { name: 'Again', productId: 'prod_1', tokens: 5 }))).toBe(
      `409 ${TOKEN_BUNDLE_PRODUCT_TAKEN}`,
    );
    expect(await bundles.count()).toBe(2);
    expect((await bundles.list({ ids: [], productIds: [], offset: 0, limit: 10 })).map((b) => b.id)).toEqual([small.id, big.id]);
    expect((await bundles.list({ ids: [], productIds: ['prod_2'], offset: 0, limit: 10 })).map((b) => b.id)).toEqual([big.id]);
    expect((await bundles.list({ ids: [small.id], productIds: [], offset: 0, limit: 10 })).map((b) => b.id)).toEqual([small.id]);
    expect((await bundles.list({ ids: [], productIds: [], offset: 1, limit: 10 })).map((b) => b.id)).toEqual([big.id]);
    expect(await bundles.get(big.id)).toEqual(big);
    expect(await outcome(bundles.patch(USER, big.id, { tokens: 1 }))).toBe('403 Only admins may change token bundles');
    expect(await outcome(bundles.patch(ADMIN, big.id, { productId: 'prod_1' }))).toBe(`409 ${TOKEN_BUNDLE_PRODUCT_TAKEN}`);
    expect(await bundles.patch(ADMIN, big.id, { tokens: 1_200 })).toMatchObject({ name: 'Crate', productId: 'prod_2', tokens: 1_200 });
    expect(await outcome(bundles.delete(USER, small.id))).toBe('403 Only admins may delete token bundles');
    await bundles.delete(ADMIN, small.id);
    expect(await outcome(bundles.get(small.id))).toBe('404 Token bundle not found');
    expect(await outcome(bundles.delete(ADMIN, small.id))).toBe('404 Token bundle not found');
    expect(await outcome(bundles.patch(ADMIN, randomUUID(), { tokens: 1 }))).toBe('404 Token bundle not found');
    expect(await bundles.count()).toBe(1);
    // The deleted bundle's productId may be sold again.
    expect(await bundles.create(ADMIN, { name: 'Handful again', productId: 'prod_1', tokens: 120 })).toMatchObject({ productId: 'prod_1' });
  });
});
