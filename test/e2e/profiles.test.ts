import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';

const MERCH = '/api/merch-service';

describe('profiles through the BFF', () => {
  const { call, platform } = usePlatform();
  const signUp = async (nickname?: string) =>
    (await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery', nickname } }))
      .body as {
      accessToken: string;
      userUuid: string;
    };

  it('reads and partly updates the own profile in the original shape', async () => {
    const me = await signUp('DJ Ana');
    const own = await call('GET', '/api/user-service/users/profile', { token: me.accessToken });
    expect(own.status).toBe(200);
    expect(Object.keys(own.body).sort()).toEqual(
      [
        'id',
        'uuid',
        'color',
        'avatarId',
        'badges',
        'createdAt',
        'nickname',
        'discord',
        'discordNickname',
        'firstName',
        'lastName',
        'pronoun',
        'displayPronouns',
        'songOfTheWeek',
        'song',
        'coverPicture',
        'facebook',
        'instagram',
        'twitter',
        'snapchat',
        'tiktok',
        'priceForGig',
        'zodiac',
      ].sort(),
    );
    expect(own.body).toMatchObject({ uuid: me.userUuid, nickname: 'DJ Ana', badges: [], song: null, twitter: null });

    const song = {
      id: 's1',
      isrc: 'USRC17607839',
      genre: 'house',
      duration: 215,
      trackUrl: 'https://x/y',
      trackName: 'Song',
      artistName: 'Artist',
      musicProvider: 'spotify',
    };
    const admin = await signedToken('admin');
    await call('POST', `${MERCH}/avatars`, { token: admin, body: { slug: 'stadium-dj', name: 'Stadium DJ', status: 'PUBLIC' } });
    const updated = await call('POST', '/api/user-service/users/profile', {
      token: me.accessToken,
      body: { avatarId: 'stadium-dj', color: 'ff00aa', twitter: '@ana', song },
    });
    expect(updated).toMatchObject({
      status: 200,
      body: { nickname: 'DJ Ana', avatarId: 'stadium-dj', color: '#FF00AA', twitter: '@ana', song },
    });

    const cleared = await call('POST', '/api/user-service/users/profile', { token: me.accessToken, body: { twitter: null, song: null } });
    expect(cleared.body).toMatchObject({ twitter: null, song: null, avatarId: 'stadium-dj' });

    const bad = await call('POST', '/api/user-service/users/profile', { token: me.accessToken, body: { color: 'purple' } });
    expect(bad).toMatchObject({ status: 400, body: { message: 'Color must be a hex colour like #A1B2C3' } });
    expect((await call('POST', '/api/user-service/users/profile', { body: { nickname: 'x' } })).status).toBe(401);
  });

  it('wears only an avatar its owner may: public, assigned or the default; others refused, for admins editing too', async () => {
    const me = await signUp('Wearer');
    const admin = await signedToken('admin');
    const avatar = (slug: string, status: string) => call('POST', `${MERCH}/avatars`, { token: admin, body: { slug, name: slug, status } });
    await avatar('wear-public', 'PUBLIC');
    await avatar('wear-private', 'PRIVATE');
    await avatar('wear-subscriber', 'SUBSCRIBER_ONLY');
    const wear = (avatarId: string, token = me.accessToken) =>
      call('POST', '/api/user-service/users/profile', { token, body: { avatarId } });
    const wearAsAdmin = (avatarId: string) =>
      call('POST', '/api/user-service/users/profile-admin', { token: admin, body: { userUuid: me.userUuid, avatarId } });

    expect(await wear('wear-public')).toMatchObject({ status: 200, body: { avatarId: 'wear-public' } });
    expect(await wear('no-such-avatar')).toMatchObject({ status: 400, body: { message: 'There is no avatar no-such-avatar' } });
    expect(await wear('wear-private')).toMatchObject({ status: 403, body: { message: 'You may not wear this avatar' } });
    expect(await wear('wear-subscriber')).toMatchObject({ status: 403 });
    expect(await wearAsAdmin('wear-private')).toMatchObject({ status: 403 });
    // Refusals change nothing, and keeping the current avatar while editing the rest is no change.
    const unchanged = await call('POST', '/api/user-service/users/profile', {
      token: me.accessToken,
      body: { avatarId: 'wear-public', twitter: '@wearer' },
    });
    expect(unchanged).toMatchObject({ status: 200, body: { avatarId: 'wear-public', twitter: '@wearer' } });

    const assigned = await call('POST', `${MERCH}/avatar-assignment/wear-private`, { token: admin, body: { userUuid: me.userUuid } });
    expect(assigned.status).toBe(201);
    expect(await wear('wear-private')).toMatchObject({ status: 200, body: { avatarId: 'wear-private' } });
    expect(await wearAsAdmin('default')).toMatchObject({ status: 200, body: { avatarId: 'default' } });
    const other = await call('GET', `/api/user-service/profile/${me.userUuid}`, { token: me.accessToken });
    expect(other.body.avatarId).toBe('default');
  });

  it("reads other people's profiles one by one and in batches", async () => {
    const me = await signUp();
    const ana = await signUp('Ana');
    const bo = await signUp('Bo');
    const one = await call('GET', `/api/user-service/profile/${ana.userUuid}`, { token: me.accessToken });
    expect(one).toMatchObject({ status: 200, body: { uuid: ana.userUuid, nickname: 'Ana' } });

    const missing = await call('GET', '/api/user-service/profile/00000000-0000-4000-8000-000000000000', { token: me.accessToken });
    expect(missing).toMatchObject({ status: 404, body: { statusCode: 404, message: 'User profile not found', error: 'Not Found' } });
    // An id that cannot name a user is refused at the edge, before the user service.
    expect(await call('GET', '/api/user-service/profile/not-a-uuid', { token: me.accessToken })).toMatchObject({
      status: 400,
      body: { message: ['id: Invalid UUID'] },
    });

    const batch = await call(
      'GET',
      `/api/user-service/users/profiles?users=${ana.userUuid}&users=${bo.userUuid}&users=00000000-0000-4000-8000-000000000000`,
      { token: me.accessToken },
    );
    expect(batch.status).toBe(200);
    expect(batch.body.map((p: { userProfile: { nickname: string } }) => p.userProfile.nickname)).toEqual(['Ana', 'Bo']);
    const single = await call('GET', `/api/user-service/users/profiles?users=${bo.userUuid}`, { token: me.accessToken });
    expect(single.body).toEqual([{ userProfile: expect.objectContaining({ uuid: bo.userUuid }) }]);
    expect((await call('GET', `/api/user-service/users/profiles?users=${bo.userUuid}`)).status).toBe(401);
  });

  // The reads are prepared statements on pooled connections: PostgreSQL would
  // refuse a prepared `select *` once the table it reads has another column.
  it('keeps reading profiles when a migration adds a column under the running service', async () => {
    const me = await signUp('Cy');
    const own = () => call('GET', '/api/user-service/users/profile', { token: me.accessToken });
    const batch = () => call('GET', `/api/user-service/users/profiles?users=${me.userUuid}`, { token: me.accessToken });
    for (let i = 0; i < 5; i++) {
      expect((await own()).status).toBe(200);
      expect((await batch()).status).toBe(200);
    }
    const db = new pg.Client({ connectionString: platform().databaseUrl });
    await db.connect();
    try {
      await db.query('alter table "user_account" add column "added_later" text');
      expect(await own()).toMatchObject({ status: 200, body: { uuid: me.userUuid, nickname: 'Cy' } });
      expect(await batch()).toMatchObject({ status: 200, body: [{ userProfile: { uuid: me.userUuid } }] });
    } finally {
      await db.query('alter table "user_account" drop column if exists "added_later"');
      await db.end();
    }
  });
});
