// Friends through the BFF (issue 17): an invitation is sent, listed for its
// recipient and its sender, read by either, accepted or rejected through
// handle-friend by its recipient only; friends are listed, read and ended;
// each invitation and each answer is announced once on social-events.
import { randomUUID } from 'node:crypto';
import { FriendInvitationAnswered, FriendInvitationSent } from '@spinroom/contracts/events/v1/social_events';
import { eventually } from '@spinroom/platform/testing';
import { describe, expect, it } from 'vitest';
import { signedToken, usePlatform, useTopic } from '../support/platform.js';

const SOCIAL = '/api/social-service';
const INVITATIONS = `${SOCIAL}/friend-invitations`;

describe('friends through the BFF', () => {
  const { call } = usePlatform();
  const events = useTopic('social-events');

  it('invites, accepts, lists and unfriends', async () => {
    const [alice, bob, carol] = [randomUUID(), randomUUID(), randomUUID()];
    const [aliceToken, bobToken, carolToken] = [
      await signedToken('user', alice),
      await signedToken('user', bob),
      await signedToken('user', carol),
    ];
    expect((await call('POST', INVITATIONS, { body: { userUuid: bob } })).status).toBe(401);
    expect((await call('POST', INVITATIONS, { token: aliceToken, body: { userUuid: alice } })).body.message).toBe(
      'You cannot invite yourself',
    );
    const sent = await call('POST', INVITATIONS, { token: aliceToken, body: { userUuid: bob } });
    expect(sent).toMatchObject({ status: 201, body: { fromUuid: alice, toUuid: bob, status: 'PENDING', answeredAt: null } });
    expect(await call('POST', INVITATIONS, { token: bobToken, body: { userUuid: alice } })).toMatchObject({
      status: 409,
      body: { message: 'A friend invitation between you is already pending' },
    });

    expect((await call('GET', `${INVITATIONS}/user-invitations-for`, { token: bobToken })).body).toMatchObject({
      total: 1,
      data: [{ id: sent.body.id }],
    });
    expect((await call('GET', `${INVITATIONS}/user-invitations-from`, { token: aliceToken })).body.total).toBe(1);
    expect((await call('GET', `${INVITATIONS}/user-invitations-for`, { token: aliceToken })).body.total).toBe(0);
    expect((await call('GET', `${INVITATIONS}/user-invitations/${sent.body.id}`, { token: bobToken })).body.id).toBe(sent.body.id);
    expect(await call('GET', `${INVITATIONS}/user-invitations/${sent.body.id}`, { token: carolToken })).toMatchObject({
      status: 404,
      body: { message: 'Friend invitation not found' },
    });

    const handle = (token: string, status: string) =>
      call('POST', `${INVITATIONS}/handle-friend`, { token, body: { invitationId: sent.body.id, status } });
    expect((await handle(aliceToken, 'ACCEPTED')).status).toBe(403);
    expect((await handle(bobToken, 'MAYBE')).status).toBe(400);
    const accepted = await handle(bobToken, 'ACCEPTED');
    expect(accepted).toMatchObject({
      status: 200,
      body: { invitation: { status: 'ACCEPTED' }, friend: { userUuid: bob, friendUuid: alice } },
    });
    expect((await handle(bobToken, 'REJECTED')).body.message).toBe('This friend invitation was already answered');
    expect((await call('POST', INVITATIONS, { token: bobToken, body: { userUuid: alice } })).body.message).toBe('You are already friends');

    const friendship = accepted.body.friend.id;
    expect((await call('GET', `${SOCIAL}/friends/${alice}`, { token: bobToken })).body).toMatchObject({
      id: friendship,
      friendUuid: alice,
    });
    expect((await call('GET', `${SOCIAL}/friends/single-friend/${bob}`, { token: aliceToken })).body).toMatchObject({
      id: friendship,
      friendUuid: bob,
    });
    expect((await call('GET', `${SOCIAL}/friends/${friendship}`, { token: aliceToken })).body.friendUuid).toBe(bob);
    expect(await call('GET', `${SOCIAL}/friends/${friendship}`, { token: carolToken })).toMatchObject({
      status: 404,
      body: { message: 'Friend not found' },
    });
    expect((await call('GET', `${SOCIAL}/friends/list/${alice}`, { token: carolToken })).body).toMatchObject({
      total: 1,
      data: [{ userUuid: alice, friendUuid: bob }],
    });

    expect((await call('DELETE', `${SOCIAL}/friends/${alice}`, { token: bobToken })).status).toBe(200);
    expect((await call('GET', `${SOCIAL}/friends/list/${alice}`, { token: aliceToken })).body.total).toBe(0);
    expect((await call('DELETE', `${SOCIAL}/friends/${bob}`, { token: aliceToken })).status).toBe(404);

    // Sent and answered were each announced once: the invitation to its recipient, the answer to its sender.
    const announced = await eventually(async () => {
      const invitation = events.filter((m) => m.headers['event-type'] === 'social.friend-invitation-sent' && m.key === bob);
      const answer = events.filter((m) => m.headers['event-type'] === 'social.friend-invitation-answered' && m.key === alice);
      return invitation.length > 0 && answer.length > 0 ? { invitation, answer } : undefined;
    }, 30_000);
    expect(announced.invitation.map((m) => FriendInvitationSent.decode(m.value))).toMatchObject([
      { invitationId: sent.body.id, fromUuid: alice, toUuid: bob },
    ]);
    expect(announced.answer.map((m) => FriendInvitationAnswered.decode(m.value))).toMatchObject([
      { invitationId: sent.body.id, fromUuid: alice, toUuid: bob, accepted: true },
    ]);
  });

  it('rejects, withdraws and dismisses invitations', async () => {
    const [alice, bob] = [randomUUID(), randomUUID()];
    const [aliceToken, bobToken] = [await signedToken('user', alice), await signedToken('user', bob)];
    const first = await call('POST', INVITATIONS, { token: aliceToken, body: { userUuid: bob } });
    const rejected = await call('POST', `${INVITATIONS}/handle-friend`, {
      token: bobToken,
      body: { invitationId: first.body.id, status: 'REJECTED' },
    });
    expect(rejected.body).toMatchObject({ invitation: { status: 'REJECTED' }, friend: null });
    expect(rejected.body.invitation.answeredAt).not.toBeNull();
    expect((await call('GET', `${SOCIAL}/friends/${bob}`, { token: aliceToken })).status).toBe(404);

    // A rejected invitation may be followed by another; its sender withdraws it, or its recipient dismisses it.
    const second = await call('POST', INVITATIONS, { token: aliceToken, body: { userUuid: bob } });
    expect(second.status).toBe(201);
    expect((await call('DELETE', `${INVITATIONS}/${second.body.id}`, { token: aliceToken })).status).toBe(200);
    const third = await call('POST', INVITATIONS, { token: bobToken, body: { userUuid: alice } });
    expect((await call('DELETE', `${INVITATIONS}/${third.body.id}`, { token: await signedToken('user') })).status).toBe(404);
    expect((await call('DELETE', `${INVITATIONS}/${third.body.id}`, { token: aliceToken })).status).toBe(200);
    expect((await call('DELETE', `${INVITATIONS}/${third.body.id}`, { token: aliceToken })).status).toBe(404);
    expect((await call('GET', `${INVITATIONS}/user-invitations-for`, { token: aliceToken })).body.total).toBe(0);
    expect((await call('POST', INVITATIONS, { token: await signedToken('guest'), body: { userUuid: bob } })).status).toBe(403);
  });
});
