// User book contacts through the BFF (issue 17, spec 002): a member stores an
// address book, kept only as HMACs of its normalised phone numbers and
// emails; its contacts who signed up are matched (from user-events), with
// whether they are friends or invited, unless blocked either way; admins
// read a user's stored contacts.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { eventually } from '@spinroom/platform/testing';
import { describe, expect, it } from 'vitest';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';

const SOCIAL = '/api/social-service';
const BOOK = `${SOCIAL}/user-book-contact`;

describe('user book contacts through the BFF', () => {
  const { call, platform } = usePlatform();

  it('stores hashes only, matches contacts who signed up, and forgets the book', async () => {
    const signUp = async (email: string) =>
      (await call('POST', '/api/user-service/users/sign-up', { body: { email, password: 'correct horse battery' } })).body as {
        accessToken: string;
        userUuid: string;
      };
    const me = await signUp(freshEmail());
    const friendEmail = freshEmail();
    const friend = await signUp(friendEmail);
    const strangerEmail = freshEmail();
    const stranger = await signUp(strangerEmail);
    const token = me.accessToken;

    expect((await call('POST', BOOK, { body: { contacts: [] } })).status).toBe(401);
    expect((await call('POST', BOOK, { token: await signedToken('guest'), body: { contacts: [] } })).status).toBe(403);
    const stored = await call('POST', BOOK, {
      token,
      body: {
        contacts: [
          { phoneNumbers: ['+1 (555) 010-9999', 'not a number'], emails: [`  ${friendEmail.toUpperCase()} `] },
          { emails: ['nobody@example.org'] },
        ],
      },
    });
    expect(stored).toMatchObject({ status: 201, body: { stored: 3, total: 3, skipped: 1 } });
    expect((await call('POST', `${BOOK}/single`, { token, body: { emails: [friendEmail] } })).body).toMatchObject({ stored: 0, total: 3 });

    // What is kept: HMACs, never the numbers or addresses.
    const client = new pg.Client({ connectionString: platform().services.social.databaseUrl });
    await client.connect();
    try {
      const rows = (await client.query('select * from "user_book_contact" where "owner_uuid" = $1', [me.userUuid])).rows;
      expect(rows).toHaveLength(3);
      expect(JSON.stringify(rows)).not.toMatch(/555|example\.org|@/);
      for (const row of rows) expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await client.end();
    }
    const listed = await call('GET', `${BOOK}?take=2`, { token });
    expect(listed.body).toMatchObject({ total: 3, take: 2 });
    expect(listed.body.data[0]).toEqual({
      id: expect.any(String),
      kind: expect.stringMatching(/phone|email/),
      createdAt: expect.any(String),
    });

    // The friend's sign-up reached the directory through user-events: matched, not yet a friend.
    const matches = await eventually(async () => {
      const found = (await call('GET', `${BOOK}/matching-contacts`, { token })).body;
      return Array.isArray(found) && found.length > 0 ? found : undefined;
    }, 30_000);
    expect(matches).toEqual([
      { userUuid: friend.userUuid, kind: 'email', isFriend: false, pendingInvitationId: null, invitedByCaller: false },
    ]);

    // Contacts given to matching-contacts-friends are matched too, but not stored; invitations and friendships show.
    await eventually(async () => {
      const found = (await call('POST', `${BOOK}/matching-contacts-friends`, { token, body: { contacts: [{ emails: [strangerEmail] }] } }))
        .body;
      return Array.isArray(found) && found.length === 2 ? found : undefined;
    }, 30_000);
    const invitation = await call('POST', `${SOCIAL}/friend-invitations`, { token, body: { userUuid: stranger.userUuid } });
    const withFriends = await call('POST', `${BOOK}/matching-contacts-friends`, {
      token,
      body: { contacts: [{ emails: [strangerEmail] }] },
    });
    expect(withFriends.body).toContainEqual({
      userUuid: stranger.userUuid,
      kind: 'email',
      isFriend: false,
      pendingInvitationId: invitation.body.id,
      invitedByCaller: true,
    });
    expect((await call('GET', BOOK, { token })).body.total).toBe(3);
    await call('POST', `${SOCIAL}/friend-invitations/handle-friend`, {
      token: stranger.accessToken,
      body: { invitationId: invitation.body.id, status: 'ACCEPTED' },
    });
    const afterAccept = await call('POST', `${BOOK}/matching-contacts-friends`, {
      token,
      body: { contacts: [{ emails: [strangerEmail] }] },
    });
    expect(afterAccept.body).toContainEqual({
      userUuid: stranger.userUuid,
      kind: 'email',
      isFriend: true,
      pendingInvitationId: null,
      invitedByCaller: false,
    });

    // A block either way hides the match.
    await call('POST', `${SOCIAL}/blocked-users`, { token: stranger.accessToken, body: { blockedUserUuid: me.userUuid } });
    const afterBlock = await call('POST', `${BOOK}/matching-contacts-friends`, {
      token,
      body: { contacts: [{ emails: [strangerEmail] }] },
    });
    expect(afterBlock.body.map((m: { userUuid: string }) => m.userUuid)).toEqual([friend.userUuid]);
    await call('DELETE', `${SOCIAL}/blocked-users/${me.userUuid}`, { token: stranger.accessToken });

    // Admins read a user's stored contacts; others may not.
    expect((await call('GET', `${BOOK}/admin/${me.userUuid}`, { token: friend.accessToken })).status).toBe(403);
    expect((await call('GET', `${BOOK}/admin/${me.userUuid}`, { token: await signedToken('admin') })).body.total).toBe(3);

    // replace: true forgets the earlier book; DELETE forgets all of it.
    expect((await call('POST', BOOK, { token, body: { contacts: [{ emails: [strangerEmail] }], replace: true } })).body).toMatchObject({
      stored: 1,
      total: 1,
    });
    expect((await call('GET', `${BOOK}/matching-contacts`, { token })).body.map((m: { userUuid: string }) => m.userUuid)).toEqual([
      stranger.userUuid,
    ]);
    expect((await call('DELETE', BOOK, { token })).body).toEqual({ deleted: 1 });
    expect((await call('GET', `${BOOK}/matching-contacts`, { token })).body).toEqual([]);
    expect((await call('GET', BOOK, { token: await signedToken('user', randomUUID()) })).body.total).toBe(0);
  });
});
