import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, usePlatform } from '../support/platform.js';

type Json = any;
const SOCIAL = '/api/social-service';

// Direct messages and room chat with the social service's blocks and friends
// (issue 17; services/chat/README.md, Blocks and friends): conversations
// grouped as friends and others (spec 002), direct messages refused between
// blocked users, and a blocked user's messages hidden from the blocker.
describe('direct messages and room chat with blocks and friends', () => {
  const { call, platform } = usePlatform();

  const signUp = async (nickname: string) => {
    const { body } = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: freshEmail(), password: 'correct horse battery', nickname },
    });
    const token = (await call('GET', '/api/user-service/comet-chat/user-token', { token: body.accessToken })).body.cometAuthToken as string;
    return { uuid: body.userUuid as string, accessToken: body.accessToken as string, chatToken: token, nickname };
  };
  type Person = Awaited<ReturnType<typeof signUp>>;
  const chat = (method: string, path: string, token: string, body?: unknown) =>
    call(method, `/chat${path}`, { body, headers: { appid: 'spinroom', authtoken: token } });
  const dm = (from: Person, to: Person, message: string) =>
    chat('POST', '/v3.0/messages', from.chatToken, {
      type: 'text',
      receiverType: 'user',
      category: 'message',
      receiver: to.uuid,
      data: { text: message, metadata: { chatMessage: { message } } },
    });
  const befriend = async (a: Person, b: Person) => {
    const invited = await call('POST', `${SOCIAL}/friend-invitations`, { token: a.accessToken, body: { userUuid: b.uuid } });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const accepted = await call('POST', `${SOCIAL}/friend-invitations/handle-friend`, {
      token: b.accessToken,
      body: { invitationId: invited.body.id, status: 'ACCEPTED' },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  };
  const block = async (blocker: Person, blocked: Person) => {
    const answer = await call('POST', `${SOCIAL}/blocked-users`, { token: blocker.accessToken, body: { blockedUserUuid: blocked.uuid } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  };
  const unblock = async (blocker: Person, blocked: Person) => {
    expect((await call('DELETE', `${SOCIAL}/blocked-users/${blocked.uuid}`, { token: blocker.accessToken })).status).toBe(200);
  };
  const texts = (list: Json[]) => list.map((m) => m.data.text);
  const conversations = async (person: Person, query = '') => {
    const { status, body } = await chat('GET', `/v3.0/users/${person.uuid}/conversations?conversationType=user${query}`, person.chatToken);
    expect(status, JSON.stringify(body)).toBe(200);
    return body as { data: Json[]; meta: { pagination: { total: number } } };
  };

  it("groups the caller's conversations as friends and others, and keeps one group on asking", async () => {
    const ann = await signUp('Ann Groups');
    const bob = await signUp('Bob Groups');
    const carl = await signUp('Carl Groups');
    await befriend(ann, bob);
    expect((await dm(bob, ann, 'from a friend')).status).toBe(200);
    expect((await dm(carl, ann, 'from someone else')).status).toBe(200);

    const all = await conversations(ann);
    expect(all.data.map((c) => [c.conversationWith.uid, c.conversationGroup])).toEqual([
      [carl.uuid, 'others'],
      [bob.uuid, 'friends'],
    ]);
    const friends = await conversations(ann, '&conversationGroup=friends');
    expect(friends.data.map((c) => c.conversationWith.uid)).toEqual([bob.uuid]);
    expect(friends.meta.pagination.total).toBe(1);
    const others = await conversations(ann, '&conversationGroup=others');
    expect(others.data.map((c) => c.conversationWith.uid)).toEqual([carl.uuid]);
    // Friendship is both ways; Carl has no friends.
    expect((await conversations(bob)).data.map((c) => c.conversationGroup)).toEqual(['friends']);
    expect((await conversations(carl, '&conversationGroup=friends')).data).toEqual([]);
    expect((await chat('GET', `/v3/users/${bob.uuid}/conversation`, ann.chatToken)).body.data.conversationGroup).toBe('friends');
    expect((await chat('GET', `/v3.0/users/${ann.uuid}/conversations?conversationGroup=family`, ann.chatToken)).status).toBe(400);
  });

  it('refuses direct messages between blocked users either way, and hides the blocked user from the blocker until unblocked', async () => {
    const ann = await signUp('Ann Blocks');
    const carl = await signUp('Carl Blocks');
    expect((await dm(carl, ann, 'before the block')).status).toBe(200);
    expect((await dm(ann, carl, 'my answer')).status).toBe(200);
    await block(ann, carl);

    for (const [from, to] of [
      [carl, ann],
      [ann, carl],
    ] as const) {
      const refused = await dm(from, to, 'after the block');
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        error: { code: 'ERR_USER_BLOCKED', message: 'You cannot send direct messages to this user: one of you has blocked the other' },
      });
    }
    // Ann, the blocker, no longer sees Carl: not his conversation, not his messages.
    expect((await conversations(ann)).data).toEqual([]);
    const hidden = await chat('GET', `/v3/users/${carl.uuid}/conversation`, ann.chatToken);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('ERR_CONVERSATION_NOT_FOUND');
    expect(texts((await chat('GET', `/v3.0/users/${carl.uuid}/messages`, ann.chatToken)).body.data)).toEqual(['my answer']);
    expect(texts((await chat('GET', `/v3.0/messages?receiverType=user&sender=${carl.uuid}`, ann.chatToken)).body.data)).toEqual([]);
    // Carl still reads what was said (he cannot add to it).
    expect(texts((await chat('GET', `/v3.0/users/${ann.uuid}/messages`, carl.chatToken)).body.data)).toEqual([
      'before the block',
      'my answer',
    ]);
    expect((await conversations(carl)).data.map((c) => c.conversationWith.uid)).toEqual([ann.uuid]);

    await unblock(ann, carl);
    expect((await dm(carl, ann, 'after the unblock')).status).toBe(200);
    expect(texts((await chat('GET', `/v3.0/users/${carl.uuid}/messages`, ann.chatToken)).body.data)).toEqual([
      'before the block',
      'my answer',
      'after the unblock',
    ]);
    expect((await conversations(ann)).data.map((c) => c.conversationWith.uid)).toEqual([carl.uuid]);
  });

  it("hides a blocked user's room chat messages from the blocker, and only from them", async () => {
    const owner = await signUp('Owner Blocks');
    const ann = await signUp('Ann Room');
    const carl = await signUp('Carl Room');
    const { status, body: room } = await call('POST', '/api/room-service/rooms/infrastructure', {
      token: owner.accessToken,
      body: { name: `Blocks ${randomUUID().slice(0, 8)}` },
    });
    expect(status).toBe(201);
    const say = async (person: Person, message: string) => {
      const answer = await chat('POST', '/v3.0/messages', person.chatToken, {
        type: 'text',
        receiverType: 'group',
        category: 'message',
        receiver: room.uuid,
        data: { text: message, metadata: { chatMessage: { message } } },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    };
    const read = async (person: Person) =>
      texts((await chat('GET', `/v3.0/groups/${room.uuid}/messages?per_page=2`, person.chatToken)).body.data);
    for (const person of [owner, ann, carl])
      expect((await chat('POST', `/v3.0/groups/${room.uuid}/members`, person.chatToken, {})).status).toBe(200);
    await say(ann, 'ann 1');
    await say(carl, 'carl 1');
    await say(owner, 'owner 1');
    await say(carl, 'carl 2');
    expect(await read(ann)).toEqual(['owner 1', 'carl 2']);

    await block(ann, carl);
    // The page stays full: the two newest Ann may see.
    expect(await read(ann)).toEqual(['ann 1', 'owner 1']);
    expect(await read(owner)).toEqual(['owner 1', 'carl 2']);
    // Carl, blocked, still reads Ann.
    await say(ann, 'ann 2');
    expect(await read(carl)).toEqual(['carl 2', 'ann 2']);
    // Live, in the room feed: Carl's new message reaches the owner's socket, not Ann's (a room's frames
    // arrive in order, so once the owner's next message reached Ann, Carl's would have come first).
    const annFeed = await FeedListener.join(platform().baseUrl, ann.accessToken, ann.uuid, room.uuid);
    const ownerFeed = await FeedListener.join(platform().baseUrl, owner.accessToken, owner.uuid, room.uuid);
    try {
      await say(carl, 'carl live');
      await say(owner, 'owner live');
      const liveTexts = (feed: FeedListener) => feed.named('sentChatMessage').map((m) => m.message.params.message.data.text);
      await expect.poll(() => liveTexts(ownerFeed)).toEqual(['carl live', 'owner live']);
      await expect.poll(() => liveTexts(annFeed)).toEqual(['owner live']);
    } finally {
      annFeed.close();
      ownerFeed.close();
    }
    await unblock(ann, carl);
    expect(await read(ann)).toEqual(['carl live', 'owner live']);
  });
});
