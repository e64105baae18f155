// User book contacts through the BFF (issue 17, spec 002): a member stores an
// address book, kept only as HMACs of its normalised phone numbers and
// emails; its contacts who signed up are matched (from user-events), with
// whether they are friends or invited, unless blocked either way; admins
// read a user's stored contacts.
import { randomInt, randomUUID } from 'node:crypto';
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

  it('matches the numbers people sign in with: a phone sign-up, and a number added and then removed', async () => {
    // A US mobile number (the Twilio stand-in's default line type), as test/e2e/mobile.test.ts makes them.
    const freshPhone = () => `+1415${randomInt(200, 1000)}${String(randomInt(0, 10_000)).padStart(4, '0')}`;
    const byPhone = freshPhone();
    await call('POST', '/api/user-service/mobile-auth/send-code', { body: { phone: byPhone, channel: 'sms' } });
    const verified = await call('POST', '/api/user-service/mobile-auth/verify-code', {
      body: { phone: byPhone, code: platform().twilio.lastCode(byPhone)! },
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    const phoneUser = verified.body.userUuid as string;
    const other = (
      await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery' } })
    ).body;
    const added = freshPhone();
    const admin = await signedToken('admin');
    const number = await call('POST', '/api/user-service/admin/phoneNumbers', {
      token: admin,
      body: { userUuid: other.userUuid, phone: added },
    });
    expect(number.status, JSON.stringify(number.body)).toBe(201);

    // An address book writes the numbers its own way; the directory has them normalised and hashed.
    const me = (await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery' } }))
      .body;
    const spaced = (phone: string) => `${phone.slice(0, 2)} (${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`;
    const book = { contacts: [{ phoneNumbers: [spaced(byPhone)] }, { phoneNumbers: [spaced(added)] }] };
    expect((await call('POST', BOOK, { token: me.accessToken, body: book })).status).toBe(201);
    const matched = async () =>
      ((await call('GET', `${BOOK}/matching-contacts`, { token: me.accessToken })).body as Array<{ userUuid: string; kind: string }>)
        .map((m) => `${m.userUuid}:${m.kind}`)
        .sort();
    await expect.poll(matched, { timeout: 30_000 }).toEqual([`${other.userUuid}:phone`, `${phoneUser}:phone`].sort());

    // The number removed: no longer matched.
    expect((await call('DELETE', `/api/user-service/admin/phoneNumbers/${number.body.id}`, { token: admin })).status).toBe(200);
    await expect.poll(matched, { timeout: 30_000 }).toEqual([`${phoneUser}:phone`]);
  });
});
