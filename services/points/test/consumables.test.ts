import { randomUUID } from 'node:crypto';
import { ConsumablePurchased } from '@spinroom/contracts/events/v1/points_events';
import { AppError, dropDatabase, openServiceDatabase, type MikroORM } from '@spinroom/platform';
import { outcome, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgConsumableStore } from '../src/db/consumable-store.js';
import { ledgerRows } from './support.js';
import { pointsDatabase } from '../src/db/database.js';
import { PgTokenStore } from '../src/db/token-store.js';
import { checkFresh, Consumables, purchasePlan, TOKEN_BALANCE_STALE, type RoomEntrance } from '../src/domain/consumables.js';
import { replay } from '../src/domain/ledger.js';
import { Tokens, type Actor } from '../src/domain/tokens.js';

const SERVICE: Actor = { userUuid: 'service:room', role: 'service', kind: 'service' };
const ADMIN: Actor = { userUuid: randomUUID(), role: 'admin', kind: 'user' };
const person = (): Actor => ({ userUuid: randomUUID(), role: 'user', kind: 'user' });
const key = () => randomUUID();
const ROOM = randomUUID();

describe('the purchase rules', () => {
  it('refuses a balance seen before the last change, and only that', () => {
    const lastChange = new Date('2026-11-25T10:00:00.000Z');
    expect(() => checkFresh(lastChange, new Date('2026-11-25T09:59:59.999Z'))).toThrow(TOKEN_BALANCE_STALE);
    expect(() => checkFresh(lastChange, lastChange)).not.toThrow();
    expect(() => checkFresh(lastChange, new Date('2026-11-25T10:00:01Z'))).not.toThrow();
    expect(() => checkFresh(lastChange, null)).not.toThrow();
  });

  it('plans a hold of the cost and its commit of all of it', () => {
    const now = new Date('2026-11-25T10:00:00Z');
    const plan = purchasePlan(30, null, ROOM, 'c1', now);
    const account = {
      id: 'a',
      userUuid: 'u',
      status: 'active' as const,
      credited: 100,
      spent: 0,
      held: 0,
      balance: 100,
      createdAt: now,
      updatedAt: now,
    };
    const hold = plan.hold(account, now);
    expect(hold.entry).toMatchObject({ type: 'hold', amount: 30, reference: `consumable:c1:room:${ROOM}` });
    const commit = plan.commit(
      { ...account, ...hold.totals },
      { id: 'h', accountId: 'a', amount: 30, expiresAt: hold.entry.expiresAt!, state: 'open' },
    );
    expect(commit).toMatchObject({ entry: { type: 'commit', amount: 30, holdId: 'h' }, totals: { credited: 100, spent: 30, held: 0 } });
    expect(() => plan.hold({ ...account, credited: 29, balance: 29 }, now)).toThrow('Not enough tokens: 29 available, 30 needed');
    expect(() => purchasePlan(30, new Date(now.getTime() - 1), ROOM, 'c1', now).hold(account, now)).toThrow(TOKEN_BALANCE_STALE);
  });
});

describe('consumables and their purchases on PostgreSQL', () => {
  const databaseUrl = uniqueDatabaseUrl('points_consumables');
  let orm: MikroORM;
  let tokens: Tokens;
  let consumables: Consumables;
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  /** `${roomUuid}/${userUuid}` of the buyers removed from a room (the room service's answer). */
  const removed = new Set<string>();
  const rooms: RoomEntrance = {
    standing: async (roomUuid, userUuid) => {
      const banned = removed.has(`${roomUuid}/${userUuid}`);
      return { removed: banned, message: banned ? 'You are banned from this room' : '' };
    },
  };

  beforeAll(async () => {
    orm = await openServiceDatabase('points', databaseUrl, pointsDatabase);
    const ledger = new PgTokenStore(orm);
    tokens = new Tokens(ledger, { holdTtlSeconds: 600, maxHoldTtlSeconds: 86_400 }, now);
    consumables = new Consumables(new PgConsumableStore(orm), ledger, rooms, now);
  });
  afterAll(async () => {
    await orm.close();
    await dropDatabase(databaseUrl);
  });

  async function funded(amount: number): Promise<{ owner: Actor; accountId: string }> {
    const owner = person();
    const { account } = await tokens.createAccount(owner);
    if (amount > 0) await tokens.credit(SERVICE, { accountId: account.id, amount, reason: 'test', idempotencyKey: key() });
    return { owner, accountId: account.id };
  }

  const item = (tokenCost: number) =>
    consumables.create(ADMIN, { name: `Confetti ${tokenCost}`, description: '', tokenCost, displayType: 'small' });

  async function replayed(accountId: string) {
    return replay(await ledgerRows(orm, accountId));
  }

  it('lets admins create, change and delete consumables and anyone list, count and read them', async () => {
    const user = person();
    expect(await outcome(consumables.create(user, { name: 'x', description: '', tokenCost: 5, displayType: 'cover' }))).toBe(
      '403 Only admins may create consumables',
    );
    expect(await outcome(consumables.create(ADMIN, { name: 'x', description: '', tokenCost: 0, displayType: 'cover' }))).toBe(
      '400 tokenCost must be a whole number of tokens from 1 to 1000000000',
    );
    const before = await consumables.count();
    const cover = await consumables.create(ADMIN, { name: 'Spotlight', description: 'A big one', tokenCost: 50, displayType: 'cover' });
    offsetMs += 10;
    const small = await item(5);
    expect(cover).toMatchObject({ name: 'Spotlight', tokenCost: 50, displayType: 'cover' });
    expect(await consumables.count()).toBe(before + 2);
    expect(await consumables.get(cover.id)).toEqual(cover);
    expect((await consumables.list({ ids: [cover.id, small.id], orderBy: 'tokenCost', offset: 0, limit: 10 })).map((c) => c.id)).toEqual([
      small.id,
      cover.id,
    ]);
    expect((await consumables.list({ ids: [cover.id, small.id], orderBy: '-createdAt', offset: 0, limit: 1 })).map((c) => c.id)).toEqual([
      small.id,
    ]);
    expect(
      (
        await consumables.list({ ids: [cover.id, small.id], createdBefore: small.createdAt, orderBy: 'createdAt', offset: 0, limit: 10 })
      ).map((c) => c.id),
    ).toEqual([cover.id]);
    expect(await outcome(consumables.patch(user, cover.id, { tokenCost: 1 }))).toBe('403 Only admins may change consumables');
    expect(await consumables.patch(ADMIN, cover.id, { tokenCost: 60, displayType: 'small' })).toMatchObject({
      name: 'Spotlight',
      tokenCost: 60,
      displayType: 'small',
    });
    expect(await outcome(consumables.delete(user, cover.id))).toBe('403 Only admins may delete consumables');
    await consumables.delete(ADMIN, cover.id);
    expect(await outcome(consumables.get(cover.id))).toBe('404 Consumable not found');
    expect(await outcome(consumables.delete(ADMIN, cover.id))).toBe('404 Consumable not found');
    expect(await consumables.count()).toBe(before + 1);
  });

  it('spends the cost in one transaction, answers lastTokenBalance, records the purchase and repeats by key', async () => {
    const { owner, accountId } = await funded(100);
    const consumable = await item(30);
    const request = { roomUuid: ROOM, consumableId: consumable.id, idempotencyKey: key() };
    const { purchase, replayed: again } = await consumables.purchase(owner, request);
    expect(again).toBe(false);
    expect(purchase).toMatchObject({
      accountId,
      userUuid: owner.userUuid,
      consumableId: consumable.id,
      roomUuid: ROOM,
      tokenCost: 30,
      lastTokenBalance: 70,
    });
    const repeat = await consumables.purchase(owner, request);
    expect(repeat).toEqual({ purchase, replayed: true });
    expect(await outcome(consumables.purchase(owner, { ...request, roomUuid: randomUUID() }))).toMatch(/^409 This idempotency key/);
    expect(await tokens.account(owner, accountId)).toMatchObject({ balance: 70, spent: 30, held: 0 });
    const [row] = await orm.em
      .fork()
      .execute<Array<{ n: string }>>(`select count(*) as "n" from "consumable_purchase" where "account_id" = ?`, [accountId]);
    expect(Number(row!.n)).toBe(1);
    const dear = { ...request, consumableId: (await item(71)).id, idempotencyKey: key() };
    expect(await outcome(consumables.purchase(owner, dear))).toBe('402 Not enough tokens: 70 available, 71 needed');
    // The refusal is the key's answer: a late copy of that request buys nothing once the balance has grown.
    await tokens.credit(SERVICE, { accountId, amount: 1, reason: 'test', idempotencyKey: key() });
    expect(await outcome(consumables.purchase(owner, dear))).toBe('402 Not enough tokens: 70 available, 71 needed');
    expect(await outcome(consumables.purchase(person(), { ...request, idempotencyKey: key() }))).toBe(
      '404 We were unable to find your token account. Please try again.',
    );
    const stranger = await funded(100);
    expect(await outcome(consumables.purchase(stranger.owner, { ...request, accountId, idempotencyKey: key() }))).toBe(
      '403 You may only buy with your own token account',
    );
    expect(await outcome(consumables.purchase(owner, { ...request, consumableId: randomUUID(), idempotencyKey: key() }))).toBe(
      '404 Consumable not found',
    );
    // Banned from the room: nobody there would see it, so nothing is charged.
    const elsewhere = randomUUID();
    removed.add(`${elsewhere}/${owner.userUuid}`);
    expect(await outcome(consumables.purchase(owner, { ...request, roomUuid: elsewhere, idempotencyKey: key() }))).toBe(
      '403 You are banned from this room',
    );
    expect(await tokens.account(owner, accountId)).toMatchObject({ balance: 71, spent: 30 });
    expect((await replayed(accountId)).problems).toEqual([]);
    // One event announces it (the room's chat shows it), written with the purchase: none for the repeat or the refusals.
    const staged = await orm.em
      .fork()
      .execute<Array<{ key: string; payload: Buffer }>>(`select "key", "payload" from "outbox_message" where "topic" = 'points-events'`);
    const mine = staged
      .map((r) => ({ key: r.key, event: ConsumablePurchased.decode(r.payload) }))
      .filter((e) => e.event.userUuid === owner.userUuid);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.key).toBe(ROOM);
    expect(mine[0]!.event).toMatchObject({
      metadata: { eventType: 'points.consumable-purchased' },
      purchaseId: purchase.id,
      roomUuid: ROOM,
      accountId,
      consumable: { id: consumable.id, name: consumable.name, tokenCost: 30, displayType: consumable.displayType },
    });
  });

  it('refuses a stale balanceUnmodifiedSince and charges nothing; a fresh one buys', async () => {
    const { owner, accountId } = await funded(100);
    const consumable = await item(10);
    const seen = await tokens.account(owner, accountId);
    offsetMs += 5;
    await tokens.credit(SERVICE, { accountId, amount: 1, idempotencyKey: key() }); // the balance changes after it was seen
    expect(
      await outcome(
        consumables.purchase(owner, {
          roomUuid: ROOM,
          consumableId: consumable.id,
          balanceUnmodifiedSince: seen.updatedAt,
          idempotencyKey: key(),
        }),
      ),
    ).toBe(`409 ${TOKEN_BALANCE_STALE}`);
    const after = await tokens.account(owner, accountId);
    expect(after).toMatchObject({ balance: 101, spent: 0, held: 0 });
    const { total } = await tokens.transactions(owner, accountId, { limit: 10, offset: 0 });
    expect(total).toBe(2); // the two credits: nothing was held or spent
    const { purchase } = await consumables.purchase(owner, {
      roomUuid: ROOM,
      consumableId: consumable.id,
      balanceUnmodifiedSince: after.updatedAt,
      idempotencyKey: key(),
    });
    expect(purchase.lastTokenBalance).toBe(91);
  });

  it('lets N parallel purchases of price a against a balance B succeed exactly floor(B / a) times, the ledger replaying to the balance', async () => {
    const B = 500;
    const a = 7;
    const N = 120;
    const { owner, accountId } = await funded(B);
    const consumable = await item(a);
    const results = await Promise.all(
      Array.from({ length: N }, async () => {
        try {
          await consumables.purchase(owner, { roomUuid: ROOM, consumableId: consumable.id, idempotencyKey: key() });
          return 'bought';
        } catch (error) {
          if (error instanceof AppError && error.status === 402) return 'short';
          throw error;
        }
      }),
    );
    expect(results.filter((r) => r === 'bought')).toHaveLength(Math.floor(B / a));
    expect(results.filter((r) => r === 'short')).toHaveLength(N - Math.floor(B / a));
    const account = await tokens.account(owner, accountId);
    expect(account).toMatchObject({ balance: B % a, spent: B - (B % a), held: 0 });
    const ledger = await replayed(accountId);
    expect(ledger.problems).toEqual([]);
    expect(ledger.totals).toEqual({ credited: B, spent: B - (B % a), held: 0 });
    const [row] = await orm.em
      .fork()
      .execute<Array<{ n: string; min: string }>>(
        `select count(*) as "n", min("last_token_balance") as "min" from "consumable_purchase" where "account_id" = ?`,
        [accountId],
      );
    expect(Number(row!.n)).toBe(Math.floor(B / a));
    expect(Number(row!.min)).toBe(B % a);
  }, 120_000);
});
