// Paid rooms (issue 16) through the room feed: a room's entryFee is held from
// the joiner's token account past their freeEntries, committed and credited
// to the owner when the join succeeds, voided when it fails, once per user per
// room; the owner, moderators and admins never pay; guests cannot enter past
// the free entries; a short balance and a missing account are clear, coded
// refusals of joinRoom; a retried join never charges twice.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '@spinroom/platform/testing';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';

type Json = any;
const ROOMS = '/api/room-service';
const MERCH = '/api/merch-service/api/v1';
const MISSING = 'We were unable to find your token account. Please try again.';

/** A raw WebSocket to the feed: the published client hands only the error text on, the code rides beside it. */
async function rawJoin(url: string, token: string, roomUuid: string): Promise<Json> {
  const { WebSocket } = await import('ws');
  const ws = new WebSocket(`${url.replace('http', 'ws')}/primus?_primuscb=x&token=${token}`);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const answer = new Promise<Json>((resolve) => {
    ws.on('message', (data) => {
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- ws's default binaryType 'nodebuffer' always delivers a Buffer
      const message = JSON.parse(data.toString());
      if (message?.context === 'response' && message.messageId === 1) resolve(message);
    });
  });
  ws.send(JSON.stringify({ event: 'action', messageId: 1, params: { action: 'joinRoom', roomUuid } }));
  const result = await answer;
  ws.close();
  return result;
}

describe('paid rooms: the entry fee through the feed and the token ledger', () => {
  const { call, platform } = usePlatform();
  const open: FeedListener[] = [];
  afterEach(() => {
    for (const listener of open.splice(0)) listener.close();
  });

  const person = async () => {
    const body = (
      await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery' } })
    ).body;
    return { token: body.accessToken as string, uuid: body.userUuid as string };
  };
  /** A person with a token account holding `tokens`. */
  const holder = async (tokens: number) => {
    const who = await person();
    expect((await call('POST', `${MERCH}/token-accounts`, { token: who.token })).status).toBe(201);
    if (tokens > 0) {
      const credit = { userUuid: who.uuid, amount: tokens, idempotencyKey: randomUUID() };
      expect((await call('POST', `${MERCH}/token-transactions/credit`, { token: await signedToken('admin'), body: credit })).status).toBe(
        201,
      );
    }
    return who;
  };
  const balance = async (who: { token: string }) => (await call('GET', `${MERCH}/token-accounts/self`, { token: who.token })).body;
  const room = async (owner: { token: string }, body: Record<string, unknown>) => {
    const created = await call('POST', `${ROOMS}/rooms/infrastructure`, {
      token: owner.token,
      body: { name: `Paid ${randomUUID().slice(0, 8)}`, ...body },
    });
    expect(created.status).toBe(201);
    return created.body as { uuid: string; slug: string; entryFee: number; freeEntries: number };
  };
  const join = async (who: { token: string; uuid: string }, roomUuid: string) => {
    const listener = await FeedListener.join(platform().baseUrl, who.token, who.uuid, roomUuid);
    open.push(listener);
    return listener;
  };
  /** Leaves on purpose and waits until the room no longer has them (the next join is a new entry). */
  const leave = async (listener: FeedListener, slug: string, viewer: { token: string }) => {
    listener.close();
    open.splice(open.indexOf(listener), 1);
    await eventually(async () => {
      const seen = (await call('GET', `${ROOMS}/rooms/${slug}`, { token: viewer.token })).body;
      return (seen.usersInRoomUuids as string[]).includes(listener.userUuid) ? undefined : true;
    });
  };
  const transactions = async (who: { token: string }) =>
    ((await call('GET', `${MERCH}/token-transactions?limit=50`, { token: who.token })).body.transactions as Json[])
      .map((t) => t.type)
      .sort();

  it('lets the free entries in free, then holds the fee and commits it to the owner once; a paid user enters free again', async () => {
    const owner = await holder(0);
    const alice = await holder(50);
    const { uuid, slug, entryFee, freeEntries } = await room(owner, { entryFee: 30, freeEntries: 1 });
    expect([entryFee, freeEntries]).toEqual([30, 1]);

    // The first entry is free.
    await leave(await join(alice, uuid), slug, owner);
    expect(await balance(alice)).toMatchObject({ balance: 50, held: 0, spent: 0 });

    // The second is charged: held, committed, and credited to the owner.
    const inside = await join(alice, uuid);
    expect(inside.state.allUsers.map((u: Json) => u.uuid)).toContain(alice.uuid);
    expect(inside.state.settings).toMatchObject({ entryFee: 30, freeEntries: 1 });
    expect(await balance(alice)).toMatchObject({ balance: 20, held: 0, spent: 30 });
    expect(await balance(owner)).toMatchObject({ balance: 30, credited: 30 });
    expect(await transactions(alice)).toEqual(['commit', 'credit', 'hold']);

    // A reconnect while still there is no new entry; leaving and coming back is free: she paid.
    const again = await join(alice, uuid);
    inside.close();
    open.splice(open.indexOf(inside), 1);
    await leave(again, slug, owner);
    await leave(await join(alice, uuid), slug, owner);
    expect(await balance(alice)).toMatchObject({ balance: 20, spent: 30 });
    expect(await balance(owner)).toMatchObject({ balance: 30, credited: 30 });

    const db = new pg.Client({ connectionString: platform().room.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query(
        `select "entries", "fee_paid", "paid_at" is not null as "paid" from "room_entry" where "user_uuid" = $1`,
        [alice.uuid],
      );
      expect(rows).toEqual([{ entries: 3, fee_paid: 30, paid: true }]);
    } finally {
      await db.end();
    }
  });

  it('refuses joinRoom with a coded error when the balance is short or there is no token account, charging nothing; topped up, it pays', async () => {
    const owner = await holder(0);
    const bob = await holder(10);
    const { uuid } = await room(owner, { entryFee: 30, freeEntries: 0 });
    expect(await rawJoin(platform().baseUrl, bob.token, uuid)).toEqual({
      context: 'response',
      messageId: 1,
      error: 'Not enough tokens to enter this room: 30 needed',
      code: 'ROOM_ENTRY_FEE_SHORT',
    });
    await expect(join(bob, uuid)).rejects.toBe('Not enough tokens to enter this room: 30 needed');
    expect(await balance(bob)).toMatchObject({ balance: 10, held: 0, spent: 0 });
    expect(await transactions(bob)).toEqual(['credit']);
    // Topped up, the next join pays (the refused holds' keys keep their refusal in the ledger).
    const topUp = { userUuid: bob.uuid, amount: 20, idempotencyKey: randomUUID() };
    expect((await call('POST', `${MERCH}/token-transactions/credit`, { token: await signedToken('admin'), body: topUp })).status).toBe(201);
    await join(bob, uuid);
    expect(await balance(bob)).toMatchObject({ balance: 0, held: 0, spent: 30 });
    expect(await balance(owner)).toMatchObject({ balance: 30, credited: 30 });

    // Someone the ledger has no account for (a user the points service never heard of).
    const stranger = await signedToken('user');
    expect(await rawJoin(platform().baseUrl, stranger, uuid)).toEqual({
      context: 'response',
      messageId: 1,
      error: MISSING,
      code: 'TOKEN_ACCOUNT_MISSING',
    });
    expect(await balance(owner)).toMatchObject({ balance: 30, credited: 30 });
  });

  it('never charges the owner, a moderator or an admin, and keeps guests out past the free entries', async () => {
    const owner = await holder(0);
    const moderator = await holder(0);
    const { uuid, slug } = await room(owner, { entryFee: 25, freeEntries: 1 });
    const granted = await call('POST', `${ROOMS}/roomUserRoles/${slug}`, {
      token: owner.token,
      body: { userUuid: moderator.uuid, role: 'moderator' },
    });
    expect(granted.status).toBe(201);
    await leave(await join(owner, uuid), slug, owner);
    await leave(await join(owner, uuid), slug, owner);
    await leave(await join(moderator, uuid), slug, owner);
    await leave(await join(moderator, uuid), slug, owner);
    const someone = await holder(0);
    const admin = { token: await signedToken('admin', someone.uuid), uuid: someone.uuid };
    await leave(await join(admin, uuid), slug, owner);
    await leave(await join(admin, uuid), slug, owner);
    expect(await balance(owner)).toMatchObject({ balance: 0, credited: 0 });
    expect(await balance(moderator)).toMatchObject({ balance: 0, spent: 0 });

    const guestBody = (await call('GET', '/api/user-service/auth/guest')).body;
    const guest = { token: guestBody.accessToken as string, uuid: guestBody.userUuid as string };
    await leave(await join(guest, uuid), slug, owner);
    expect(await rawJoin(platform().baseUrl, guest.token, uuid)).toEqual({
      context: 'response',
      messageId: 1,
      error: 'Guests cannot enter a paid room: sign up to enter it',
      code: 'ROOM_ENTRY_FEE_GUEST',
    });
  });

  it('voids the hold when the join fails after it (the room is full)', async () => {
    const owner = await holder(0);
    const carol = await holder(50);
    const { uuid } = await room(owner, { entryFee: 30, freeEntries: 0, roomSize: 1 });
    await join(owner, uuid);
    await expect(join(carol, uuid)).rejects.toBe('This room is full. Try again when someone leaves.');
    expect(await balance(carol)).toMatchObject({ balance: 50, held: 0, spent: 0 });
    expect(await transactions(carol)).toEqual(['credit', 'hold', 'voided']);
    expect(await balance(owner)).toMatchObject({ credited: 0 });
  });

  it('charges once for joins at the same time, and a join retried after a lost record replays the same charge', async () => {
    const owner = await holder(0);
    const erin = await holder(100);
    const { uuid, slug } = await room(owner, { entryFee: 40, freeEntries: 0 });
    const both = await Promise.all([join(erin, uuid), join(erin, uuid), join(erin, uuid)]);
    expect(await balance(erin)).toMatchObject({ balance: 60, spent: 40, held: 0 });
    expect(await balance(owner)).toMatchObject({ credited: 40 });
    for (const listener of both) listener.close();
    open.splice(0);
    await eventually(async () => {
      const seen = (await call('GET', `${ROOMS}/rooms/${slug}`, { token: owner.token })).body;
      return (seen.usersInRoomUuids as string[]).includes(erin.uuid) ? undefined : true;
    });

    // As if the room service had crashed after the ledger's writes but before recording the payment:
    // the next join derives the same keys, so the ledger answers the first hold, commit and credit again.
    const db = new pg.Client({ connectionString: platform().room.databaseUrl });
    await db.connect();
    try {
      await db.query(`update "room_entry" set "paid_at" = null, "fee_paid" = null where "user_uuid" = $1`, [erin.uuid]);
      await join(erin, uuid);
      expect(await balance(erin)).toMatchObject({ balance: 60, spent: 40, held: 0 });
      expect(await balance(owner)).toMatchObject({ credited: 40 });
      const { rows } = await db.query(`select "paid_at" is not null as "paid" from "room_entry" where "user_uuid" = $1`, [erin.uuid]);
      expect(rows).toEqual([{ paid: true }]);
    } finally {
      await db.end();
    }
    expect(await transactions(erin)).toEqual(['commit', 'credit', 'hold']);
  });
});
