import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';

type Json = any;
const ROOMS = '/api/room-service';

/**
 * Room access is one rule (services/room/src/domain/room-access.ts): the feed
 * join, the room's chat group, its history and posting, its state, its users
 * and its lists all ask the room service the same question.
 */
describe('room access: one rule for the feed, the chat, the state and the lists', () => {
  const { call, platform } = usePlatform();
  const open: FeedListener[] = [];
  afterEach(() => {
    for (const listener of open.splice(0)) listener.close();
  });

  const withChat = async (body: { accessToken: string; userUuid: string }) => {
    const chatToken = (await call('GET', '/api/user-service/comet-chat/user-token', { token: body.accessToken })).body
      .cometAuthToken as string;
    return { uuid: body.userUuid, token: body.accessToken, chatToken };
  };
  const person = async () =>
    withChat(
      (await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery' } })).body,
    );
  const guest = async () => withChat((await call('GET', '/api/user-service/auth/guest')).body);
  const room = async (owner: { token: string }, settings: Record<string, unknown> = {}) => {
    const created = await call('POST', `${ROOMS}/rooms/infrastructure`, {
      token: owner.token,
      body: { name: `Door ${randomUUID().slice(0, 8)}`, ...settings },
    });
    expect(created.status).toBe(201);
    return created.body as { uuid: string; slug: string };
  };
  const enter = async (who: { token: string; uuid: string }, roomUuid: string, password?: string) => {
    const listener = await FeedListener.join(platform().baseUrl, who.token, who.uuid, roomUuid, password);
    open.push(listener);
    return listener;
  };
  const chat = (method: string, path: string, token: string, body?: unknown) =>
    call(method, `/chat${path}`, { body, headers: { appid: 'spinroom', authtoken: token } });
  const joinGroup = (who: { chatToken: string }, roomUuid: string) => chat('POST', `/v3.0/groups/${roomUuid}/members`, who.chatToken, {});
  const history = (who: { chatToken: string }, roomUuid: string) =>
    chat('GET', `/v3.0/groups/${roomUuid}/messages?per_page=50`, who.chatToken);
  const post = (who: { chatToken: string }, roomUuid: string, message: string) =>
    chat('POST', '/v3.0/messages', who.chatToken, {
      type: 'text',
      receiverType: 'group',
      category: 'message',
      receiver: roomUuid,
      data: { text: message, metadata: { chatMessage: { message } } },
    });

  it("keeps a password room's chat to those who passed its password", async () => {
    const owner = await person();
    const { uuid, slug } = await room(owner, { password: 'open sesame' });
    expect((await joinGroup(owner, uuid)).status).toBe(200);
    expect((await post(owner, uuid, 'members only')).status).toBe(200);

    // A guest who never gave the password: no group, no history, no posting.
    const stranger = await guest();
    const refused = await joinGroup(stranger, uuid);
    expect(refused).toMatchObject({
      status: 403,
      body: { error: { code: 'ERR_ROOM_PASSWORD_REQUIRED', message: 'This room requires a password' } },
    });
    const viaRoomService = await call('POST', `${ROOMS}/roomUserRoles/cometchat/join/${slug}`, { token: stranger.token });
    expect(viaRoomService.status).toBe(403);
    expect((await history(stranger, uuid)).status).toBe(401);
    expect((await post(stranger, uuid, 'let me in')).status).toBe(401);

    // Through the feed with the password: admitted, so the group opens to them.
    const member = await guest();
    await enter(member, uuid, 'open sesame');
    expect((await joinGroup(member, uuid)).status).toBe(200);
    expect((await history(member, uuid)).body.data.map((m: Json) => m.data.text)).toEqual(['members only']);
    expect((await post(member, uuid, 'hello')).status).toBe(200);

    // Password matching (POST /rooms/list) admits too.
    const matcher = await person();
    expect((await call('POST', `${ROOMS}/rooms/list`, { token: matcher.token, body: { slug, password: 'wrong' } })).status).toBe(403);
    expect((await joinGroup(matcher, uuid)).status).toBe(403);
    expect((await call('POST', `${ROOMS}/rooms/list`, { token: matcher.token, body: { slug, password: 'open sesame' } })).status).toBe(200);
    expect((await joinGroup(matcher, uuid)).status).toBe(200);

    // A new password closes the door to everyone admitted with the old one; the owner stays.
    expect((await call('PATCH', `${ROOMS}/rooms/${slug}`, { token: owner.token, body: { password: 'new sesame' } })).status).toBe(200);
    const closed = await history(member, uuid);
    expect(closed).toMatchObject({ status: 403, body: { error: { code: 'ERR_ROOM_PASSWORD_REQUIRED' } } });
    expect((await post(member, uuid, 'still here?')).status).toBe(403);
    expect((await history(owner, uuid)).status).toBe(200);
    // Entering the feed again without the new password is refused; with it, the chat is theirs again.
    await expect(FeedListener.join(platform().baseUrl, member.token, member.uuid, uuid)).rejects.toBe('This room requires a password');
    await enter(member, uuid, 'new sesame');
    expect((await post(member, uuid, 'back')).status).toBe(200);
  });

  it("keeps a PRIVATE room's chat, state and users to those admitted, room role holders and global roles", async () => {
    const owner = await person();
    const { uuid, slug } = await room(owner, { type: 'PRIVATE' });
    await enter(owner, uuid);

    const stranger = await guest();
    expect(await joinGroup(stranger, uuid)).toMatchObject({
      status: 403,
      body: { error: { code: 'ERR_ROOM_PRIVATE', message: 'This room is private' } },
    });
    const reads = [
      () => call('GET', `${ROOMS}/rooms/room-state/${slug}`, { token: stranger.token }),
      () => call('GET', `${ROOMS}/rooms/room-played-time/${slug}`, { token: stranger.token }),
      () => call('GET', `${ROOMS}/rooms/users/${slug}`, { token: stranger.token }),
      () => call('GET', `${ROOMS}/rooms/users/service/${slug}`, { token: stranger.token }),
      () => call('POST', `${ROOMS}/roomUserRoles/no-dancefloor-users`, { token: stranger.token, body: { slug } }),
      () => call('GET', `/api/playlist-service/rooms/${slug}/recent-songs`, { token: stranger.token }),
    ];
    for (const read of reads)
      expect(await read()).toMatchObject({ status: 403, body: { message: 'This room is private', code: 'ROOM_PRIVATE' } });
    // The room itself answers (its settings say how to get in), but not who is there.
    for (const path of [`/rooms/${slug}`, `/rooms/uuid/${uuid}`, `/rooms/service/room/${slug}`]) {
      const found = await call('GET', `${ROOMS}${path}`, { token: stranger.token });
      expect(found.body).toMatchObject({ uuid, type: 'PRIVATE', usersInRoomUuids: [] });
    }
    expect((await call('GET', `${ROOMS}/rooms/multiple/list?room=${slug}`, { token: stranger.token })).body).toMatchObject([
      { uuid, usersInRoomUuids: [] },
    ]);

    // The owner (a room role) and an admin see inside.
    expect((await call('GET', `${ROOMS}/rooms/room-state/${slug}`, { token: owner.token })).body.allUsers.map((u: Json) => u.uuid)).toEqual(
      [owner.uuid],
    );
    expect((await call('GET', `${ROOMS}/rooms/${slug}`, { token: owner.token })).body.usersInRoomUuids).toEqual([owner.uuid]);
    const admin = await signedToken('admin');
    expect((await call('GET', `${ROOMS}/rooms/users/${slug}`, { token: admin })).body.usersInRoomUuids).toEqual([owner.uuid]);

    // Entering by the link admits the guest: then the state, the users and the chat are theirs too.
    expect((await call('POST', `${ROOMS}/rooms/${slug}/join`, { token: stranger.token, body: {} })).status).toBe(200);
    expect((await call('GET', `${ROOMS}/rooms/room-state/${slug}`, { token: stranger.token })).status).toBe(200);
    expect((await call('GET', `${ROOMS}/rooms/users/${slug}`, { token: stranger.token })).body.usersInRoomUuids).toEqual([owner.uuid]);
    expect((await call('GET', `/api/playlist-service/rooms/${slug}/recent-songs`, { token: stranger.token })).status).toBe(200);
    expect((await joinGroup(stranger, uuid)).status).toBe(200);
    expect((await post(stranger, uuid, 'found it')).status).toBe(200);
  });

  it('lists PRIVATE and unlisted rooms only to their role holders, services and global roles', async () => {
    const owner = await person();
    const guildId = String(Date.now()) + String(Math.floor(Math.random() * 1e6));
    const listed = await room(owner, { discordGuildId: guildId });
    const hidden = await room(owner, { type: 'PRIVATE', discordGuildId: guildId });
    const unlisted = await room(owner, { unlisted: true, discordGuildId: guildId });
    const everyRoom = async (token: string) => {
      const uuids: string[] = [];
      for (let skip = 0; ; skip += 100) {
        const page = await call('GET', `${ROOMS}/rooms/service/list?take=100&skip=${skip}`, { token });
        expect(page.status).toBe(200);
        uuids.push(...page.body.rooms.map((r: Json) => r.uuid));
        if (skip + 100 >= page.body.total) return uuids;
      }
    };
    const guild = async (token: string) =>
      (await call('GET', `${ROOMS}/rooms/discord/list/${guildId}`, { token })).body.map((r: Json) => r.uuid).sort();
    for (const token of [(await guest()).token, (await person()).token]) {
      const seen = await everyRoom(token);
      expect(seen).toContain(listed.uuid);
      expect(seen).not.toContain(hidden.uuid);
      expect(seen).not.toContain(unlisted.uuid);
      expect(await guild(token)).toEqual([listed.uuid]);
    }
    // Room role holders find the rooms they hold a role in; services and global roles every room.
    const all = [listed.uuid, hidden.uuid, unlisted.uuid].sort();
    const admin = await signedToken('admin');
    for (const token of [owner.token, admin]) {
      expect(await everyRoom(token)).toEqual(expect.arrayContaining(all));
      expect(await guild(token)).toEqual(all);
    }
  });

  it('lets kicked users read but not post, and banned users neither', async () => {
    const owner = await person();
    const { uuid, slug } = await room(owner);
    const kicked = await person();
    const banned = await person();
    for (const who of [owner, kicked, banned]) expect((await joinGroup(who, uuid)).status).toBe(200);
    const message = (await post(owner, uuid, 'house rules')).body.data;

    expect(
      (await call('POST', `${ROOMS}/roomUserRoles/kick-user-from-room`, { token: owner.token, body: { userUuid: kicked.uuid, slug } }))
        .status,
    ).toBe(201);
    const kickedPost = await post(kicked, uuid, 'I am back');
    expect(kickedPost).toMatchObject({
      status: 403,
      body: { error: { code: 'ERR_USER_KICKED', message: 'You were removed from this room, please try again later' } },
    });
    expect((await chat('POST', `/v3.0/messages/${message.id}/reactions/${encodeURIComponent('🔥')}`, kicked.chatToken)).status).toBe(403);
    expect((await history(kicked, uuid)).status).toBe(200);

    expect(
      (await call('POST', `${ROOMS}/roomUserRoles/${slug}`, { token: owner.token, body: { userUuid: banned.uuid, role: 'banned' } }))
        .status,
    ).toBe(201);
    expect(await history(banned, uuid)).toMatchObject({ status: 403, body: { error: { code: 'ERR_USER_BANNED' } } });
    expect((await chat('GET', `/v3.0/messages/${message.id}/reactions`, banned.chatToken)).status).toBe(403);
    expect((await call('GET', `${ROOMS}/rooms/room-state/${slug}`, { token: banned.token })).body).toMatchObject({
      statusCode: 403,
      message: 'You are banned from this room',
    });
  });
});
