import {
  createOrm,
  dropDatabase,
  ensureDatabase,
  migrate,
  OutboxMessage,
  TokenIssuer,
  TokenVerifier,
  type Caller,
  type MikroORM,
} from '@spinroom/platform';
import { testInfra, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import { UserBotEntity } from '../src/db/sessions-bot-entity.js';
import { PgBotStore } from '../src/db/sessions-bot-store.js';
import { UserEntity } from '../src/db/user-entity.js';
import { PgUserStore } from '../src/db/user-store.js';
import { Accounts } from '../src/domain/accounts.js';
import { PasswordHasher } from '../src/domain/passwords.js';
import { Bots } from '../src/domain/sessions/bots.js';
import { userSignedUp } from '../src/events/user-events.js';

describe('bots on PostgreSQL', () => {
  const databaseUrl = uniqueDatabaseUrl('user_bots');
  let orm: MikroORM;
  let accounts: Accounts;
  let bots: Bots;
  let verifier: TokenVerifier;
  const caller = (userUuid: string, kind: Caller['kind'] = 'user'): Caller => ({
    userUuid,
    role: kind === 'user' ? 'user' : kind,
    kind,
    capabilities: [],
    token: 't',
  });

  beforeAll(async () => {
    await ensureDatabase(databaseUrl);
    orm = await createOrm({ databaseUrl, entities: [UserEntity, UserBotEntity, OutboxMessage], migrations });
    await migrate(orm);
    const tokens = await TokenIssuer.fromPem(testInfra().signingKeyPem, { issuer: 'spinroom', ttlSeconds: 600 });
    verifier = await TokenVerifier.fromPem(tokens.publicKeyPem, { issuer: 'spinroom' });
    accounts = new Accounts(new PgUserStore(orm), new PasswordHasher(), tokens, userSignedUp);
    bots = new Bots(new PgBotStore(orm), tokens, userSignedUp);
  });

  afterAll(async () => {
    await orm.close();
    await dropDatabase(databaseUrl);
  });

  it('makes one bot per user, even among simultaneous attempts, announced as a sign-up of kind bot', async () => {
    const owner = await accounts.signUp({ email: 'owner@example.com', password: 'correct horse battery' });
    const attempts = await Promise.allSettled(
      ['One', 'Two', 'Three'].map((name) => bots.signUp(caller(owner.userUuid), { botNickName: name, avatarId: 'robot', color: 'a1b2c3' })),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    for (const refused of attempts.filter((a) => a.status === 'rejected')) {
      expect(refused).toMatchObject({ reason: { status: 403, messages: 'You already have a bot' } });
    }
    const bot = (attempts.find((a) => a.status === 'fulfilled') as PromiseFulfilledResult<Awaited<ReturnType<Bots['signUp']>>>).value;
    expect(bot).toMatchObject({ kind: 'bot', roles: ['bot'], color: '#A1B2C3', avatarId: 'robot', email: null });
    const events = await orm.em
      .fork()
      .execute<{ key: string }[]>(`select "key" from "outbox_message" where "event_type" = 'user.signed-up'`);
    expect(events.map((e) => e.key)).toContain(bot.uuid);

    const { accessToken, codeSyncNewUser } = await bots.token(caller(owner.userUuid));
    expect(codeSyncNewUser).toBe('');
    expect(await verifier.verify(accessToken)).toMatchObject({ userUuid: bot.uuid, role: 'bot', kind: 'bot' });
  });

  it('refuses guests, bots and services, and answers 404 before a bot exists', async () => {
    const owner = await accounts.signUp({ email: 'later@example.com', password: 'correct horse battery' });
    await expect(bots.token(caller(owner.userUuid))).rejects.toMatchObject({ status: 404, messages: 'You have no bot yet' });
    for (const kind of ['guest', 'bot', 'service'] as const) {
      await expect(bots.signUp(caller(owner.userUuid, kind), { botNickName: 'B', avatarId: 'a', color: 'a1b2c3' })).rejects.toMatchObject({
        status: 403,
        messages: 'Only signed-in users can have a bot',
      });
    }
    await expect(bots.signUp(caller(owner.userUuid), { botNickName: ' ', avatarId: 'a', color: 'a1b2c3' })).rejects.toMatchObject({
      status: 400,
    });
    await expect(bots.signUp(caller(owner.userUuid), { botNickName: 'B', avatarId: 'a b', color: 'a1b2c3' })).rejects.toMatchObject({
      status: 400,
    });
  });
});
