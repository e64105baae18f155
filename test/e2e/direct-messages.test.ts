import { randomUUID } from 'node:crypto';
import { NotificationRequested } from '@spinroom/contracts/events/v1/notifications';
import { eventually } from '@spinroom/platform/testing';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freshEmail, usePlatform, useTopic } from '../support/platform.js';

type Json = any;

// Direct messages through the BFF: CometChat v3's user-to-user paths
// (ORIGINAL-API.md, Chat; services/chat/README.md, Direct messages).
describe('direct messages under /chat', () => {
  const { call, platform } = usePlatform();
  const notifications = useTopic('notifications');

  const signUp = async (nickname: string) => {
    const { body } = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: freshEmail(), password: 'correct horse battery', nickname },
    });
    const token = (await call('GET', '/api/user-service/comet-chat/user-token', { token: body.accessToken })).body.cometAuthToken as string;
    return { uuid: body.userUuid as string, accessToken: body.accessToken as string, chatToken: token, nickname };
  };
  const chat = (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
    call(method, `/chat${path}`, { body, headers: { appid: 'spinroom', authtoken: token, ...headers } });
  const dm = (to: string, message: string, chatMessage: Record<string, unknown> = {}) => ({
    type: 'text',
    receiverType: 'user',
    category: 'message',
    receiver: to,
    data: { text: message, metadata: { chatMessage: { message, ...chatMessage } } },
  });
  const send = async (from: { chatToken: string }, to: { uuid: string }, message: string) => {
    const { status, body } = await chat('POST', '/v3.0/messages', from.chatToken, dm(to.uuid, message));
    expect(status, JSON.stringify(body)).toBe(200);
    return body.data;
  };
  const texts = (list: Json[]) => list.map((m) => m.data.text);

  it("sends a direct message as the token's user and reads it back from both sides, by every query form", async () => {
    const ann = await signUp('Ann DM');
    const bob = await signUp('Bob DM');
    const sent = await send(ann, bob, 'hi Bob');
    const pair = [ann.uuid, bob.uuid].sort();
    expect(sent).toMatchObject({
      id: expect.stringMatching(/^\d+$/),
      conversationId: `${pair[0]}_user_${pair[1]}`,
      sender: ann.uuid,
      receiver: bob.uuid,
      receiverType: 'user',
      category: 'message',
      type: 'text',
      data: {
        text: 'hi Bob',
        entities: {
          sender: { entity: { uid: ann.uuid, name: 'Ann DM' }, entityType: 'user' },
          receiver: { entity: { uid: bob.uuid, name: 'Bob DM' }, entityType: 'user' },
        },
        metadata: { chatMessage: { message: 'hi Bob', userUuid: ann.uuid, userName: 'Ann DM', id: sent.id } },
      },
      sentAt: expect.any(Number),
    });
    expect(sent).not.toHaveProperty('readAt');
    // Identity is the server's, whatever the client claims.
    const forged = await chat(
      'POST',
      '/v3/messages',
      ann.chatToken,
      dm(bob.uuid, 'me again', { userName: 'Someone Else', userUuid: bob.uuid }),
    );
    expect(forged.body.data.data.metadata.chatMessage).toMatchObject({ userName: 'Ann DM', userUuid: ann.uuid });
    const reply = await send(bob, ann, 'hi Ann');
    expect(Number(reply.id)).toBeGreaterThan(Number(forged.body.data.id));

    // /users/{uid}/messages: with the path user...
    const annReads = await chat('GET', `/v3.0/users/${bob.uuid}/messages?per_page=50`, ann.chatToken);
    expect(annReads.status).toBe(200);
    expect(texts(annReads.body.data)).toEqual(['hi Bob', 'me again', 'hi Ann']);
    expect(annReads.body.meta).toEqual({ current: { limit: 50, count: 3 } });
    // ...or as the original's clients ask, /users/{me}/messages?withUser=<other> (either order).
    const bobReads = await chat('GET', `/v3.0/users/${bob.uuid}/messages?withUser=${ann.uuid}`, bob.chatToken);
    expect(texts(bobReads.body.data)).toEqual(['hi Bob', 'me again', 'hi Ann']);
    expect(texts((await chat('GET', `/v3/users/${ann.uuid}/messages?withUser=${bob.uuid}`, bob.chatToken)).body.data)).toEqual(
      texts(bobReads.body.data),
    );
    // Paging as a room's: id cursors both ways.
    const after = await chat('GET', `/v3.0/users/${bob.uuid}/messages?id=${sent.id}&affix=append`, ann.chatToken);
    expect(texts(after.body.data)).toEqual(['me again', 'hi Ann']);
    const before = await chat('GET', `/v3.0/users/${bob.uuid}/messages?id=${reply.id}&per_page=1`, ann.chatToken);
    expect(texts(before.body.data)).toEqual(['me again']);

    // GET /messages?receiverType=user&sender=...: one sender's messages in the caller's conversations.
    const carl = await signUp('Carl DM');
    await send(carl, ann, 'hi from Carl');
    const fromBob = await chat('GET', `/v3.0/messages?receiverType=user&sender=${bob.uuid}`, ann.chatToken);
    expect(fromBob.status).toBe(200);
    expect(texts(fromBob.body.data)).toEqual(['hi Ann']);
    const all = await chat('GET', '/v3.0/messages?receiverType=user&limit=10', ann.chatToken);
    expect(texts(all.body.data)).toEqual(['hi Bob', 'me again', 'hi Ann', 'hi from Carl']);
    expect(all.body.meta.current).toEqual({ limit: 10, count: 4 });
    const own = await chat('GET', `/v3.0/messages?receiverType=user&sender=${ann.uuid}`, ann.chatToken);
    expect(texts(own.body.data)).toEqual(['hi Bob', 'me again']);
    // Carl sees nothing of Ann and Bob's.
    expect(texts((await chat('GET', `/v3.0/messages?receiverType=user&sender=${bob.uuid}`, carl.chatToken)).body.data)).toEqual([]);
    const groups = await chat('GET', '/v3.0/messages?receiverType=group', ann.chatToken);
    expect(groups.status).toBe(400);
    expect(groups.body.error.code).toBe('ERR_BAD_REQUEST');
  });

  it('lists conversations newest first with their last message and unread counts, and marks them read', async () => {
    const ann = await signUp('Ann Conv');
    const bob = await signUp('Bob Conv');
    const carl = await signUp('Carl Conv');
    const b1 = await send(bob, ann, 'one');
    const b2 = await send(bob, ann, 'two');
    await send(bob, ann, 'three');
    await send(ann, bob, 'back');
    await send(carl, ann, 'from carl');

    const listed = await chat('GET', `/v3.0/users/${ann.uuid}/conversations?conversationType=user`, ann.chatToken);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((c: Json) => [c.conversationWith.uid, c.unreadMessageCount, c.lastMessage.data.text])).toEqual([
      [carl.uuid, 1, 'from carl'],
      [bob.uuid, 3, 'back'],
    ]);
    expect(listed.body.data[1]).toMatchObject({
      conversationId: [ann.uuid, bob.uuid].sort().join('_user_'),
      conversationType: 'user',
      createdAt: b1.sentAt,
      conversationWith: { uid: bob.uuid, name: 'Bob Conv', avatar: expect.any(String), status: 'online' },
    });
    expect(listed.body.meta).toEqual({ pagination: { total: 2, count: 2, per_page: 30, current_page: 1, total_pages: 1 } });
    const page2 = await chat('GET', `/v3.0/users/${ann.uuid}/conversations?perPage=1&page=2`, ann.chatToken);
    expect(page2.body.data.map((c: Json) => c.conversationWith.uid)).toEqual([bob.uuid]);
    expect(page2.body.meta.pagination).toEqual({ total: 2, count: 1, per_page: 1, current_page: 2, total_pages: 2 });
    // Bob's side: Ann's one message is unread for him.
    const bobs = await chat('GET', `/v3/users/${bob.uuid}/conversation`, ann.chatToken);
    expect(bobs.body.data).toMatchObject({ unreadMessageCount: 3, conversationWith: { uid: bob.uuid } });
    expect((await chat('GET', `/v3/users/${ann.uuid}/conversation`, bob.chatToken)).body.data.unreadMessageCount).toBe(1);
    // Unread messages, then read up to Bob's second, then all.
    const unread = await chat('GET', `/v3.0/users/${bob.uuid}/messages?unread=true`, ann.chatToken);
    expect(texts(unread.body.data)).toEqual(['one', 'two', 'three']);
    const upTo = await chat('POST', `/v3/users/${bob.uuid}/conversation/read`, ann.chatToken, { messageId: b2.id });
    expect(upTo.status).toBe(200);
    expect(upTo.body.data).toMatchObject({ success: true, count: 2, readAt: expect.any(Number) });
    expect((await chat('GET', `/v3/users/${bob.uuid}/conversation`, ann.chatToken)).body.data.unreadMessageCount).toBe(1);
    // Bob sees which of his Ann read.
    const seen = await chat('GET', `/v3.0/users/${ann.uuid}/messages`, bob.chatToken);
    expect(seen.body.data.map((m: Json) => [m.data.text, typeof m.readAt])).toEqual([
      ['one', 'number'],
      ['two', 'number'],
      ['three', 'undefined'],
      ['back', 'undefined'],
    ]);
    const rest = await chat('POST', `/v3.0/users/${bob.uuid}/conversation/read`, ann.chatToken);
    expect(rest.body.data).toMatchObject({ success: true, count: 1 });
    expect((await chat('POST', `/v3.0/users/${bob.uuid}/conversation/read`, ann.chatToken, {})).body.data.count).toBe(0);
    const onlyUnread = await chat('GET', `/v3.0/users/${ann.uuid}/conversations?unread=true`, ann.chatToken);
    expect(onlyUnread.body.data.map((c: Json) => c.conversationWith.uid)).toEqual([carl.uuid]);
    // Rooms keep no conversations.
    const rooms = await chat('GET', `/v3.0/users/${ann.uuid}/conversations?conversationType=group`, ann.chatToken);
    expect(rooms.body).toEqual({ data: [], meta: { pagination: { total: 0, count: 0, per_page: 30, current_page: 1, total_pages: 0 } } });
  });

  it('refuses what is not a direct message between two users', async () => {
    const ann = await signUp('Ann Refused');
    const bob = await signUp('Bob Refused');
    const expectError = (answer: { status: number; body: Json }, status: number, code: string) => {
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      expect(answer.body).toMatchObject({ error: { code, message: expect.any(String) } });
    };
    expectError(await chat('POST', '/v3.0/messages', ann.chatToken, dm(ann.uuid, 'me')), 400, 'ERR_BAD_REQUEST');
    expectError(await chat('POST', '/v3.0/messages', ann.chatToken, dm(randomUUID(), 'nobody')), 404, 'ERR_UID_NOT_FOUND');
    expectError(await chat('POST', '/v3.0/messages', ann.chatToken, dm(bob.uuid, 'x'.repeat(2001))), 400, 'ERR_TEXT_TOO_LONG');
    expectError(await chat('POST', '/v3.0/messages', ann.chatToken, dm(bob.uuid, 'notice', { type: 'room' })), 400, 'ERR_BAD_REQUEST');
    const guest = (await call('GET', '/api/user-service/auth/guest')).body;
    const guestChat = (await call('GET', '/api/user-service/comet-chat/user-token', { token: guest.accessToken })).body.cometAuthToken;
    expectError(await chat('POST', '/v3.0/messages', guestChat, dm(bob.uuid, 'hi')), 403, 'ERR_NOT_ALLOWED');

    await send(ann, bob, 'private');
    const carl = await signUp('Carl Refused');
    // Another pair's conversation, or another user's conversation list.
    expectError(await chat('GET', `/v3.0/users/${ann.uuid}/messages?withUser=${bob.uuid}`, carl.chatToken), 403, 'ERR_NOT_ALLOWED');
    expectError(await chat('GET', `/v3.0/users/${ann.uuid}/conversations`, carl.chatToken), 403, 'ERR_NOT_ALLOWED');
    expectError(await chat('GET', `/v3.0/users/${randomUUID()}/messages`, carl.chatToken), 404, 'ERR_UID_NOT_FOUND');
    expectError(await chat('GET', `/v3.0/users/${carl.uuid}/messages`, carl.chatToken), 400, 'ERR_BAD_REQUEST');
    expectError(await chat('GET', `/v3/users/${ann.uuid}/conversation`, carl.chatToken), 404, 'ERR_CONVERSATION_NOT_FOUND');
    expectError(await chat('GET', `/v3/users/${randomUUID()}/conversation`, carl.chatToken), 404, 'ERR_UID_NOT_FOUND');
    // Carl's "read" of Ann's messages touches nothing of Bob's.
    expect((await chat('POST', `/v3/users/${ann.uuid}/conversation/read`, carl.chatToken)).body.data.count).toBe(0);
    expect((await chat('GET', `/v3/users/${ann.uuid}/conversation`, bob.chatToken)).body.data.unreadMessageCount).toBe(1);
    // Malformed queries and bodies are 400s at the BFF.
    for (const query of ['per_page=0', 'per_page=301', 'id=abc', 'affix=sideways', 'unread=maybe', 'fromTimestamp=-1']) {
      expect((await chat('GET', `/v3.0/users/${bob.uuid}/messages?${query}`, ann.chatToken)).status, query).toBe(400);
    }
    expect((await chat('GET', `/v3.0/users/${ann.uuid}/conversations?perPage=51`, ann.chatToken)).status).toBe(400);
    expect((await chat('GET', `/v3.0/users/${ann.uuid}/conversations?conversationType=room`, ann.chatToken)).status).toBe(400);
    expect((await chat('GET', '/v3.0/messages?receiverType=room', ann.chatToken)).status).toBe(400);
    expectError(await chat('POST', `/v3/users/${bob.uuid}/conversation/read`, ann.chatToken, { messageId: 'x' }), 400, 'ERR_BAD_REQUEST');
  });

  it('tells someone offline of a direct message through the notifications topic, in its transaction, and no one online', async () => {
    const ann = await signUp('Ann Notified');
    const bob = await signUp('Bob Notified');
    const carl = await signUp('Carl Notified');
    // Bob has made no chat call yet: offline.
    const first = await send(ann, bob, 'are you there?');
    const told = await eventually(async () => notifications.find((m) => m.key === bob.uuid), 60_000);
    expect(told.headers['event-type']).toBe('notification.requested');
    expect(NotificationRequested.decode(told.value)).toMatchObject({
      recipientUserUuid: bob.uuid,
      kind: 'directMessage',
      title: 'Ann Notified',
      body: 'are you there?',
      data: { type: 'directMessage', messageId: first.id, senderUuid: ann.uuid, conversationId: first.conversationId },
      silent: false,
    });
    // Bob polls (any chat call): online, so the next message is not pushed; Carl, offline, is told of his.
    expect((await chat('GET', '/v3.0/me', bob.chatToken)).status).toBe(200);
    const second = await send(ann, bob, 'ah, you are');
    const toCarl = await send(ann, carl, 'and you?');
    await eventually(async () => notifications.find((m) => m.key === carl.uuid), 60_000);
    const db = new pg.Client({ connectionString: platform().chat.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ key: string; payload: Buffer }>(
        `select "key", "payload" from "outbox_message" where "topic" = 'notifications' and "key" = any($1) order by "seq"`,
        [[bob.uuid, carl.uuid]],
      );
      expect(rows.map((r) => [r.key, NotificationRequested.decode(r.payload).data.messageId])).toEqual([
        [bob.uuid, first.id],
        [carl.uuid, toCarl.id],
      ]);
      expect(rows.map((r) => NotificationRequested.decode(r.payload).data.messageId)).not.toContain(second.id);
    } finally {
      await db.end();
    }
  });
});
