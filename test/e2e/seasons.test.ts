// Seasons through the BFF (issue 16): admins create, change and delete them
// (401 without a token, 403 for a user); anyone, signed in or not, reads the
// current season and the next and previous one.
import { describe, expect, it } from 'vitest';
import { signedToken, usePlatform } from '../support/platform.js';

const MERCH = '/api/merch-service';

describe('seasons through the BFF', () => {
  const { call } = usePlatform();

  it('lets admins write seasons and anyone read the current, next and previous one', async () => {
    const admin = await signedToken('admin');
    const user = await signedToken('user');
    expect(await call('GET', `${MERCH}/seasons/current`)).toMatchObject({ status: 404, body: { message: 'There is no current season' } });
    const past = { name: 'Season one', start: '2020-01-01T00:00:00Z' };
    expect((await call('POST', `${MERCH}/points/season`, { body: past })).status).toBe(401);
    expect((await call('POST', `${MERCH}/points/season`, { token: user, body: past })).status).toBe(403);
    expect((await call('POST', `${MERCH}/points/season`, { token: admin, body: { ...past, start: 'soon' } })).status).toBe(400);
    const one = await call('POST', `${MERCH}/points/season`, { token: admin, body: past });
    expect(one.status).toBe(201);
    expect(one.body).toMatchObject({ name: 'Season one', start: '2020-01-01T00:00:00.000Z', end: null });
    expect((await call('POST', `${MERCH}/points/season`, { token: admin, body: past })).status).toBe(409);
    const two = await call('POST', `${MERCH}/points/season`, { token: admin, body: { name: 'Season two', start: '2021-01-01' } });
    const future = await call('POST', `${MERCH}/points/season`, { token: admin, body: { name: 'Later', start: '2999-01-01T00:00:00Z' } });

    const current = await call('GET', `${MERCH}/seasons/current`);
    expect(current.body).toMatchObject({ id: two.body.id, name: 'Season two', end: '2999-01-01T00:00:00.000Z' });
    expect((await call('GET', `${MERCH}/seasons/current`, { token: user })).body).toEqual(current.body);
    const next = await call('GET', `${MERCH}/points/season-ranking/next-season/2021-01-01T00:00:00Z`);
    expect(next.body.id).toBe(future.body.id);
    expect((await call('GET', `${MERCH}/points/season-ranking/prev-season/2021-01-01`)).body.id).toBe(one.body.id);
    expect((await call('GET', `${MERCH}/points/season-ranking/prev-season/2020-01-01`)).status).toBe(404);
    expect((await call('GET', `${MERCH}/points/season-ranking/next-season/tomorrow`)).status).toBe(400);

    expect((await call('GET', `${MERCH}/admin/seasons`, { token: user })).status).toBe(403);
    const listed = await call('GET', `${MERCH}/admin/seasons?limit=2`, { token: admin });
    expect([listed.body.total, listed.body.seasons.map((s: { name: string }) => s.name)]).toEqual([3, ['Later', 'Season two']]);
    expect((await call('GET', `${MERCH}/admin/seasons/${one.body.id}`, { token: admin })).body).toEqual({
      ...one.body,
      end: '2021-01-01T00:00:00.000Z',
    });

    expect((await call('PATCH', `${MERCH}/points/season/${future.body.id}`, { token: user, body: { name: 'x' } })).status).toBe(403);
    const renamed = await call('PATCH', `${MERCH}/points/season/${future.body.id}`, { token: admin, body: { name: 'Season three' } });
    expect(renamed.body).toMatchObject({ name: 'Season three', start: '2999-01-01T00:00:00.000Z' });
    expect((await call('DELETE', `${MERCH}/admin/seasons/${future.body.id}`, { token: user })).status).toBe(403);
    expect((await call('DELETE', `${MERCH}/admin/seasons/${future.body.id}`, { token: admin })).status).toBe(200);
    expect((await call('DELETE', `${MERCH}/points/season/${future.body.id}`, { token: admin })).status).toBe(404);
    expect((await call('GET', `${MERCH}/seasons/current`)).body.end).toBeNull();
  });
});
