// Token accounts and their ledger through the BFF (issue 16): a new user's
// account is made from user.signed-up on Kafka, GET self answers it (spec 002's
// message when there is none), other people's accounts are refused, and the
// ledger's writes (credit, hold, commit, void) keep the balance, refuse what
// would make it negative and answer a repeated idempotency key with the first answer.
import { randomUUID } from 'node:crypto';
import { eventually } from '@spinroom/platform/testing';
import { describe, expect, it } from 'vitest';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';

type Json = any;
const ACCOUNTS = '/api/merch-service/api/v1/token-accounts';
const TRANSACTIONS = '/api/merch-service/api/v1/token-transactions';
const MISSING = 'We were unable to find your token account. Please try again.';

describe('token accounts and the ledger through the BFF', () => {
  const { call } = usePlatform();
  const signUp = async () =>
    (await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery' } })).body as {
      accessToken: string;
      userUuid: string;
    };
  /** The account user.signed-up made (it arrives through Kafka, shortly after the sign-up). */
  const accountOf = (token: string) =>
    eventually(async () => {
      const res = await call('GET', `${ACCOUNTS}/self`, { token });
      return res.status === 200 ? res.body : undefined;
    }, 20_000);

  it("gives a new user an account from user.signed-up, which self answers; 404 with spec 002's message without one; 401 without a token", async () => {
    const ana = await signUp();
    const account = await accountOf(ana.accessToken);
    expect(account).toMatchObject({ userUuid: ana.userUuid, status: 'active', balance: 0, held: 0, credited: 0, spent: 0 });
    expect(account.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await call('GET', `${ACCOUNTS}/${account.id}`, { token: ana.accessToken })).body).toEqual(account);
    // Asking for one again answers the same account.
    const again = await call('POST', ACCOUNTS, { token: ana.accessToken });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(account.id);

    // A user the sign-up event never named (a token for a new subject) has none until asking for one.
    const stranger = await signedToken('user');
    const missing = await call('GET', `${ACCOUNTS}/self`, { token: stranger });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ statusCode: 404, message: MISSING, error: 'Not Found', code: 'TOKEN_ACCOUNT_MISSING' });
    const held = await call('POST', `${TRANSACTIONS}/hold`, { token: stranger, body: { amount: 1, idempotencyKey: randomUUID() } });
    expect([held.status, held.body.message]).toEqual([404, MISSING]);
    const made = await call('POST', ACCOUNTS, { token: stranger });
    expect(made.status).toBe(201);
    expect((await call('GET', `${ACCOUNTS}/self`, { token: stranger })).body.id).toBe(made.body.id);
    const guest = (await call('GET', '/api/user-service/auth/guest')).body.accessToken;
    expect((await call('POST', ACCOUNTS, { token: guest })).status).toBe(403);

    expect((await call('GET', `${ACCOUNTS}/self`)).status).toBe(401);
    expect((await call('GET', `${ACCOUNTS}/${account.id}`)).status).toBe(401);
    expect((await call('POST', `${TRANSACTIONS}/hold`, { body: { amount: 1, idempotencyKey: randomUUID() } })).status).toBe(401);
  });

  it("refuses another user's account (403), lets admins read it, and checks ids at the edge", async () => {
    const ana = await signUp();
    const ben = await signUp();
    const account = await accountOf(ana.accessToken);
    const refused = await call('GET', `${ACCOUNTS}/${account.id}`, { token: ben.accessToken });
    expect([refused.status, refused.body.message]).toEqual([403, 'You may only see your own token account']);
    const listed = await call('GET', `${TRANSACTIONS}?accountId=${account.id}`, { token: ben.accessToken });
    expect(listed.status).toBe(403);
    const admin = await signedToken('admin');
    expect((await call('GET', `${ACCOUNTS}/${account.id}`, { token: admin })).body.id).toBe(account.id);
    expect((await call('GET', `${ACCOUNTS}/${randomUUID()}`, { token: admin })).status).toBe(404);
    expect((await call('GET', `${ACCOUNTS}/not-a-uuid`, { token: admin })).status).toBe(400);
  });

  it('credits (admins), holds, commits part, voids, refuses a short balance and answers a repeated key with its first answer', async () => {
    const ana = await signUp();
    const token = ana.accessToken;
    const account = await accountOf(token);
    const admin = await signedToken('admin');

    const creditBody = { accountId: account.id, amount: 100, reason: 'welcome', idempotencyKey: randomUUID() };
    expect((await call('POST', `${TRANSACTIONS}/credit`, { token, body: creditBody })).status).toBe(403);
    const credit = await call('POST', `${TRANSACTIONS}/credit`, { token: admin, body: creditBody });
    expect(credit.status).toBe(201);
    expect(credit.body).toMatchObject({ type: 'credit', amount: 100, balance: 100, held: 0, reason: 'welcome', holdId: null });
    // The same key and body again: the first answer, no second credit.
    const repeated = await call('POST', `${TRANSACTIONS}/credit`, { token: admin, body: creditBody });
    expect([repeated.status, repeated.body]).toEqual([201, credit.body]);
    const reused = await call('POST', `${TRANSACTIONS}/credit`, { token: admin, body: { ...creditBody, amount: 101 } });
    expect(reused.status).toBe(409);
    expect(reused.body).toMatchObject({ code: 'TOKEN_IDEMPOTENCY_KEY_REUSED' });

    const hold = await call('POST', `${TRANSACTIONS}/hold`, { token, body: { amount: 40, ttlSeconds: 120, idempotencyKey: randomUUID() } });
    expect(hold.status).toBe(201);
    expect(hold.body).toMatchObject({ type: 'hold', amount: 40, balance: 60, held: 40, holdState: 'open' });
    const short = await call('POST', `${TRANSACTIONS}/hold`, { token, body: { amount: 61, idempotencyKey: randomUUID() } });
    expect(short.status).toBe(402);
    expect(short.body).toMatchObject({ message: 'Not enough tokens: 60 available, 61 needed', code: 'TOKEN_BALANCE_SHORT' });

    const commitBody = { transactionId: hold.body.id, amount: 25, idempotencyKey: randomUUID() };
    const commit = await call('POST', `${TRANSACTIONS}/commit`, { token, body: commitBody });
    expect(commit.status).toBe(201);
    expect(commit.body).toMatchObject({ type: 'commit', amount: 25, holdId: hold.body.id, balance: 75, held: 0 });
    expect((await call('POST', `${TRANSACTIONS}/commit`, { token, body: commitBody })).body).toEqual(commit.body);
    const late = await call('POST', `${TRANSACTIONS}/void`, { token, body: { transactionId: hold.body.id, idempotencyKey: randomUUID() } });
    expect([late.status, late.body.message, late.body.code]).toEqual([409, 'This hold was already committed', 'TOKEN_HOLD_ENDED']);

    const second = await call('POST', `${TRANSACTIONS}/hold`, { token, body: { amount: 75, idempotencyKey: randomUUID() } });
    const voided = await call('POST', `${TRANSACTIONS}/void`, {
      token,
      body: { transactionId: second.body.id, reason: 'changed my mind', idempotencyKey: randomUUID() },
    });
    expect(voided.body).toMatchObject({ type: 'voided', amount: 75, balance: 75, held: 0, expired: false, reason: 'changed my mind' });
    const noHold = await call('POST', `${TRANSACTIONS}/commit`, {
      token,
      body: { transactionId: randomUUID(), idempotencyKey: randomUUID() },
    });
    expect(noHold.status).toBe(404);
    const noKey = await call('POST', `${TRANSACTIONS}/hold`, { token, body: { amount: 1 } });
    expect(noKey.status).toBe(400);

    expect((await call('GET', `${ACCOUNTS}/self`, { token })).body).toMatchObject({ balance: 75, held: 0, credited: 100, spent: 25 });
    const list = await call('GET', `${TRANSACTIONS}?limit=10`, { token });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(5);
    expect(list.body.transactions.map((t: Json) => [t.type, t.holdState])).toEqual([
      ['voided', null],
      ['hold', 'voided'],
      ['commit', null],
      ['hold', 'committed'],
      ['credit', null],
    ]);
    // An admin disables the account: no more holds (403); enabling it again lets them through.
    expect((await call('PATCH', `${ACCOUNTS}/${account.id}`, { token, body: { status: 'disabled' } })).status).toBe(403);
    expect((await call('PATCH', `${ACCOUNTS}/${account.id}`, { token: admin, body: { status: 'disabled' } })).body.status).toBe('disabled');
    const disabled = await call('POST', `${TRANSACTIONS}/hold`, { token, body: { amount: 1, idempotencyKey: randomUUID() } });
    expect([disabled.status, disabled.body.code]).toEqual([403, 'TOKEN_ACCOUNT_DISABLED']);
    await call('PATCH', `${ACCOUNTS}/${account.id}`, { token: admin, body: { status: 'active' } });
    expect((await call('POST', `${TRANSACTIONS}/hold`, { token, body: { amount: 1, idempotencyKey: randomUUID() } })).status).toBe(201);
  });

  it('documents every status the token paths answer', async () => {
    const doc = (await call('GET', '/api/openapi.json')).body;
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses).sort();
    expect(statuses(`${ACCOUNTS}/self`, 'get')).toEqual(['200', '400', '401', '404', '500']);
    expect(statuses(`${ACCOUNTS}/{accountId}`, 'get')).toEqual(['200', '400', '401', '403', '404', '500']);
    expect(statuses(`${TRANSACTIONS}/hold`, 'post')).toEqual(['201', '400', '401', '402', '403', '404', '409', '413', '415', '500']);
    expect(statuses(`${TRANSACTIONS}/commit`, 'post')).toEqual(['201', '400', '401', '403', '404', '409', '413', '415', '500']);
    expect(statuses(`${TRANSACTIONS}/void`, 'post')).toEqual(['201', '400', '401', '403', '404', '409', '413', '415', '500']);
  });
});
