import {
  dropDatabase,
  TokenIssuer,
  TokenVerifier,
  createOrm,
  ensureDatabase,
  migrate,
  OutboxMessage,
  type MikroORM,
} from '@spinroom/platform';
import { testInfra, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import { UserEntity } from '../src/db/user-entity.js';
import { PgUserStore } from '../src/db/user-store.js';
import { Accounts } from '../src/domain/accounts.js';
import { PasswordHasher } from '../src/domain/passwords.js';
import { userSignedUp } from '../src/events/user-events.js';
import { UserProfileUpdated, UserSignedUp } from '@spinroom/contracts/events/v1/user_events';
import { UserKind } from '@spinroom/contracts/user/v1/user_service';

describe('accounts on PostgreSQL', () => {
  const databaseUrl = uniqueDatabaseUrl('user_accounts');
  let orm: MikroORM;
  let accounts: Accounts;
  let verifier: TokenVerifier;

  beforeAll(async () => {
    await ensureDatabase(databaseUrl);
    orm = await createOrm({ databaseUrl, entities: [UserEntity, OutboxMessage], migrations });
    await migrate(orm);
    const tokens = await TokenIssuer.fromPem(testInfra().signingKeyPem, { issuer: 'spinroom', ttlSeconds: 600 });
    verifier = await TokenVerifier.fromPem(tokens.publicKeyPem, { issuer: 'spinroom' });
    accounts = new Accounts(new PgUserStore(orm), new PasswordHasher(), tokens, userSignedUp);
  });

  const staged = (key: string) =>
    orm.em
      .fork()
      .execute<{ event_type: string; payload: Buffer }[]>(
        `select "event_type", "payload" from "outbox_message" where "key" = ? order by "created_at"`,
        [key],
      );

  afterAll(async () => {
    await orm.close();
    await dropDatabase(databaseUrl);
  });

  it('signs up once per email, case-insensitively, and stages the event with the row', async () => {
    const grant = await accounts.signUp({ email: 'Ana@Example.com', password: 'correct horse battery' });
    expect((await verifier.verify(grant.accessToken)).userUuid).toBe(grant.userUuid);
    await expect(accounts.signUp({ email: 'ana@example.com', password: 'another good one' })).rejects.toMatchObject({
      status: 403,
      messages: 'This email is already registered',
    });
    const rows = await orm.em.fork().execute<{ event_type: string; key: string }[]>(`select "event_type", "key" from "outbox_message"`);
    expect(rows).toEqual([{ event_type: 'user.signed-up', key: grant.userUuid }]);
    // With the profile as created: the room service caches it for live rooms.
    const [event] = await staged(grant.userUuid);
    expect(UserSignedUp.decode(event!.payload).profile).toMatchObject({
      uuid: grant.userUuid,
      nickname: 'ana',
      kind: UserKind.USER_KIND_USER,
      color: expect.any(String),
      avatarId: expect.any(String),
    });
  });

  it('lets exactly one of two simultaneous sign-ups with one email through', async () => {
    const attempts = await Promise.allSettled([
      accounts.signUp({ email: 'race@example.com', password: 'correct horse battery' }),
      accounts.signUp({ email: 'race@example.com', password: 'correct horse battery' }),
    ]);
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    expect(attempts.find((a) => a.status === 'rejected')).toMatchObject({ reason: { status: 403 } });
  });

  it('logs in with the right password only', async () => {
    await accounts.signUp({ email: 'login@example.com', password: 'correct horse battery' });
    await expect(accounts.logIn({ email: ' LOGIN@example.com', password: 'correct horse battery' })).resolves.toHaveProperty('accessToken');
    await expect(accounts.logIn({ email: 'login@example.com', password: 'wrong horse battery' })).rejects.toMatchObject({
      status: 401,
      messages: 'Incorrect email or password',
    });
    await expect(accounts.logIn({ email: 'nobody@example.com', password: 'correct horse battery' })).rejects.toMatchObject({
      status: 401,
      messages: 'Incorrect email or password',
    });
  });

  it('numbers guests as ghosts', async () => {
    const a = await accounts.createGuest();
    const b = await accounts.createGuest();
    const [ghostA, ghostB] = await accounts.profiles([a.userUuid, b.userUuid]);
    expect(ghostA).toMatchObject({ kind: 'guest', avatarId: 'ghost', color: '#FFFFFF' });
    expect(Number(ghostB!.nickname.replace('ghost-', ''))).toBe(Number(ghostA!.nickname.replace('ghost-', '')) + 1);
    expect((await verifier.verify(a.accessToken)).kind).toBe('guest');
    // Guests never sign up: each one's profile is announced as created, for the live rooms' cache.
    const events = await staged(a.userUuid);
    expect(events.map((e) => e.event_type)).toEqual(['user.profile-updated']);
    expect(UserProfileUpdated.decode(events[0]!.payload)).toMatchObject({
      userUuid: a.userUuid,
      profile: {
        id: ghostA!.id,
        uuid: a.userUuid,
        nickname: ghostA!.nickname,
        avatarId: 'ghost',
        color: '#FFFFFF',
        kind: UserKind.USER_KIND_GUEST,
      },
    });
  });

  it('reads a session as uuid, kind and roles alone, and 401 for an account that is gone', async () => {
    const guest = await accounts.createGuest();
    expect(await accounts.session(guest.userUuid)).toEqual({ uuid: guest.userUuid, kind: 'guest', roles: ['guest'] });
    await expect(accounts.session('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 401 });
  });

  it('seeds the admin once and keeps its password', async () => {
    expect(await accounts.ensureAdmin({ email: 'admin@example.com', password: 'admin password 1', nickname: 'admin' })).toEqual({
      created: true,
    });
    expect(await accounts.ensureAdmin({ email: 'admin@example.com', password: 'other password 2', nickname: 'admin' })).toEqual({
      created: false,
    });
    const grant = await accounts.logIn({ email: 'admin@example.com', password: 'admin password 1' });
    expect((await verifier.verify(grant.accessToken)).role).toBe('admin');
  });
});
