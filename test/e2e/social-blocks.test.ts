// Blocked users through the BFF (issue 17): a user blocks another (idempotent),
// reads and ends the block by its id or the blocked user's uuid; guests may not
// block; a block refuses friend invitations either way and ends the pending
// one; other services learn blocks through AreBlocked and ListBlocks.
import { randomUUID } from 'node:crypto';
import { SocialServiceClient } from '@spinroom/contracts/social/v1/social_service';
import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { createGrpcClient } from '@spinroom/platform';
import { describe, expect, it } from 'vitest';
import { signedToken, TEST_SERVICE_SECRET, usePlatform } from '../support/platform.js';

const SOCIAL = '/api/social-service';

describe('blocked users through the BFF', () => {
  const { call, platform } = usePlatform();

  it('blocks, lists, reads and unblocks, by the block id or the blocked user', async () => {
    const alice = randomUUID();
    const bob = randomUUID();
    const carol = randomUUID();
    const token = await signedToken('user', alice);
    expect((await call('POST', `${SOCIAL}/blocked-users`, { body: { blockedUserUuid: bob } })).status).toBe(401);
    expect(
      (await call('POST', `${SOCIAL}/blocked-users`, { token: await signedToken('guest'), body: { blockedUserUuid: bob } })).status,
    ).toBe(403);
    expect((await call('POST', `${SOCIAL}/blocked-users`, { token, body: { blockedUserUuid: 'bob' } })).status).toBe(400);
    expect((await call('POST', `${SOCIAL}/blocked-users`, { token, body: { blockedUserUuid: alice } })).body.message).toBe(
      'You cannot block yourself',
    );

    const first = await call('POST', `${SOCIAL}/blocked-users`, { token, body: { blockedUserUuid: bob } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ blockerUuid: alice, blockedUuid: bob });
    const again = await call('POST', `${SOCIAL}/blocked-users`, { token, body: { blockedUserUuid: bob } });
    expect(again.body.id).toBe(first.body.id);
    await call('POST', `${SOCIAL}/blocked-users`, { token, body: { blockedUserUuid: carol } });

    const listed = await call('GET', `${SOCIAL}/blocked-users?take=1`, { token });
    expect(listed.body).toMatchObject({ total: 2, skip: 0, take: 1 });
    expect(listed.body.data.map((b: { blockedUuid: string }) => b.blockedUuid)).toEqual([carol]);
    expect((await call('GET', `${SOCIAL}/blocked-users?skip=5`, { token })).body).toMatchObject({ data: [], total: 2 });

    expect((await call('GET', `${SOCIAL}/blocked-users/${bob}`, { token })).body.id).toBe(first.body.id);
    expect((await call('GET', `${SOCIAL}/blocked-users/${first.body.id}`, { token })).body.blockedUuid).toBe(bob);
    // Another's block is not the caller's to see.
    expect(await call('GET', `${SOCIAL}/blocked-users/${first.body.id}`, { token: await signedToken('user', bob) })).toMatchObject({
      status: 404,
      body: { message: 'Blocked user not found' },
    });

    expect((await call('DELETE', `${SOCIAL}/blocked-users/${first.body.id}`, { token })).status).toBe(200);
    expect((await call('DELETE', `${SOCIAL}/blocked-users/${bob}`, { token })).status).toBe(404);
    expect((await call('DELETE', `${SOCIAL}/blocked-users/${carol}`, { token })).status).toBe(200);
    expect((await call('GET', `${SOCIAL}/blocked-users`, { token })).body).toMatchObject({ data: [], total: 0 });
  });

  it('refuses friend invitations between blocked users either way, and ends the pending one', async () => {
    const alice = randomUUID();
    const bob = randomUUID();
    const aliceToken = await signedToken('user', alice);
    const bobToken = await signedToken('user', bob);
    const pending = await call('POST', `${SOCIAL}/friend-invitations`, { token: aliceToken, body: { userUuid: bob } });
    expect(pending.status).toBe(201);
    await call('POST', `${SOCIAL}/blocked-users`, { token: bobToken, body: { blockedUserUuid: alice } });
    // The block ended the pending invitation.
    expect((await call('GET', `${SOCIAL}/friend-invitations/user-invitations-for`, { token: bobToken })).body.total).toBe(0);
    for (const [token, to] of [
      [aliceToken, bob],
      [bobToken, alice],
    ] as const) {
      expect(await call('POST', `${SOCIAL}/friend-invitations`, { token, body: { userUuid: to } })).toMatchObject({
        status: 403,
        body: { message: 'You cannot invite this user' },
      });
    }
    await call('DELETE', `${SOCIAL}/blocked-users/${alice}`, { token: bobToken });
    expect((await call('POST', `${SOCIAL}/friend-invitations`, { token: aliceToken, body: { userUuid: bob } })).status).toBe(201);
  });

  it('tells other services who blocked whom (AreBlocked, ListBlocks), and no one else', async () => {
    const alice = randomUUID();
    const bob = randomUUID();
    await call('POST', `${SOCIAL}/blocked-users`, { token: await signedToken('user', alice), body: { blockedUserUuid: bob } });
    const userClient = createGrpcClient(UserServiceClient, platform().grpc.user);
    const social = createGrpcClient(SocialServiceClient, platform().grpc.social);
    try {
      const { accessToken } = await userClient.issueServiceToken({ serviceName: 'chat', clientSecret: TEST_SERVICE_SECRET });
      expect(await social.areBlocked({ userUuid: bob, otherUserUuid: alice }, { token: accessToken })).toEqual({
        blocked: true,
        userBlockedOther: false,
        otherBlockedUser: true,
      });
      expect(await social.listBlocks({ userUuid: bob }, { token: accessToken })).toEqual({ blockedUuids: [], blockedByUuids: [alice] });
      expect(await social.listBlocks({ userUuid: alice }, { token: accessToken })).toEqual({ blockedUuids: [bob], blockedByUuids: [] });
      const stranger = await signedToken('user');
      await expect(social.listBlocks({ userUuid: alice }, { token: stranger })).rejects.toMatchObject({ status: 403 });
      await expect(social.areBlocked({ userUuid: alice, otherUserUuid: bob }, { token: stranger })).rejects.toMatchObject({ status: 403 });
    } finally {
      userClient.close();
      social.close();
    }
  });

  it("leaves the blocker's rooms out of the blocked user's room lists, and only theirs", async () => {
    const owner = randomUUID();
    const blocked = randomUUID();
    const other = randomUUID();
    const ownerToken = await signedToken('user', owner);
    const room = (
      await call('POST', '/api/room-service/rooms/infrastructure', {
        token: ownerToken,
        body: { name: `Blocker ${randomUUID().slice(0, 8)}` },
      })
    ).body;
    const listed = async (viewer: string) => {
      const page = await call('GET', '/api/room-service/rooms/public?limit=100', { token: await signedToken('user', viewer) });
      expect(page.status).toBe(200);
      return (page.body.rooms as Array<{ uuid: string }>).some((r) => r.uuid === room.uuid);
    };
    expect(await listed(blocked)).toBe(true);
    expect((await call('POST', `${SOCIAL}/blocked-users`, { token: ownerToken, body: { blockedUserUuid: blocked } })).status).toBe(201);
    expect(await listed(blocked)).toBe(false);
    expect(await listed(other)).toBe(true);
    // Global roles see every room.
    const staff = await call('GET', '/api/room-service/rooms/public?limit=100', { token: await signedToken('admin', blocked) });
    expect((staff.body.rooms as Array<{ uuid: string }>).some((r) => r.uuid === room.uuid)).toBe(true);
    expect((await call('DELETE', `${SOCIAL}/blocked-users/${blocked}`, { token: ownerToken })).status).toBe(200);
    expect(await listed(blocked)).toBe(true);
  });
});
