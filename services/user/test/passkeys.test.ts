import {
  AppError,
  createOrm,
  createRedis,
  dropDatabase,
  ensureDatabase,
  migrate,
  OutboxMessage,
  TokenIssuer,
  TokenVerifier,
  type MikroORM,
} from '@spinroom/platform';
import { isolatedRedisUrl, testInfra } from '@spinroom/platform/testing';
import { uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SoftAuthenticator } from '../../../test/support/soft-authenticator.js';
import { migrations } from '../src/db/migrations/index.js';
import { UserPasskeyEntity } from '../src/db/passkeys-entities.js';
import { PgPasskeyStore, RedisChallengeStore } from '../src/db/passkeys-store.js';
import { UserEntity } from '../src/db/user-entity.js';
import { PgUserStore } from '../src/db/user-store.js';
import { Accounts } from '../src/domain/accounts.js';
import {
  PASSKEY_NOT_FOUND,
  PasskeyTakenError,
  Passkeys,
  passkeyName,
  REGISTRATION_FAILED,
  SIGN_IN_FAILED,
} from '../src/domain/passkeys/passkeys.js';
import { PasswordHasher } from '../src/domain/passwords.js';
import { userSignedUp } from '../src/events/user-events.js';

const ORIGIN = 'http://localhost:8080';

/** The AppError a call is refused with, as `{status, message}`. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('passkeys on PostgreSQL and Redis', () => {
  const databaseUrl = uniqueDatabaseUrl('user_passkeys');
  let orm: MikroORM;
  let redis: ReturnType<typeof createRedis>;
  let users: PgUserStore;
  let passkeys: Passkeys;
  let verifier: TokenVerifier;

  beforeAll(async () => {
    await ensureDatabase(databaseUrl);
    orm = await createOrm({ databaseUrl, entities: [UserEntity, UserPasskeyEntity, OutboxMessage], migrations });
    await migrate(orm);
    redis = createRedis(await isolatedRedisUrl());
    const tokens = await TokenIssuer.fromPem(testInfra().signingKeyPem, { issuer: 'spinroom', ttlSeconds: 600 });
    verifier = await TokenVerifier.fromPem(tokens.publicKeyPem, { issuer: 'spinroom' });
    users = new PgUserStore(orm);
    const accounts = new Accounts(users, new PasswordHasher(), tokens, userSignedUp);
    passkeys = new Passkeys({
      store: new PgPasskeyStore(orm),
      challenges: new RedisChallengeStore(redis),
      relyingParty: { rpId: 'localhost', rpName: 'Spinroom', origins: [ORIGIN] },
      account: (uuid) => accounts.profile(uuid),
      grant: (user) => accounts.grant(user),
    });
  });

  afterAll(async () => {
    redis.disconnect();
    await orm.close();
    await dropDatabase(databaseUrl);
  });

  let n = 0;
  const account = () => {
    n += 1;
    return users.createAccount(
      { kind: 'user', email: `passkey-${n}-${Date.now()}@example.com`, passwordHash: 'x', nickname: `keyholder${n}`, roles: ['user'] },
      userSignedUp,
    );
  };

  /** A new account with one passkey registered on `authenticator`. */
  const registered = async (authenticator: SoftAuthenticator, name?: string) => {
    const user = await account();
    const options = await passkeys.registrationOptions(user.uuid);
    const passkey = await passkeys.register(user.uuid, { responseJson: JSON.stringify(authenticator.create(options)), name });
    return { user, passkey };
  };

  it('registers a passkey and signs in with it: a grant for its owner, the use recorded', async () => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    const { user, passkey } = await registered(authenticator, '  My laptop ');
    expect(passkey).toMatchObject({ userUuid: user.uuid, name: 'My laptop', counter: 0, lastUsedAt: null });

    const options = await passkeys.authenticationOptions();
    expect(options.rpId).toBe('localhost');
    const grant = await passkeys.signIn(JSON.stringify(authenticator.get(options)));
    expect(grant.userUuid).toBe(user.uuid);
    expect(await verifier.verify(grant.accessToken)).toMatchObject({ userUuid: user.uuid, kind: 'user' });

    const [listed] = await passkeys.list(user.uuid);
    expect(listed).toMatchObject({ id: passkey.id, name: 'My laptop', counter: 1 });
    expect(listed!.lastUsedAt).toBeInstanceOf(Date);
  });

  it('answers a challenge once: a replayed registration or sign-in is refused', async () => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    const user = await account();
    const answer = JSON.stringify(authenticator.create(await passkeys.registrationOptions(user.uuid)));
    await passkeys.register(user.uuid, { responseJson: answer });
    expect(await refusal(passkeys.register(user.uuid, { responseJson: answer }))).toEqual({ status: 400, message: REGISTRATION_FAILED });

    const signIn = JSON.stringify(authenticator.get(await passkeys.authenticationOptions()));
    await passkeys.signIn(signIn);
    expect(await refusal(passkeys.signIn(signIn))).toEqual({ status: 401, message: SIGN_IN_FAILED });
  });

  it("refuses another account's registration challenge, a sign-in challenge and a foreign origin", async () => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    const [ana, bo] = [await account(), await account()];
    const forAna = authenticator.create(await passkeys.registrationOptions(ana.uuid));
    expect(await refusal(passkeys.register(bo.uuid, { responseJson: JSON.stringify(forAna) }))).toEqual({
      status: 400,
      message: REGISTRATION_FAILED,
    });
    const signInOptions = await passkeys.authenticationOptions();
    const withSignInChallenge = authenticator.create({
      ...(await passkeys.registrationOptions(ana.uuid)),
      challenge: signInOptions.challenge,
    });
    expect((await refusal(passkeys.register(ana.uuid, { responseJson: JSON.stringify(withSignInChallenge) }))).status).toBe(400);

    const elsewhere = authenticator.create(await passkeys.registrationOptions(ana.uuid), { origin: 'https://evil.example' });
    expect((await refusal(passkeys.register(ana.uuid, { responseJson: JSON.stringify(elsewhere) }))).status).toBe(400);
    expect(await passkeys.list(ana.uuid)).toEqual([]);
    expect(await refusal(passkeys.register(ana.uuid, { responseJson: '{"not":"webauthn"}' }))).toEqual({
      status: 400,
      message: REGISTRATION_FAILED,
    });
    expect(await refusal(passkeys.register(ana.uuid, { responseJson: 'not json' }))).toEqual({ status: 400, message: REGISTRATION_FAILED });
  });

  it('refuses a counter that does not move forward (a cloned authenticator), a wrong origin and an unknown passkey', async () => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    await registered(authenticator);
    await passkeys.signIn(JSON.stringify(authenticator.get(await passkeys.authenticationOptions(), { counter: 5 })));
    const cloned = authenticator.get(await passkeys.authenticationOptions(), { counter: 5 });
    expect(await refusal(passkeys.signIn(JSON.stringify(cloned)))).toEqual({ status: 401, message: SIGN_IN_FAILED });
    const older = authenticator.get(await passkeys.authenticationOptions(), { counter: 3 });
    expect((await refusal(passkeys.signIn(JSON.stringify(older)))).status).toBe(401);
    const foreign = authenticator.get(await passkeys.authenticationOptions(), { counter: 9, origin: 'https://evil.example' });
    expect((await refusal(passkeys.signIn(JSON.stringify(foreign)))).status).toBe(401);
    // The refusals recorded nothing: the next honest use goes on from 5.
    await passkeys.signIn(JSON.stringify(authenticator.get(await passkeys.authenticationOptions(), { counter: 6 })));

    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.create({ challenge: 'x', rp: { id: 'localhost' }, user: { id: 'eA' } });
    expect((await refusal(passkeys.signIn(JSON.stringify(stranger.get(await passkeys.authenticationOptions()))))).status).toBe(401);
    expect((await refusal(passkeys.signIn('[]'))).status).toBe(401);
  });

  it('refuses a sign-in whose user handle names another account', async () => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    await registered(authenticator);
    const answer = authenticator.get(await passkeys.authenticationOptions());
    answer.response.userHandle = Buffer.from((await account()).uuid).toString('base64url');
    expect((await refusal(passkeys.signIn(JSON.stringify(answer)))).status).toBe(401);
  });

  it('refuses a banned account the way a login does', async () => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    const { user } = await registered(authenticator);
    await orm.em.fork().nativeUpdate(UserEntity, { uuid: user.uuid }, { bannedAt: new Date() });
    expect(await refusal(passkeys.signIn(JSON.stringify(authenticator.get(await passkeys.authenticationOptions()))))).toEqual({
      status: 403,
      message: 'This account is banned',
    });
  });

  it('keeps a credential with one account, lists newest first and deletes only the owner’s', async () => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    const { user, passkey: first } = await registered(authenticator);
    const second = await passkeys.register(user.uuid, {
      responseJson: JSON.stringify(authenticator.create(await passkeys.registrationOptions(user.uuid))),
    });
    expect(second.name).toBe('Passkey 2');
    expect((await passkeys.list(user.uuid)).map((p) => p.id)).toEqual([second.id, first.id]);
    // The same credential offered again (the authenticator ignored excludeCredentials).
    const options = await passkeys.registrationOptions(user.uuid);
    expect(options.excludeCredentials?.map((c) => c.id).sort()).toEqual(authenticator.credentials.map((c) => c.id).sort());

    const other = await account();
    expect(await refusal(passkeys.delete(other.uuid, first.id))).toEqual({ status: 404, message: PASSKEY_NOT_FOUND });
    expect(await refusal(passkeys.delete(user.uuid, 'not-a-uuid'))).toEqual({ status: 404, message: PASSKEY_NOT_FOUND });
    await passkeys.delete(user.uuid, first.id);
    expect((await passkeys.list(user.uuid)).map((p) => p.id)).toEqual([second.id]);
    // A deleted passkey signs no one in.
    const withFirst = authenticator.get(await passkeys.authenticationOptions(), { credential: authenticator.credentials[0] });
    expect((await refusal(passkeys.signIn(JSON.stringify(withFirst)))).status).toBe(401);
    // One credential, one account: the store refuses it a second time (the domain answers 403 'This passkey is already registered').
    const [kept] = await passkeys.list(user.uuid);
    await expect(new PgPasskeyStore(orm).add({ ...kept!, userUuid: other.uuid })).rejects.toBeInstanceOf(PasskeyTakenError);
  });

  it('names a passkey within 64 characters', () => {
    expect(passkeyName(undefined, 0)).toBe('Passkey 1');
    expect(passkeyName('   ', 2)).toBe('Passkey 3');
    expect(() => passkeyName('x'.repeat(65), 0)).toThrow(AppError);
  });
});
