import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis, decodeFeedFrame, feedChannel, type Redis } from '@spinroom/platform';
import { eventually } from '@spinroom/platform/testing';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, usePlatform } from '../support/platform.js';

describe('chat: the CometChat v3-compatible API under /chat', () => {
  const { call, platform } = usePlatform();
  let subscriber: Redis;
  const frames: Array<{ channel: string; raw: string }> = [];

  beforeAll(async () => {
    subscriber = createRedis(platform().chat.redisUrl);
    subscriber.on('message', (channel: string, raw: string) => frames.push({ channel, raw }));
  });
  afterAll(async () => {
    subscriber.disconnect();
  });

  const signUp = async (nickname: string) => {
    const { body } = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: freshEmail(), password: 'correct horse battery', nickname },
    });
    const token = (await call('GET', '/api/user-service/comet-chat/user-token', { token: body.accessToken })).body.cometAuthToken as string;
    return { uuid: body.userUuid as string, accessToken: body.accessToken as string, chatToken: token, nickname };
  };
  /** A real room of the room service, owned by `owner`. */
  const newRoom = async (owner: { accessToken: string }) => {
    const { status, body } = await call('POST', '/api/room-service/rooms/infrastructure', {
      token: owner.accessToken,
      body: { name: `Chat ${randomUUID().slice(0, 8)}` },
    });
    expect(status).toBe(201);
    return { uuid: body.uuid as string, slug: body.slug as string };
  };
  const grant = async (owner: { accessToken: string }, slug: string, userUuid: string, role: string, expirationTime?: string) => {
    const { status } = await call('POST', `/api/room-service/roomUserRoles/${slug}`, {
      token: owner.accessToken,
      body: { userUuid, role, expirationTime },
    });
    expect(status).toBe(201);
  };
  const chat = (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
    call(method, `/chat${path}`, { body, headers: { appid: 'spinroom', authtoken: token, ...headers } });
  const text = (room: string, message: string, chatMessage: Record<string, unknown> = {}) => ({
    type: 'text',
    receiverType: 'group',
    category: 'message',
    receiver: room,
    data: { text: message, metadata: { chatMessage: { message, ...chatMessage } } },
  });

  it('trades an access token (guests too) for a chat token, and never takes one for the other', async () => {
    const guest = (await call('GET', '/api/user-service/auth/guest')).body;
    const guestChat = await call('GET', '/api/user-service/comet-chat/user-token', { token: guest.accessToken });
    expect(guestChat.status).toBe(200);
    expect(typeof guestChat.body.cometAuthToken).toBe('string');
    const me = await chat('GET', '/v3.0/me', guestChat.body.cometAuthToken);
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ uid: guest.userUuid, name: expect.stringMatching(/^ghost-/), avatar: 'ghost' });

    const user = await signUp('Token Tester');
    // A chat token is no access token...
    expect((await call('GET', '/api/user-service/auth/session', { token: user.chatToken })).status).toBe(401);
    expect((await call('GET', '/api/user-service/comet-chat/user-token', { token: user.chatToken })).status).toBe(401);
    // ...and an access token opens no chat.
    const refused = await chat('GET', '/v3/me', user.accessToken);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: { code: 'AUTH_ERR_AUTH_TOKEN_NOT_FOUND', message: expect.any(String) } });

    expect((await call('GET', '/chat/v3.0/me', { headers: { authtoken: user.chatToken } })).body.error.code).toBe('AUTH_ERR_EMPTY_APPID');
    expect((await chat('GET', '/v3.0/me', user.chatToken, undefined, { appid: 'other' })).body.error.code).toBe('AUTH_ERR_APPID_NOT_FOUND');
    expect((await call('GET', '/chat/v3.0/me', { headers: { appid: 'spinroom' } })).body.error.code).toBe('AUTH_ERR_EMPTY_AUTH_TOKEN');
    expect((await chat('GET', '/v3.0/me', user.chatToken)).body.data).toMatchObject({ uid: user.uuid, name: 'Token Tester' });
    expect((await chat('GET', '/v3.0/nowhere', user.chatToken)).body.error.code).toBe('ERR_NOT_FOUND');
  });

  it('joins a room group once (417 ERR_ALREADY_JOINED), reads only after joining, leaves', async () => {
    const user = await signUp('Joiner');
    const room = (await newRoom(user)).uuid;
    expect((await chat('POST', `/v3.0/groups/${randomUUID()}/members`, user.chatToken, {})).body.error.code).toBe('ERR_GUID_NOT_FOUND');
    const before = await chat('GET', `/v3.0/groups/${room}/messages?per_page=50`, user.chatToken);
    expect(before.status).toBe(401);
    expect(before.body.error.code).toBe('ERR_GROUP_NOT_JOINED');
    expect((await chat('POST', `/v3.0/groups/${room}/members`, user.chatToken, {})).status).toBe(200);
    const again = await chat('POST', `/v3/groups/${room}/members`, user.chatToken, {});
    expect(again.status).toBe(417);
    expect(again.body.error.code).toBe('ERR_ALREADY_JOINED');
    expect((await chat('GET', `/v3/groups/${room}/messages`, user.chatToken)).body).toMatchObject({ data: [] });

    const other = await signUp('Other');
    expect((await chat('DELETE', `/v3/groups/${room}/members/${user.uuid}`, other.chatToken)).status).toBe(403);
    expect((await chat('DELETE', `/v3/groups/${room}/members/${user.uuid}`, user.chatToken)).status).toBe(200);
    expect((await chat('GET', `/v3/groups/${room}/messages`, user.chatToken)).status).toBe(401);
  });

  it("sends with the server's identity, keeps the text as written, answers id&affix=append without repeats, pushes to the room feed", async () => {
    const dj = await signUp('Real DJ');
    const room = (await newRoom(dj)).uuid;
    await subscriber.subscribe(feedChannel(room));
    await chat('POST', `/v3.0/groups/${room}/members`, dj.chatToken, {});

    const command = '/play   Song  With Spaces ';
    const sent = await chat(
      'POST',
      '/v3.0/messages',
      dj.chatToken,
      text(room, command, {
        userName: 'Not Me',
        userUuid: randomUUID(),
        avatarId: 'forged',
        color: '#000000',
        badges: ['STAFF'],
        mentions: [{ start: 0, userNickname: 'Real DJ', userUuid: dj.uuid }],
        uuid: 'client-temp-1',
      }),
    );
    expect(sent.status).toBe(200);
    const first = sent.body.data;
    expect(first).toMatchObject({
      id: expect.stringMatching(/^\d+$/),
      sender: dj.uuid,
      receiver: room,
      receiverType: 'group',
      type: 'text',
      category: 'message',
      data: {
        text: command,
        entities: { sender: { entity: { uid: dj.uuid, name: 'Real DJ', avatar: expect.any(String) } } },
        metadata: {
          chatMessage: {
            message: command,
            userUuid: dj.uuid,
            userName: 'Real DJ',
            badges: [],
            uuid: 'client-temp-1',
            type: 'user',
            mentions: [{ start: 0, userNickname: 'Real DJ', userUuid: dj.uuid }],
          },
        },
      },
    });
    expect(first.data.metadata.chatMessage.avatarId).not.toBe('forged');
    expect(first.data.metadata.chatMessage.color).not.toBe('#000000');
    expect(Math.abs(first.sentAt - Date.now() / 1000)).toBeLessThan(5);
    expect(first.updatedAt).toBe(first.sentAt);

    const second = (await chat('POST', '/v3/messages', dj.chatToken, text(room, 'two'))).body.data;
    const third = (await chat('POST', '/v3.0/messages', dj.chatToken, text(room, 'three'))).body.data;
    expect(Number(second.id)).toBeGreaterThan(Number(first.id));
    expect(Number(third.id)).toBeGreaterThan(Number(second.id));

    const after = await chat('GET', `/v3.0/groups/${room}/messages?per_page=50&id=${first.id}&affix=append`, dj.chatToken);
    expect(after.body.data.map((m: { data: { text: string } }) => m.data.text)).toEqual(['two', 'three']);
    expect((await chat('GET', `/v3.0/groups/${room}/messages?per_page=50&id=${third.id}&affix=append`, dj.chatToken)).body.data).toEqual(
      [],
    );
    const all = await chat('GET', `/v3.0/groups/${room}/messages?per_page=50`, dj.chatToken);
    expect(all.body.data.map((m: { id: string }) => m.id)).toEqual([first.id, second.id, third.id]);
    expect(
      (await chat('GET', `/v3.0/groups/${room}/messages?per_page=2`, dj.chatToken)).body.data.map((m: { id: string }) => m.id),
    ).toEqual([second.id, third.id]);
    const fromTs = await chat('GET', `/v3.0/groups/${room}/messages?fromTimestamp=${first.sentAt}&affix=append`, dj.chatToken);
    expect(fromTs.body.data).toHaveLength(3);
    expect((await chat('GET', `/v3.0/groups/${room}/messages?sentAt=${first.sentAt + 3600}&affix=append`, dj.chatToken)).body.data).toEqual(
      [],
    );

    const frame = await eventually(async () => frames.find((f) => f.channel === feedChannel(room)));
    const decoded = decodeFeedFrame(frame.raw)!;
    // A chat frame names its sender: the BFF leaves it out for those who blocked them.
    expect(decoded).toMatchObject({ kind: 'c', version: 0, userUuid: dj.uuid });
    const json = JSON.parse(decoded.json);
    expect(json).toMatchObject({
      room,
      from: 'server',
      message: { name: 'sentChatMessage', params: { message: { id: first.id, data: { text: command } } } },
    });
    await subscriber.unsubscribe(feedChannel(room));
  });

  it("edits only the sender's last text message, and pushes the edit", async () => {
    const user = await signUp('Editor');
    const room = (await newRoom(user)).uuid;
    await subscriber.subscribe(feedChannel(room));
    await chat('POST', `/v3.0/groups/${room}/members`, user.chatToken, {});
    const older = (await chat('POST', '/v3.0/messages', user.chatToken, text(room, 'frist'))).body.data;
    const last = (await chat('POST', '/v3.0/messages', user.chatToken, text(room, 'secnod'))).body.data;

    const notLast = await chat('PUT', `/v3.0/messages/${older.id}`, user.chatToken, { data: { text: 'first' } });
    expect(notLast.status).toBe(403);
    expect(notLast.body.error.message).toMatch(/last message/);
    const stranger = await signUp('Stranger');
    expect((await chat('PUT', `/v3.0/messages/${last.id}`, stranger.chatToken, { data: { text: 'mine' } })).status).toBe(403);

    const edited = await chat('PUT', `/v3.0/messages/${last.id}`, user.chatToken, { data: { text: 'second' } });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ id: last.id, data: { text: 'second', metadata: { chatMessage: { message: 'second' } } } });
    expect(edited.body.data.editedAt).toBeGreaterThanOrEqual(last.sentAt);
    const frame = await eventually(async () => frames.find((f) => f.channel === feedChannel(room) && f.raw.includes('editedChatMessage')));
    expect(JSON.parse(decodeFeedFrame(frame.raw)!.json).message.params.message.data.text).toBe('second');
    await subscriber.unsubscribe(feedChannel(room));
  });

  it('toggles reactions per user per emoji and shows them in the message', async () => {
    const author = await signUp('Author');
    const room = (await newRoom(author)).uuid;
    await subscriber.subscribe(feedChannel(room));
    const fan = await signUp('Fan');
    for (const u of [author, fan]) await chat('POST', `/v3.0/groups/${room}/members`, u.chatToken, {});
    const message = (await chat('POST', '/v3.0/messages', author.chatToken, text(room, 'banger'))).body.data;
    const fire = encodeURIComponent('🔥');

    const on = await chat('POST', `/v3.0/messages/${message.id}/reactions/${fire}`, fan.chatToken);
    expect(on.status).toBe(200);
    expect(on.body.data.data.reactions).toEqual([{ reaction: '🔥', count: 1, reactedByMe: true }]);
    await chat('POST', `/v3.0/messages/${message.id}/reactions/${fire}`, fan.chatToken); // twice: still one
    await chat('POST', `/v3.0/messages/${message.id}/reactions/${fire}`, author.chatToken);
    const listed = await chat('GET', `/v3.0/messages/${message.id}/reactions`, author.chatToken);
    expect(listed.body.data.map((r: { uid: string; reaction: string }) => [r.uid, r.reaction])).toEqual([
      [fan.uuid, '🔥'],
      [author.uuid, '🔥'],
    ]);
    expect(listed.body.data[0]).toMatchObject({ messageId: message.id, reactedBy: { uid: fan.uuid, name: 'Fan' } });

    const read = (await chat('GET', `/v3.0/groups/${room}/messages`, author.chatToken)).body.data[0];
    expect(read.data.reactions).toEqual([{ reaction: '🔥', count: 2, reactedByMe: true }]);
    expect(read.data.metadata.chatMessage.reactions).toEqual({
      '🔥': [
        { userUUID: fan.uuid, messageId: message.id, name: 'Fan' },
        { userUUID: author.uuid, messageId: message.id, name: 'Author' },
      ],
    });

    const off = await chat('DELETE', `/v3.0/messages/${message.id}/reactions/${fire}`, fan.chatToken);
    expect(off.body.data.data.reactions).toEqual([{ reaction: '🔥', count: 1 }]);
    const frame = await eventually(async () =>
      frames.find((f) => f.channel === feedChannel(room) && f.raw.includes('reactedToChatMessage')),
    );
    expect(JSON.parse(decodeFeedFrame(frame.raw)!.json).message.params.message.id).toBe(message.id);
    await subscriber.unsubscribe(feedChannel(room));
  });

  it('refuses bad messages, room notices from non-moderators and onBehalfOf from non-admins', async () => {
    const owner = await signUp('Owner');
    const { uuid: room, slug } = await newRoom(owner);
    const user = await signUp('Plain');
    await chat('POST', `/v3.0/groups/${room}/members`, user.chatToken, {});
    const unknownType = await chat('POST', '/v3.0/messages', user.chatToken, { ...text(room, 'hi'), receiverType: 'channel' });
    expect(unknownType.status).toBe(400);
    expect(unknownType.body.error.code).toBe('ERR_BAD_REQUEST');
    expect((await chat('POST', '/v3.0/messages', user.chatToken, text(room, 'x'.repeat(2001)))).status).toBe(400);
    const image = await chat('POST', '/v3.0/messages', user.chatToken, {
      ...text(room, ''),
      type: 'image',
      data: { text: '', metadata: { chatMessage: { imageUrls: ['ftp://x/y.gif'], media: { gif: true } } } },
    });
    expect(image.status).toBe(400);
    const notice = await chat('POST', '/v3.0/messages', user.chatToken, text(room, 'Room closes soon', { type: 'room' }));
    expect(notice.status).toBe(403);
    await grant(owner, slug, user.uuid, 'moderator');
    expect(
      (await chat('POST', '/v3.0/messages', user.chatToken, text(room, 'Room closes soon', { type: 'room' }))).body.data.data.metadata
        .chatMessage.type,
    ).toBe('room');
    const other = await signUp('Victim');
    const behalf = await chat('GET', '/v3.0/me', user.chatToken, undefined, { onBehalfOf: other.uuid });
    expect(behalf.status).toBe(403);
    expect(behalf.body.error.code).toBe('ERR_ON_BEHALF_OF_NOT_ALLOWED');
  });

  it('refuses banned users and chat-disabled users until the role ends', async () => {
    const owner = await signUp('Strict Owner');
    const { uuid: room, slug } = await newRoom(owner);
    const banned = await signUp('Banned');
    await grant(owner, slug, banned.uuid, 'banned');
    const join = await chat('POST', `/v3.0/groups/${room}/members`, banned.chatToken, {});
    expect(join.status).toBe(403);
    expect(join.body.error.code).toBe('ERR_USER_BANNED');

    const muted = await signUp('Muted');
    await chat('POST', `/v3.0/groups/${room}/members`, muted.chatToken, {});
    expect((await chat('POST', '/v3.0/messages', muted.chatToken, text(room, 'before'))).status).toBe(200);
    const until = new Date(Date.now() + 3_000);
    await grant(owner, slug, muted.uuid, 'chatDisabled', until.toISOString());
    const refused = await chat('POST', '/v3.0/messages', muted.chatToken, text(room, 'let me talk'));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({
      code: 'ERR_CHAT_DISABLED',
      message: `Chat is disabled for you in this room until ${until.toISOString()}`,
    });
    // Once the role ends, the user chats again.
    await eventually(
      async () => ((await chat('POST', '/v3.0/messages', muted.chatToken, text(room, 'thanks'))).status === 200 ? true : undefined),
      10_000,
      250,
    );
  });

  it("joins the group through the room service's cometchat paths, and reaches feed listeners in the room", async () => {
    const owner = await signUp('Host');
    const fan = await signUp('Fan');
    const room = await newRoom(owner);
    const joined = await call('POST', `/api/room-service/roomUserRoles/cometchat/join/${room.slug}`, { token: fan.accessToken });
    expect(joined).toMatchObject({ status: 201, body: { groupId: room.uuid, joined: true } });
    // Joining again is fine; the group answers the fan's messages now.
    expect((await call('POST', `/api/room-service/roomUserRoles/cometchat/join/${room.slug}`, { token: fan.accessToken })).status).toBe(
      201,
    );
    expect((await chat('GET', `/v3/groups/${room.uuid}/messages`, fan.chatToken)).status).toBe(200);
    await grant(owner, room.slug, fan.uuid, 'moderator');
    const synced = await call('POST', `/api/room-service/roomUserRoles/cometchat/sync/${room.slug}`, { token: owner.accessToken });
    expect(synced.body.roomRoles.map((r: { role: string; userUuid: string }) => [r.role, r.userUuid]).sort()).toEqual(
      [
        ['moderator', fan.uuid],
        ['owner', owner.uuid],
      ].sort(),
    );

    const listener = await FeedListener.join(platform().baseUrl, owner.accessToken, owner.uuid, room.uuid);
    try {
      expect((await chat('POST', '/v3.0/messages', fan.chatToken, text(room.uuid, 'hello room'))).status).toBe(200);
      const pushed = await eventually(async () => listener.named('sentChatMessage')[0]);
      expect(pushed.message.params.message).toMatchObject({
        data: { text: 'hello room', metadata: { chatMessage: { userName: 'Fan', userUuid: fan.uuid } } },
      });
    } finally {
      listener.close();
    }
  });
});
