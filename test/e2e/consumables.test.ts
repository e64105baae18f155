// Consumables, token bundles and consumable purchases through the BFF (issue
// 16): 401 without a token, 403 for a user writing, success for an admin;
// anyone signed in reads; a purchase spends the tokenCost from the caller's
// account, answers lastTokenBalance, refuses a stale balanceUnmodifiedSince
// (charging nothing), a short balance and a caller without an account.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signedToken, usePlatform } from '../support/platform.js';

const MERCH = '/api/merch-service/api/v1';
const MISSING = 'We were unable to find your token account. Please try again.';

describe('the token shop through the BFF', () => {
  const { call } = usePlatform();

  it('lets admins write consumables and anyone signed in read them (401 without a token, 403 for a user writing)', async () => {
    const admin = await signedToken('admin');
    const user = await signedToken('user');
    const body = { name: 'Confetti', tokenCost: 25, displayType: 'cover' };
    expect((await call('POST', `${MERCH}/consumables`, { body })).status).toBe(401);
    expect((await call('GET', `${MERCH}/consumables`)).status).toBe(401);
    const refused = await call('POST', `${MERCH}/consumables`, { token: user, body });
    expect([refused.status, refused.body.message]).toEqual([403, 'Only admins may create consumables']);
    expect((await call('POST', `${MERCH}/consumables`, { token: admin, body: { ...body, displayType: 'huge' } })).status).toBe(400);
    const made = await call('POST', `${MERCH}/consumables`, { token: admin, body });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'Confetti', description: '', tokenCost: 25, displayType: 'cover' });
    const id = made.body.id as string;
    expect((await call('GET', `${MERCH}/consumables/${id}`, { token: user })).body).toEqual(made.body);
    const listed = await call('GET', `${MERCH}/consumables?id=${id}&orderBy=tokenCost&limit=5`, { token: user });
    expect(listed.body).toEqual([made.body]);
    const count = await call('GET', `${MERCH}/consumables/count`, { token: user });
    expect(count.body.count).toBeGreaterThanOrEqual(1);
    expect((await call('PATCH', `${MERCH}/consumables/${id}`, { token: user, body: { tokenCost: 1 } })).status).toBe(403);
    const patched = await call('PATCH', `${MERCH}/consumables/${id}`, { token: admin, body: { tokenCost: 30, displayType: 'small' } });
    expect(patched.body).toMatchObject({ id, tokenCost: 30, displayType: 'small', name: 'Confetti' });
    expect((await call('DELETE', `${MERCH}/consumables/${id}`, { token: user })).status).toBe(403);
    expect((await call('DELETE', `${MERCH}/consumables/${id}`, { token: admin })).status).toBe(200);
    expect((await call('GET', `${MERCH}/consumables/${id}`, { token: user })).status).toBe(404);
    expect((await call('GET', `${MERCH}/consumables/not-a-uuid`, { token: user })).status).toBe(400);
  });

  it('lets admins write token bundles (POST on one deletes it) and anyone signed in read them', async () => {
    const admin = await signedToken('admin');
    const user = await signedToken('user');
    const productId = `prod_${randomUUID()}`;
    const body = { name: 'Handful', productId, tokens: 100 };
    expect((await call('POST', `${MERCH}/token-bundles`, { body })).status).toBe(401);
    expect((await call('POST', `${MERCH}/token-bundles`, { token: user, body })).status).toBe(403);
    const made = await call('POST', `${MERCH}/token-bundles`, { token: admin, body });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'Handful', productId, tokens: 100, thumbnail: '' });
    expect((await call('POST', `${MERCH}/token-bundles`, { token: admin, body })).status).toBe(409);
    const id = made.body.id as string;
    expect((await call('GET', `${MERCH}/token-bundles?productId=${productId}`, { token: user })).body).toEqual([made.body]);
    expect((await call('GET', `${MERCH}/token-bundles/${id}`, { token: user })).body).toEqual(made.body);
    expect((await call('GET', `${MERCH}/token-bundles/count`, { token: user })).body.count).toBeGreaterThanOrEqual(1);
    expect((await call('PATCH', `${MERCH}/token-bundles/${id}`, { token: user, body: { tokens: 5 } })).status).toBe(403);
    expect((await call('PATCH', `${MERCH}/token-bundles/${id}`, { token: admin, body: { tokens: 150 } })).body.tokens).toBe(150);
    expect((await call('POST', `${MERCH}/token-bundles/${id}`, { token: user })).status).toBe(403);
    expect((await call('POST', `${MERCH}/token-bundles/${id}`, { token: admin })).status).toBe(200);
    expect((await call('GET', `${MERCH}/token-bundles/${id}`, { token: user })).status).toBe(404);
    expect((await call('GET', `${MERCH}/token-bundles?productId=${productId}`, { token: user })).body).toEqual([]);
  });

  it('buys a consumable with the caller’s tokens, refusing a stale balance, a short one and a caller without an account', async () => {
    const admin = await signedToken('admin');
    const user = await signedToken('user');
    const consumable = (
      await call('POST', `${MERCH}/consumables`, { token: admin, body: { name: 'Spotlight', tokenCost: 40, displayType: 'small' } })
    ).body;
    const roomUuid = randomUUID();
    const buy = (token: string, extra: Record<string, unknown> = {}) =>
      call('POST', `${MERCH}/consumable-purchases`, {
        token,
        body: { roomUuid, consumableId: consumable.id, idempotencyKey: randomUUID(), ...extra },
      });
    expect((await buy('')).status).toBe(401);
    const none = await buy(user);
    expect([none.status, none.body.message]).toEqual([404, MISSING]);

    const account = (await call('POST', `${MERCH}/token-accounts`, { token: user })).body;
    const credit = { accountId: account.id, amount: 100, idempotencyKey: randomUUID() };
    expect((await call('POST', `${MERCH}/token-transactions/credit`, { token: admin, body: credit })).status).toBe(201);
    const seen = (await call('GET', `${MERCH}/token-accounts/self`, { token: user })).body;
    expect(seen.balance).toBe(100);

    const key = randomUUID();
    const bought = await buy(user, { balanceUnmodifiedSince: seen.updatedAt, idempotencyKey: key });
    expect(bought.status).toBe(201);
    expect(bought.body).toMatchObject({
      accountId: account.id,
      consumableId: consumable.id,
      roomUuid,
      tokenCost: 40,
      lastTokenBalance: 60,
    });
    // The same key again answers the same purchase and spends nothing more.
    expect((await buy(user, { balanceUnmodifiedSince: seen.updatedAt, idempotencyKey: key })).body).toEqual(bought.body);

    // The balance changed after `seen`: refused, nothing charged.
    const stale = await buy(user, { balanceUnmodifiedSince: seen.updatedAt });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/balance changed since you last saw it/);
    const after = (await call('GET', `${MERCH}/token-accounts/self`, { token: user })).body;
    expect(after).toMatchObject({ balance: 60, spent: 40, held: 0 });

    expect((await buy(user, { balanceUnmodifiedSince: after.updatedAt })).body.lastTokenBalance).toBe(20);
    const short = await buy(user);
    expect([short.status, short.body.code]).toEqual([402, 'TOKEN_BALANCE_SHORT']);
    expect((await buy(user, { roomUuid: 'nope' })).status).toBe(400);
    expect((await call('GET', `${MERCH}/token-accounts/self`, { token: user })).body).toMatchObject({ balance: 20, spent: 80, held: 0 });
  });
});
