// Consumables, token bundles and consumable purchases through the BFF (issue
// 16): 401 without a token, 403 for a user writing, success for an admin;
// anyone signed in reads; a purchase spends the tokenCost from the caller's
// account, answers lastTokenBalance, refuses a stale balanceUnmodifiedSince
// (charging nothing), a short balance and a caller without an account. A
// purchase in a room is shown in that room's chat, through the feed, once.
import { randomUUID } from 'node:crypto';
import { ConsumablePurchased } from '@spinroom/contracts/events/v1/points_events';
import { createLogger, KafkaClient, newEventMetadata } from '@spinroom/platform';
import { eventually, testInfra } from '@spinroom/platform/testing';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';

type Json = any;

const MERCH = '/api/merch-service/api/v1';
const MISSING = 'We were unable to find your token account. Please try again.';

describe('the token shop through the BFF', () => {
  const { call, platform } = usePlatform();

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
    // Bought for a room that exists (and the buyer was not removed from): the room's chat shows it.
    const room = await call('POST', '/api/room-service/rooms/infrastructure', {
      token: admin,
      body: { name: `Shop ${randomUUID().slice(0, 8)}` },
    });
    expect(room.status).toBe(201);
    const roomUuid = room.body.uuid as string;
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
    expect([stale.status, stale.body.code]).toEqual([409, 'TOKEN_BALANCE_STALE']);
    expect(stale.body.message).toMatch(/balance changed since you last saw it/);
    const after = (await call('GET', `${MERCH}/token-accounts/self`, { token: user })).body;
    expect(after).toMatchObject({ balance: 60, spent: 40, held: 0 });

    expect((await buy(user, { balanceUnmodifiedSince: after.updatedAt })).body.lastTokenBalance).toBe(20);
    const short = await buy(user);
    expect([short.status, short.body.code]).toEqual([402, 'TOKEN_BALANCE_SHORT']);
    expect((await buy(user, { roomUuid: 'nope' })).status).toBe(400);
    const nowhere = await buy(user, { roomUuid: randomUUID() });
    expect([nowhere.status, nowhere.body.message]).toEqual([404, 'Room not found']);
    expect((await call('GET', `${MERCH}/token-accounts/self`, { token: user })).body).toMatchObject({ balance: 20, spent: 80, held: 0 });
  });

  it("shows a purchase in the room's chat to everyone in the room, once, with its consumable", async () => {
    const signUp = async (nickname: string) => {
      const body = (
        await call('POST', '/api/user-service/users/sign-up', {
          body: { email: freshEmail(), password: 'correct horse battery', nickname },
        })
      ).body;
      const chatToken = (await call('GET', '/api/user-service/comet-chat/user-token', { token: body.accessToken })).body.cometAuthToken;
      return { token: body.accessToken as string, uuid: body.userUuid as string, chatToken: chatToken as string };
    };
    const admin = await signedToken('admin');
    const owner = await signUp('Host');
    const buyer = await signUp('Buyer');
    const room = (
      await call('POST', '/api/room-service/rooms/infrastructure', {
        token: owner.token,
        body: { name: `Shop ${randomUUID().slice(0, 8)}` },
      })
    ).body as { uuid: string; slug: string };
    const consumable = (
      await call('POST', `${MERCH}/consumables`, { token: admin, body: { name: 'Confetti cannon', tokenCost: 15, displayType: 'cover' } })
    ).body;
    const account = (await call('POST', `${MERCH}/token-accounts`, { token: buyer.token })).body;
    await call('POST', `${MERCH}/token-transactions/credit`, {
      token: admin,
      body: { accountId: account.id, amount: 100, idempotencyKey: randomUUID() },
    });

    const listeners = [
      await FeedListener.join(platform().baseUrl, owner.token, owner.uuid, room.uuid),
      await FeedListener.join(platform().baseUrl, buyer.token, buyer.uuid, room.uuid),
    ];
    try {
      const key = randomUUID();
      const body = { roomUuid: room.uuid, consumableId: consumable.id, idempotencyKey: key };
      const bought = await call('POST', `${MERCH}/consumable-purchases`, { token: buyer.token, body });
      expect(bought.status).toBe(201);
      // Sent again with its key: the same purchase, no second event.
      expect((await call('POST', `${MERCH}/consumable-purchases`, { token: buyer.token, body })).body).toEqual(bought.body);

      const expected = {
        data: {
          text: 'Confetti cannon',
          metadata: {
            chatMessage: {
              message: 'Confetti cannon',
              userUuid: buyer.uuid,
              userName: 'Buyer',
              type: 'user',
              consumable: { id: consumable.id, name: 'Confetti cannon', tokenCost: 15, displayType: 'cover', purchaseId: bought.body.id },
            },
          },
        },
        sender: buyer.uuid,
        receiver: room.uuid,
      };
      for (const listener of listeners) {
        const pushed = await eventually(async () => listener.named('sentChatMessage')[0], 20_000);
        expect(pushed.message.params.message).toMatchObject(expected);
      }

      // The same purchase announced again (a redelivery under another event id): still one message.
      const kafka = new KafkaClient({
        brokers: testInfra().kafkaBrokers,
        clientId: 'test',
        logger: createLogger('test', { level: 'silent' }),
      });
      const producer = await kafka.producer();
      const metadata = newEventMetadata('points.consumable-purchased');
      const duplicateId = metadata.eventId;
      try {
        const again = ConsumablePurchased.encode({
          metadata,
          purchaseId: bought.body.id,
          roomUuid: room.uuid,
          userUuid: buyer.uuid,
          accountId: account.id,
          consumable: { id: consumable.id, name: 'Confetti cannon', tokenCost: 15, displayType: 'cover' },
          purchasedAt: new Date(),
        }).finish();
        await producer.send([
          {
            topic: 'points-events',
            key: room.uuid,
            value: Buffer.from(again),
            headers: { 'event-id': metadata.eventId, 'event-type': metadata.eventType },
          },
        ]);
      } finally {
        await producer.disconnect();
      }
      // Once the chat has recorded that event as handled, it has made no second message.
      const db = new pg.Client({ connectionString: platform().chat.databaseUrl });
      await db.connect();
      try {
        await eventually(async () => {
          const { rows } = await db.query(`select 1 from "processed_event" where "event_id" = $1`, [duplicateId]);
          return rows.length === 1 ? true : undefined;
        }, 20_000);
      } finally {
        await db.end();
      }
      await new Promise((resolve) => setTimeout(resolve, 300)); // a second push, had there been one, would be here by now
      for (const listener of listeners) {
        expect(
          listener.named('sentChatMessage').filter((m: Json) => m.message.params.message.data.metadata.chatMessage.consumable),
        ).toHaveLength(1);
      }
      const chat = (method: string, path: string, body?: unknown) =>
        call(method, `/chat${path}`, { body, headers: { appid: 'spinroom', authtoken: owner.chatToken } });
      await call('POST', `/api/room-service/roomUserRoles/cometchat/join/${room.slug}`, { token: owner.token });
      const history = (await chat('GET', `/v3/groups/${room.uuid}/messages?per_page=50`)).body.data as Json[];
      expect(
        history.filter((m) => m.data.metadata.chatMessage.consumable).map((m) => m.data.metadata.chatMessage.consumable.purchaseId),
      ).toEqual([bought.body.id]);

      // A client cannot dress its own message up as a purchase: `consumable` is the server's alone.
      const forged = await chat('POST', '/v3.0/messages', {
        type: 'text',
        receiverType: 'group',
        category: 'message',
        receiver: room.uuid,
        data: {
          text: 'free stuff',
          metadata: { chatMessage: { message: 'free stuff', consumable: { id: consumable.id, name: 'Confetti cannon' } } },
        },
      });
      expect(forged.status).toBe(200);
      expect(forged.body.data.data.metadata.chatMessage.consumable).toBeUndefined();
    } finally {
      for (const listener of listeners) listener.close();
    }
  });
});
