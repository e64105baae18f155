import { randomUUID } from 'node:crypto';
import { ModerationAction } from '@spinroom/contracts/events/v1/moderation_actions';
import { moderationActionTypes, moderationRoleName } from '@spinroom/contracts/moderation';
import { RoomListing, RoomServiceClient, RoomSettings } from '@spinroom/contracts/room/v1/room_service';
import { RoomDesign, RoomUserRole, UserRole } from '@spinroom/contracts/room/v1/room_vocabulary';
import { userRoles } from '@spinroom/contracts/vocabulary';
import { createGrpcClient } from '@spinroom/platform';
import { eventually } from '@spinroom/platform/testing';
import { describe, expect, it } from 'vitest';
import { freshEmail, signedToken, usePlatform, useTopic } from '../support/platform.js';

const BASE = '/api/room-service';

/** A user of the test platform: a signed token for a new uuid. */
async function person(role: Parameters<typeof signedToken>[0] = 'user') {
  const uuid = randomUUID();
  return { uuid, token: await signedToken(role, uuid) };
}

describe('rooms through the BFF', () => {
  const { call, platform } = usePlatform();
  const create = async (token: string, body: Record<string, unknown>) => call('POST', `${BASE}/rooms/infrastructure`, { token, body });

  it('creates a room whose creator is its owner, readable by slug and uuid', async () => {
    const owner = await person();
    const created = await create(owner.token, { name: 'Late Night Lounge', description: 'chill', design: 'YACHT', numberOfDjs: 3 });
    expect(created.status).toBe(201);
    const room = created.body;
    expect(room).toMatchObject({
      slug: 'late-night-lounge',
      name: 'Late Night Lounge',
      description: 'chill',
      design: 'YACHT',
      numberOfDjs: 3,
      djType: 'EVERYONE',
      type: 'PUBLIC',
      songsPerDj: 0,
      isPasswordProtected: false,
      isGuestPasswordProtected: false,
      hasChat: true,
      waitlistEnabled: true,
      maxSongLengthSeconds: 0,
      ownerUuid: owner.uuid,
      usersInRoomUuids: [],
      song: null,
      roomRoles: [{ userUuid: owner.uuid, role: 'owner', expirationTime: null, roomId: room.id }],
    });
    expect(room.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(room).not.toHaveProperty('password');

    const reader = await person('guest');
    expect(await call('GET', `${BASE}/rooms/LATE-night-lounge`, { token: reader.token })).toMatchObject({
      status: 200,
      body: { uuid: room.uuid },
    });
    expect(await call('GET', `${BASE}/rooms/uuid/${room.uuid}`, { token: reader.token })).toMatchObject({
      status: 200,
      body: { slug: room.slug },
    });
    expect(await call('GET', `${BASE}/rooms/service/room/${room.slug}`, { token: reader.token })).toMatchObject({ status: 200 });
    expect(await call('GET', `${BASE}/rooms/no-such-room`, { token: reader.token })).toMatchObject({
      status: 404,
      body: { statusCode: 404, message: 'Room not found', error: 'Not Found' },
    });
    expect((await call('GET', `${BASE}/rooms/${room.slug}`)).status).toBe(401);
  });

  it('derives slugs with a suffix on a clash, refuses a taken or reserved slug given explicitly', async () => {
    const owner = await person();
    const first = await create(owner.token, { name: 'Clash Café!' });
    const second = await create(owner.token, { name: 'clash cafe' });
    expect([first.body.slug, second.body.slug]).toEqual(['clash-cafe', 'clash-cafe-2']);
    expect(await create(owner.token, { name: 'Other', slug: 'Clash-Cafe' })).toMatchObject({
      status: 409,
      body: { message: 'A room with this slug already exists' },
    });
    expect(await create(owner.token, { name: 'Other', slug: 'public' })).toMatchObject({
      status: 400,
      body: { message: 'The slug "public" is reserved' },
    });
    expect((await create(owner.token, { name: 'Public' })).body.slug).toBe('public-room');
    expect((await create(owner.token, { name: 'Mine', slug: 'My-Own-Slug' })).body.slug).toBe('my-own-slug');
    // Renaming a slug onto a taken one is a 409 too.
    expect(await call('PATCH', `${BASE}/rooms/my-own-slug`, { token: owner.token, body: { slug: 'clash-cafe' } })).toMatchObject({
      status: 409,
    });
  });

  it('validates settings with 400s, refuses guests and unauthenticated callers', async () => {
    const owner = await person();
    const bad = await create(owner.token, { name: 'Bad', numberOfDjs: 11, design: 'SPACESHIP', songsPerDj: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^numberOfDjs: /),
        expect.stringMatching(/^design: /),
        expect.stringMatching(/^songsPerDj: /),
      ]),
    );
    expect((await create(owner.token, { description: 'no name' })).status).toBe(400);
    expect((await create(owner.token, { name: 'x', posterUrl: 'javascript:alert(1)' })).status).toBe(400);
    const guest = await person('guest');
    expect(await create(guest.token, { name: 'Guest room' })).toMatchObject({
      status: 403,
      body: { message: 'Guests cannot change rooms' },
    });
    expect((await call('POST', `${BASE}/rooms/infrastructure`, { body: { name: 'anon' } })).status).toBe(401);
    // Promotion is for global roles only.
    expect(await create(owner.token, { name: 'Promo', promoted: true })).toMatchObject({ status: 201, body: { promoted: false } });
  });

  it('changes settings by role: owner everything, moderators the stage, others nothing; deletes for the owner', async () => {
    const owner = await person();
    const moderator = await person();
    const stranger = await person();
    const { slug } = (await create(owner.token, { name: 'Settings Room' })).body;
    const patched = await call('PATCH', `${BASE}/rooms/${slug}`, {
      token: owner.token,
      body: { songsPerDj: 2, djType: 'INVITE_ONLY', vibe: 'deep house', afkLimitMinutes: 15 },
    });
    expect(patched).toMatchObject({
      status: 200,
      body: { songsPerDj: 2, djType: 'INVITE_ONLY', vibe: 'deep house', afkLimitMinutes: 15, name: 'Settings Room' },
    });

    expect(
      (await call('POST', `${BASE}/roomUserRoles/${slug}`, { token: owner.token, body: { userUuid: moderator.uuid, role: 'moderator' } }))
        .status,
    ).toBe(201);
    expect(
      await call('PATCH', `${BASE}/rooms/${slug}`, { token: moderator.token, body: { design: 'FESTIVAL', numberOfDjs: 4 } }),
    ).toMatchObject({
      status: 200,
      body: { design: 'FESTIVAL', numberOfDjs: 4 },
    });
    expect(await call('PATCH', `${BASE}/rooms/${slug}`, { token: moderator.token, body: { name: 'Mine now' } })).toMatchObject({
      status: 403,
      body: { message: 'You are not allowed to change name in this room' },
    });
    expect(
      await call('PATCH', `${BASE}/rooms/dj-seats/${slug}/infrastructure`, { token: moderator.token, body: { numberOfDjs: 2 } }),
    ).toMatchObject({ status: 200, body: { numberOfDjs: 2 } });
    expect(
      await call('PATCH', `${BASE}/rooms/dj-type/${slug}/infrastructure`, { token: owner.token, body: { djType: 'VERIFIED_ONLY' } }),
    ).toMatchObject({ status: 200, body: { djType: 'VERIFIED_ONLY' } });
    expect(
      await call('PATCH', `${BASE}/rooms/live-state/${slug}/infrastructure`, { token: owner.token, body: { isLive: true } }),
    ).toMatchObject({ status: 200, body: { isLive: true } });
    expect(await call('PATCH', `${BASE}/rooms/${slug}/infrastructure`, { token: stranger.token, body: { vibe: 'x' } })).toMatchObject({
      status: 403,
      body: { message: 'You are not allowed to change this room' },
    });
    expect((await call('PATCH', `${BASE}/rooms/nowhere`, { token: owner.token, body: { vibe: 'x' } })).status).toBe(404);

    expect(await call('DELETE', `${BASE}/rooms/${slug}/infrastructure`, { token: moderator.token })).toMatchObject({
      status: 403,
      body: { message: 'Only the owner can delete this room' },
    });
    expect((await call('DELETE', `${BASE}/rooms/${slug}/infrastructure`, { token: owner.token })).status).toBe(200);
    expect((await call('GET', `${BASE}/rooms/${slug}`, { token: owner.token })).status).toBe(404);
  });

  it('lists public rooms newest first, pages them, and leaves private and unlisted rooms out', async () => {
    const owner = await person();
    const mine = [];
    for (const name of ['Paging A', 'Paging B', 'Paging C']) mine.push((await create(owner.token, { name })).body.uuid);
    const hidden = [
      (await create(owner.token, { name: 'Private one', type: 'PRIVATE' })).body.uuid,
      (await create(owner.token, { name: 'Unlisted one', unlisted: true })).body.uuid,
    ];
    const all = await call('GET', `${BASE}/rooms/public?limit=100`, { token: owner.token });
    const uuids = all.body.rooms.map((r: { uuid: string }) => r.uuid);
    expect(all.body.total).toBe(uuids.length);
    expect(uuids.slice(0, 3)).toEqual([...mine].reverse());
    for (const uuid of hidden) expect(uuids).not.toContain(uuid);
    const first = await call('GET', `${BASE}/rooms/public?limit=2&offset=0`, { token: owner.token });
    const second = await call('GET', `${BASE}/rooms/public?limit=2&offset=2`, { token: owner.token });
    expect([...first.body.rooms, ...second.body.rooms].map((r: { uuid: string }) => r.uuid)).toEqual(uuids.slice(0, 4));
    expect((await call('GET', `${BASE}/rooms/public?limit=500`, { token: owner.token })).status).toBe(400);

    expect((await call('GET', `${BASE}/rooms/private-count`, { token: owner.token })).body.count).toBeGreaterThanOrEqual(1);
    expect((await call('GET', `${BASE}/rooms/owned-rooms/list`, { token: owner.token })).body).toHaveLength(5);
    const named = await call('GET', `${BASE}/rooms/multiple/list?room=paging-b&room=${mine[0]}&room=nothing`, { token: owner.token });
    expect(named.body.map((r: { name: string }) => r.name)).toEqual(['Paging B', 'Paging A']);
    const service = await call('GET', `${BASE}/rooms/service/list?take=2&skip=0`, { token: owner.token });
    expect(service.body.rooms).toHaveLength(2);
  });

  it('shows visitors without a token the public and promoted rooms, not inside a room with a door, and nothing else', async () => {
    const owner = await person();
    const open = (await create(owner.token, { name: 'Open Doors' })).body;
    const locked = (await create(owner.token, { name: 'Locked Doors', password: 'knock knock' })).body;
    const list = await call('GET', `${BASE}/rooms/public?limit=100`);
    expect(list.status).toBe(200);
    const byUuid = new Map(list.body.rooms.map((r: { uuid: string }) => [r.uuid, r]));
    expect(byUuid.get(open.uuid)).toMatchObject({ name: 'Open Doors', song: null, djUuids: [] });
    // The password room is listed (it is public) but a visitor learns nothing of who is inside.
    expect(byUuid.get(locked.uuid)).toMatchObject({ isPasswordProtected: true, usersInRoomUuids: [], song: null, djUuids: [] });
    expect((await call('GET', `${BASE}/rooms/promoted-rooms`)).status).toBe(200);
    // A token that does not verify is still refused, and the other lists need one.
    expect((await call('GET', `${BASE}/rooms/public`, { token: 'not-a-token' })).status).toBe(401);
    for (const path of ['/rooms/mine/list', '/rooms/owned-rooms/list', '/rooms/favorites', '/rooms/recent', `/rooms/${open.slug}`])
      expect((await call('GET', `${BASE}${path}`)).status, path).toBe(401);
  });

  it('protects rooms with a password: join and password matching', async () => {
    const owner = await person();
    const visitor = await person();
    const created = await create(owner.token, { name: 'Secret Garden', password: 'open sesame', type: 'PRIVATE' });
    expect(created.body).toMatchObject({ isPasswordProtected: true });
    const { slug, uuid } = created.body;
    expect(await call('POST', `${BASE}/rooms/${slug}/join`, { token: visitor.token })).toMatchObject({
      status: 403,
      body: { message: 'This room requires a password' },
    });
    expect(await call('POST', `${BASE}/rooms/${slug}/join`, { token: visitor.token, body: { password: 'nope' } })).toMatchObject({
      status: 403,
      body: { message: 'Wrong room password' },
    });
    expect(await call('POST', `${BASE}/rooms/${slug}/join`, { token: visitor.token, body: { password: 'open sesame' } })).toMatchObject({
      status: 200,
      body: { uuid },
    });
    expect((await call('POST', `${BASE}/rooms/${slug}/join`, { token: owner.token })).status).toBe(200);

    expect(await call('POST', `${BASE}/rooms/list`, { token: visitor.token, body: { slug, password: 'open sesame' } })).toMatchObject({
      status: 200,
      body: { uuid },
    });
    expect(await call('POST', `${BASE}/rooms/list`, { token: visitor.token, body: { uuid, password: 'wrong' } })).toMatchObject({
      status: 403,
      body: { message: 'Wrong room password' },
    });

    // Removing the password opens the room.
    await call('PATCH', `${BASE}/rooms/${slug}`, { token: owner.token, body: { password: null } });
    expect((await call('POST', `${BASE}/rooms/${slug}/join`, { token: (await person()).token })).status).toBe(200);
  });

  it('keeps recent rooms, most recent first', async () => {
    const owner = await person();
    const visitor = await person();
    const a = (await create(owner.token, { name: 'Recent A' })).body;
    const b = (await create(owner.token, { name: 'Recent B' })).body;
    await call('POST', `${BASE}/rooms/${a.slug}/join`, { token: visitor.token });
    await call('POST', `${BASE}/rooms/${b.slug}/join`, { token: visitor.token });
    expect((await call('GET', `${BASE}/rooms/recent`, { token: visitor.token })).body.map((r: { slug: string }) => r.slug)).toEqual([
      b.slug,
      a.slug,
    ]);
    expect((await call('POST', `${BASE}/rooms/recent`, { token: visitor.token, body: { roomUuid: a.uuid } })).status).toBe(201);
    expect((await call('GET', `${BASE}/rooms/recent`, { token: visitor.token })).body.map((r: { slug: string }) => r.slug)).toEqual([
      a.slug,
      b.slug,
    ]);
    expect((await call('POST', `${BASE}/rooms/recent`, { token: visitor.token, body: { slug: 'no-such-room' } })).status).toBe(404);
  });

  it('keeps favourites per user', async () => {
    const owner = await person();
    const fan = await person();
    const open = (await create(owner.token, { name: 'Fav Open' })).body;
    const closed = (await create(owner.token, { name: 'Fav Closed', type: 'PRIVATE' })).body;
    const added = await call('POST', `${BASE}/api/v1/room-favorites`, { token: fan.token, body: { roomUuid: open.uuid } });
    expect(added).toMatchObject({ status: 201, body: { userUuid: fan.uuid, roomUuid: open.uuid, room: { slug: open.slug } } });
    expect((await call('POST', `${BASE}/api/v1/room-favorites`, { token: fan.token, body: { roomUuid: open.uuid } })).body.id).toBe(
      added.body.id,
    );
    await call('POST', `${BASE}/api/v1/room-favorites`, { token: fan.token, body: { roomUuid: closed.uuid } });

    expect((await call('GET', `${BASE}/api/v1/room-favorites`, { token: fan.token })).body).toHaveLength(2);
    expect(
      (await call('GET', `${BASE}/api/v1/room-favorites?roomUuidIn=${open.uuid}`, { token: fan.token })).body.map(
        (f: { roomUuid: string }) => f.roomUuid,
      ),
    ).toEqual([open.uuid]);
    expect((await call('GET', `${BASE}/rooms/favorites`, { token: fan.token })).body.map((r: { uuid: string }) => r.uuid)).toEqual([
      open.uuid,
    ]);
    expect((await call('GET', `${BASE}/rooms/favorites?includePrivate=true`, { token: fan.token })).body).toHaveLength(2);
    // Someone else's private favourites stay private.
    expect(
      (await call('GET', `${BASE}/rooms/favorites?userUuid=${fan.uuid}&includePrivate=true`, { token: owner.token })).body,
    ).toHaveLength(1);

    expect(await call('DELETE', `${BASE}/api/v1/room-favorites/${added.body.id}`, { token: owner.token })).toMatchObject({
      status: 404,
      body: { message: 'Room favorite not found' },
    });
    expect((await call('DELETE', `${BASE}/api/v1/room-favorites/${added.body.id}`, { token: fan.token })).status).toBe(200);
    expect((await call('GET', `${BASE}/api/v1/room-favorites`, { token: fan.token })).body).toHaveLength(1);
    expect((await call('GET', `${BASE}/api/v1/room-favorites`, { token: (await person('guest')).token })).status).toBe(403);
    expect((await call('POST', `${BASE}/api/v1/room-favorites`, { token: fan.token, body: { roomUuid: randomUUID() } })).status).toBe(404);
  });

  it('grants and removes roles along the ladder owner > coOwner > moderator', async () => {
    const [owner, coOwner, moderator, dj, member] = await Promise.all([person(), person(), person(), person(), person()]);
    const { slug } = (await create(owner.token, { name: 'Ladder Room' })).body;
    const grant = (by: { token: string }, userUuid: string, role: string, expirationTime?: string) =>
      call('POST', `${BASE}/roomUserRoles/${slug}`, {
        token: by.token,
        body: { userUuid, role, ...(expirationTime ? { expirationTime } : {}) },
      });

    expect(await grant(owner, coOwner.uuid, 'coOwner')).toMatchObject({
      status: 201,
      body: { userUuid: coOwner.uuid, role: 'coOwner', expirationTime: null },
    });
    expect((await grant(coOwner, moderator.uuid, 'moderator')).status).toBe(201);
    expect((await grant(moderator, dj.uuid, 'dj')).status).toBe(201);
    expect(await grant(moderator, member.uuid, 'coOwner')).toMatchObject({
      status: 403,
      body: { message: 'You are not allowed to change the coOwner role in this room' },
    });
    expect((await grant(moderator, member.uuid, 'moderator')).status).toBe(403);
    expect(await grant(moderator, coOwner.uuid, 'banned')).toMatchObject({
      status: 403,
      body: { message: 'You cannot moderate a user at or above your own role' },
    });
    expect((await grant(member, dj.uuid, 'djDisabled')).status).toBe(403);
    expect((await grant(owner, member.uuid, 'owner')).status).toBe(403);
    expect((await grant(owner, member.uuid, 'superstar')).status).toBe(400);

    // A ban keeps the user out until it is lifted.
    expect((await grant(moderator, member.uuid, 'banned')).status).toBe(201);
    expect(await call('POST', `${BASE}/rooms/${slug}/join`, { token: member.token })).toMatchObject({
      status: 403,
      body: { message: 'You are banned from this room' },
    });
    expect(
      (await call('GET', `${BASE}/roomUserRoles/${slug}/${member.uuid}`, { token: member.token })).body.map(
        (r: { role: string }) => r.role,
      ),
    ).toEqual(['banned']);
    expect(
      (await call('DELETE', `${BASE}/roomUserRoles/${slug}`, { token: moderator.token, body: { userUuid: member.uuid, role: 'banned' } }))
        .status,
    ).toBe(200);
    expect((await call('POST', `${BASE}/rooms/${slug}/join`, { token: member.token })).status).toBe(200);
    expect(
      await call('DELETE', `${BASE}/roomUserRoles/${slug}`, { token: moderator.token, body: { userUuid: member.uuid, role: 'banned' } }),
    ).toMatchObject({
      status: 404,
      body: { message: 'This user does not have this role in this room' },
    });
    // A moderator cannot take a coOwner's role away; the owner can; anyone may step down.
    expect(
      (await call('DELETE', `${BASE}/roomUserRoles/${slug}`, { token: moderator.token, body: { userUuid: coOwner.uuid, role: 'coOwner' } }))
        .status,
    ).toBe(403);
    expect(
      (await call('DELETE', `${BASE}/roomUserRoles/${slug}`, { token: dj.token, body: { userUuid: dj.uuid, role: 'dj' } })).status,
    ).toBe(200);

    const roles = (await call('GET', `${BASE}/roomUserRoles/${slug}`, { token: member.token })).body;
    expect(roles.map((r: { role: string; userUuid: string }) => [r.role, r.userUuid])).toEqual([
      ['owner', owner.uuid],
      ['coOwner', coOwner.uuid],
      ['moderator', moderator.uuid],
    ]);
    expect((await call('GET', `${BASE}/rooms/mine/list`, { token: moderator.token })).body.map((r: { slug: string }) => r.slug)).toEqual([
      slug,
    ]);
    expect((await call('GET', `${BASE}/rooms/users/${slug}`, { token: member.token })).body.userUuids).toEqual([
      owner.uuid,
      coOwner.uuid,
      moderator.uuid,
    ]);

    // Global roles stand above the owner.
    const admin = await person('admin');
    expect((await grant(admin, owner.uuid, 'chatDisabled')).status).toBe(201);
  });

  it('lets a role expire: an expired role is neither listed nor applied', async () => {
    const owner = await person();
    const member = await person();
    const { slug } = (await create(owner.token, { name: 'Expiry Room' })).body;
    const until = new Date(Date.now() + 1_000).toISOString();
    expect(
      await call('POST', `${BASE}/roomUserRoles/${slug}`, {
        token: owner.token,
        body: { userUuid: member.uuid, role: 'banned', expirationTime: until },
      }),
    ).toMatchObject({
      status: 201,
      body: { role: 'banned', expirationTime: until },
    });
    expect((await call('POST', `${BASE}/rooms/${slug}/join`, { token: member.token })).status).toBe(403);
    await eventually(
      async () =>
        (await call('GET', `${BASE}/roomUserRoles/${slug}/${member.uuid}`, { token: member.token })).body.length === 0 ? true : undefined,
      5_000,
    );
    expect((await call('POST', `${BASE}/rooms/${slug}/join`, { token: member.token })).status).toBe(200);
    expect(
      (await call('GET', `${BASE}/rooms/${slug}`, { token: member.token })).body.roomRoles.map((r: { role: string }) => r.role),
    ).toEqual(['owner']);
    const past = new Date(Date.now() - 60_000).toISOString();
    expect(
      (
        await call('POST', `${BASE}/roomUserRoles/${slug}`, {
          token: owner.token,
          body: { userUuid: member.uuid, role: 'dj', expirationTime: past },
        })
      ).status,
    ).toBe(400);
  });

  it('changes the owner: the new owner takes over, the previous one stays as coOwner', async () => {
    const owner = await person();
    const heir = await person();
    const { slug } = (await create(owner.token, { name: 'Heritage Room' })).body;
    expect(
      (await call('PUT', `${BASE}/roomUserRoles/change-owner/${slug}`, { token: heir.token, body: { userUuid: heir.uuid } })).status,
    ).toBe(403);
    const changed = await call('PUT', `${BASE}/roomUserRoles/change-owner/${slug}`, { token: owner.token, body: { userUuid: heir.uuid } });
    expect(changed).toMatchObject({ status: 200, body: { ownerUuid: heir.uuid } });
    expect(changed.body.roomRoles.map((r: { role: string; userUuid: string }) => [r.role, r.userUuid]).sort()).toEqual(
      [
        ['coOwner', owner.uuid],
        ['owner', heir.uuid],
      ].sort(),
    );
    expect(
      await call('PUT', `${BASE}/roomUserRoles/change-owner/${slug}`, { token: owner.token, body: { userUuid: owner.uuid } }),
    ).toMatchObject({
      status: 403,
      body: { message: 'Only the owner can hand the room to someone else' },
    });
    expect((await call('DELETE', `${BASE}/rooms/${slug}/infrastructure`, { token: owner.token })).status).toBe(403);
  });

  it('kicks a user for a while (the live room is tested in live-rooms.test.ts)', async () => {
    const owner = await person();
    const member = await person();
    const { slug } = (await create(owner.token, { name: 'Kick Room' })).body;
    const kicked = await call('POST', `${BASE}/roomUserRoles/kick-user-from-room`, {
      token: owner.token,
      body: { userUuid: member.uuid, slug },
    });
    expect(kicked).toMatchObject({ status: 201, body: { role: 'kicked', userUuid: member.uuid } });
    expect(new Date(kicked.body.expirationTime).getTime()).toBeGreaterThan(Date.now() + 60_000);
    expect(await call('POST', `${BASE}/rooms/${slug}/join`, { token: member.token })).toMatchObject({
      status: 403,
      body: { message: 'You were removed from this room, please try again later' },
    });
    expect(
      (await call('POST', `${BASE}/roomUserRoles/kick-user-from-room`, { token: member.token, body: { userUuid: owner.uuid, slug } }))
        .status,
    ).toBe(403);
    // An admin lifts the user's restrictions everywhere.
    expect((await call('PATCH', `${BASE}/rooms/user/${member.uuid}`, { token: owner.token })).status).toBe(403);
    expect(await call('PATCH', `${BASE}/rooms/user/${member.uuid}`, { token: (await person('admin')).token })).toMatchObject({
      status: 200,
      body: { lifted: 1 },
    });
    expect((await call('POST', `${BASE}/rooms/${slug}/join`, { token: member.token })).status).toBe(200);
  });

  it('pins messages for moderators and up; an empty list unpins', async () => {
    const owner = await person();
    const stranger = await person();
    const { slug } = (await create(owner.token, { name: 'Pin Room' })).body;
    const pinned = [
      {
        message: {
          message: 'welcome!',
          userName: 'DJ Ana',
          avatarId: 'stadium-dj',
          color: '#FF00AA',
          userUuid: owner.uuid,
          date: '2026-11-23T10:00:00.000Z',
          reactions: {},
          pinnedByName: 'DJ Ana',
          pinnedByUUID: owner.uuid,
        },
      },
    ];
    expect(
      await call('POST', `${BASE}/rooms/${slug}/pinned-messages`, { token: owner.token, body: { pinnedMessages: pinned } }),
    ).toMatchObject({ status: 200, body: { pinnedMessages: pinned } });
    expect((await call('GET', `${BASE}/rooms/${slug}`, { token: stranger.token })).body.pinnedMessages).toEqual(pinned);
    expect(
      (await call('POST', `${BASE}/rooms/${slug}/pinned-messages`, { token: stranger.token, body: { pinnedMessages: [] } })).status,
    ).toBe(403);
    expect(
      (
        await call('POST', `${BASE}/rooms/${slug}/pinned-messages`, {
          token: owner.token,
          body: { pinnedMessages: [{ text: 'no message' }] },
        })
      ).status,
    ).toBe(400);
    expect(await call('POST', `${BASE}/rooms/${slug}/pinned-messages`, { token: owner.token, body: { pinnedMessages: [] } })).toMatchObject(
      { status: 200, body: { pinnedMessages: [] } },
    );
    await call('POST', `${BASE}/rooms/${slug}/pinned-messages`, { token: owner.token, body: { pinnedMessages: pinned } });
    expect(await call('DELETE', `${BASE}/rooms/conversation/${slug}`, { token: owner.token })).toMatchObject({
      status: 200,
      body: { pinnedMessages: [] },
    });
  });

  it('sets posters and links, promotes for global roles, serves the live state from the live engine', async () => {
    const owner = await person();
    const admin = await person('admin');
    const { slug } = (await create(owner.token, { name: 'Poster Room' })).body;
    expect(
      await call('POST', `${BASE}/rooms/${slug}/poster`, { token: owner.token, body: { posterUrl: 'https://cdn.example.com/p.png' } }),
    ).toMatchObject({ status: 200, body: { posterUrl: 'https://cdn.example.com/p.png' } });
    expect(await call('DELETE', `${BASE}/rooms/${slug}/poster`, { token: owner.token })).toMatchObject({
      status: 200,
      body: { posterUrl: null },
    });
    expect(
      await call('POST', `${BASE}/rooms/${slug}/externalUrl`, { token: owner.token, body: { externalUrl: 'https://example.com' } }),
    ).toMatchObject({ status: 200, body: { externalUrl: 'https://example.com' } });
    expect(
      await call('PATCH', `${BASE}/rooms/promote/${slug}/infrastructure`, { token: owner.token, body: { promoted: true } }),
    ).toMatchObject({ status: 403, body: { message: 'You are not allowed to change promoted in this room' } });
    expect(
      await call('PATCH', `${BASE}/rooms/promote/${slug}/infrastructure`, {
        token: admin.token,
        body: { promoted: true, promotedProviders: ['spotify'] },
      }),
    ).toMatchObject({ status: 200, body: { promoted: true } });
    expect(
      (await call('GET', `${BASE}/rooms/promoted-rooms?providers=spotify`, { token: owner.token })).body.map(
        (r: { slug: string }) => r.slug,
      ),
    ).toContain(slug);
    expect(
      (await call('GET', `${BASE}/rooms/promoted-rooms?providers=apple`, { token: owner.token })).body.map((r: { slug: string }) => r.slug),
    ).not.toContain(slug);
    expect(await call('GET', `${BASE}/rooms/promoted-rooms?providers=spotify,myspace`, { token: owner.token })).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('providers must be among apple, audius') },
    });

    expect(await call('POST', `${BASE}/rooms/discord/123456789`, { token: owner.token, body: { slug } })).toMatchObject({
      status: 200,
      body: { discordGuildId: '123456789' },
    });
    expect(
      (await call('GET', `${BASE}/rooms/discord/list/123456789`, { token: owner.token })).body.map((r: { slug: string }) => r.slug),
    ).toEqual([slug]);

    expect(await call('GET', `${BASE}/rooms/room-state/${slug}`, { token: owner.token })).toMatchObject({ status: 200, body: {} });
    expect(await call('GET', `${BASE}/rooms/room-played-time/${slug}`, { token: owner.token })).toMatchObject({
      status: 200,
      body: { playedSeconds: 0 },
    });
    expect(await call('POST', `${BASE}/roomUserRoles/no-dancefloor-users`, { token: owner.token, body: { slug } })).toMatchObject({
      status: 200,
      body: { userUuids: [] },
    });
  });

  it('serves the admin paths to global roles only', async () => {
    const owner = await person();
    const admin = await person('admin');
    const room = (await create(owner.token, { name: 'Admin Room', password: 'members only' })).body;
    expect((await call('GET', `${BASE}/admin/rooms`, { token: owner.token })).status).toBe(403);
    const listed = await call('GET', `${BASE}/admin/rooms?limit=2`, { token: admin.token });
    expect(listed).toMatchObject({ status: 200, body: { count: 2, page: 1 } });
    expect(listed.body.pageCount).toBe(Math.ceil(listed.body.total / 2));
    expect(await call('GET', `${BASE}/admin/rooms/${room.id}`, { token: admin.token })).toMatchObject({
      status: 200,
      body: { uuid: room.uuid },
    });
    expect((await call('PATCH', `${BASE}/rooms/admin/${room.id}`, { token: owner.token, body: { vibe: 'x' } })).status).toBe(403);
    expect(
      await call('PATCH', `${BASE}/rooms/admin/${room.id}`, { token: admin.token, body: { name: 'Renamed by admin', promoted: true } }),
    ).toMatchObject({ status: 200, body: { name: 'Renamed by admin', promoted: true } });

    expect(
      await call('POST', `${BASE}/rooms/admin/guest-password`, {
        token: admin.token,
        body: { slug: room.slug, guestPassword: 'guests welcome' },
      }),
    ).toMatchObject({ status: 200, body: { isGuestPasswordProtected: true } });
    const guest = await person('guest');
    expect(
      (await call('POST', `${BASE}/rooms/${room.slug}/join`, { token: guest.token, body: { password: 'guests welcome' } })).status,
    ).toBe(200);
    expect(
      (await call('POST', `${BASE}/rooms/${room.slug}/join`, { token: (await person()).token, body: { password: 'guests welcome' } }))
        .status,
    ).toBe(403);
    expect(await call('DELETE', `${BASE}/rooms/admin/guest-password`, { token: admin.token, body: { slug: room.slug } })).toMatchObject({
      status: 200,
      body: { isGuestPasswordProtected: false },
    });

    // Forgetting a user keeps the rooms they own.
    const fan = await person();
    await call('POST', `${BASE}/api/v1/room-favorites`, { token: fan.token, body: { roomUuid: room.uuid } });
    expect((await call('DELETE', `${BASE}/rooms/user/${fan.uuid}`, { token: fan.token })).status).toBe(200);
    expect((await call('GET', `${BASE}/api/v1/room-favorites`, { token: fan.token })).body).toEqual([]);
    expect((await call('DELETE', `${BASE}/rooms/user/${owner.uuid}`, { token: admin.token })).status).toBe(200);
    expect((await call('GET', `${BASE}/rooms/uuid/${room.uuid}`, { token: admin.token })).body.ownerUuid).toBe(owner.uuid);
  });

  it('answers room access for the live engine over gRPC (canDj by djType, highest role, chat restrictions)', async () => {
    const owner = await person();
    const member = await person();
    const room = (await create(owner.token, { name: 'Access Room', djType: 'INVITE_ONLY' })).body;
    const client = createGrpcClient(RoomServiceClient, `127.0.0.1:${platform().room.service.port}`);
    try {
      const ask = (token: string, userUuid: string, tokenRole = UserRole.USER_ROLE_UNSPECIFIED) =>
        client.getRoomAccess({ roomUuid: room.uuid, userUuid, tokenRole }, { token });
      expect(await ask(member.token, member.uuid)).toMatchObject({
        canDj: false,
        highestRole: RoomUserRole.ROOM_USER_ROLE_UNSPECIFIED,
        banned: false,
        canJoin: true,
        chatDisabled: false,
        room: { uuid: room.uuid },
      });
      expect(await ask(owner.token, owner.uuid)).toMatchObject({ canDj: true, highestRole: RoomUserRole.ROOM_USER_ROLE_OWNER });
      await call('POST', `${BASE}/roomUserRoles/${room.slug}`, { token: owner.token, body: { userUuid: member.uuid, role: 'dj' } });
      const until = new Date(Date.now() + 3_600_000);
      await call('POST', `${BASE}/roomUserRoles/${room.slug}`, {
        token: owner.token,
        body: { userUuid: member.uuid, role: 'chatDisabled', expirationTime: until.toISOString() },
      });
      expect(await ask(member.token, member.uuid)).toMatchObject({
        canDj: true,
        highestRole: RoomUserRole.ROOM_USER_ROLE_DJ,
        chatDisabled: true,
        chatDisabledUntil: until,
      });
      // Someone else's access is for services and administrators.
      await expect(ask(owner.token, member.uuid)).rejects.toMatchObject({ status: 403 });
      expect(await ask((await person('admin')).token, member.uuid, UserRole.USER_ROLE_USER)).toMatchObject({ canDj: true });
      // The live engine and the chat service ask with a service token, naming the user's token role.
      expect(await ask(await signedToken('service', 'live-engine'), member.uuid, UserRole.USER_ROLE_GUEST)).toMatchObject({
        canDj: false,
        highestRole: RoomUserRole.ROOM_USER_ROLE_DJ,
      });
      await expect(ask(await signedToken('service', 'live-engine'), member.uuid, 99 as UserRole)).rejects.toMatchObject({
        status: 400,
        messages: expect.stringContaining('tokenRole must be one of globalModerator'),
      });
      expect(
        (await client.getRoom({ room: { uuid: '', slug: room.slug, id: 0 } }, { token: await signedToken('service', 'chat') })).room?.uuid,
      ).toBe(room.uuid);
      // The admin paths' permission is the service's: a request marked admin is for global roles only.
      const byId = { room: { uuid: '', slug: '', id: room.id }, admin: true };
      await expect(client.getRoom(byId, { token: owner.token })).rejects.toMatchObject({
        status: 403,
        messages: 'Only administrators can do this',
      });
      const all = {
        listing: RoomListing.ROOM_LISTING_ALL,
        limit: 1,
        offset: 0,
        providers: [],
        discordGuildId: '',
        rooms: [],
        userUuid: '',
        includePrivate: false,
        admin: true,
      };
      await expect(client.listRooms(all, { token: owner.token })).rejects.toMatchObject({ status: 403 });
      expect((await client.getRoom(byId, { token: (await person('admin')).token })).room?.uuid).toBe(room.uuid);
      // Enums carry the spec's words: a value outside them (or none where one is needed) is the caller's mistake.
      const ref = { uuid: room.uuid, slug: '', id: 0 };
      await expect(
        client.updateRoom(
          { room: ref, settings: RoomSettings.fromPartial({ design: RoomDesign.ROOM_DESIGN_UNSPECIFIED }), admin: false },
          { token: owner.token },
        ),
      ).rejects.toMatchObject({ status: 400, messages: expect.stringContaining('design must be one of BARN, BARN_UA, CHAT_ONLY') });
      await expect(
        client.grantRoomRole({ room: ref, userUuid: member.uuid, role: RoomUserRole.ROOM_USER_ROLE_UNSPECIFIED }, { token: owner.token }),
      ).rejects.toMatchObject({ status: 400 });
      const updated = await client.updateRoom(
        { room: ref, settings: RoomSettings.fromPartial({ design: RoomDesign.ROOM_DESIGN_YACHT }), admin: false },
        { token: owner.token },
      );
      expect(updated.room?.design).toBe(RoomDesign.ROOM_DESIGN_YACHT);
      expect((await call('GET', `${BASE}/rooms/${room.slug}`, { token: member.token })).body.design).toBe('YACHT');
    } finally {
      client.close();
    }
  });

  it('accepts a real sign-up token', async () => {
    const { body } = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: freshEmail(), password: 'correct horse battery' },
    });
    const created = await create(body.accessToken, { name: 'Signed Up Room' });
    expect(created).toMatchObject({ status: 201, body: { ownerUuid: body.userUuid } });
  });
});

describe('moderation actions on Kafka', () => {
  const { call } = usePlatform();
  const seen = useTopic('moderation-actions');

  it('announces bans (temporary ones too), grants and removals with actor, target and roles', async () => {
    const owner = await person();
    const member = await person();
    const { slug, uuid } = (await call('POST', `${BASE}/rooms/infrastructure`, { token: owner.token, body: { name: 'Moderated Room' } }))
      .body;
    const until = new Date(Date.now() + 3_600_000);
    await call('POST', `${BASE}/roomUserRoles/${slug}`, {
      token: owner.token,
      body: { userUuid: member.uuid, role: 'banned', expirationTime: until.toISOString() },
    });
    await call('DELETE', `${BASE}/roomUserRoles/${slug}`, { token: owner.token, body: { userUuid: member.uuid, role: 'banned' } });
    await call('POST', `${BASE}/roomUserRoles/${slug}`, { token: owner.token, body: { userUuid: member.uuid, role: 'banned' } });

    const actions = await eventually(async () => {
      const mine = seen
        .filter((m) => m.key === uuid)
        .map((m) => ({ ...m, action: ModerationAction.decode(m.value) }))
        .map((m) => ({
          ...m,
          action: {
            ...m.action,
            actionType: moderationActionTypes.nameOf(m.action.actionType),
            previousRole: moderationRoleName(m.action.previousRole),
            role: moderationRoleName(m.action.role),
            actorTokenRole: userRoles.nameOf(m.action.actorTokenRole),
          },
        }))
        .filter((m) => m.action.targetUserUuid === member.uuid);
      return mine.length >= 3 ? mine : undefined;
    }, 20_000);
    expect(actions.map((a) => a.action.actionType)).toEqual(['temporaryBan', 'removeRole', 'banUser']);
    expect(actions[0]).toMatchObject({
      key: uuid,
      headers: { 'event-type': 'moderation.action' },
      action: {
        roomUuid: uuid,
        actorUserUuid: owner.uuid,
        role: { room: 'banned' },
        previousRole: undefined,
        expirationTime: until,
        actorTokenRole: 'user',
      },
    });
    expect(actions[0]!.action.metadata?.eventId).toBe(actions[0]!.headers['event-id']);
    expect(actions[1]!.action).toMatchObject({ previousRole: { room: 'banned' }, role: undefined });
  });
});
