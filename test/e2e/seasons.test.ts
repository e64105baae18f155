// Seasons and rankings through the BFF (issue 16): admins create, change and
// delete seasons (401 without a token, 403 for a user); anyone, signed in or
// not, reads the current season, the next and previous one and the rankings;
// admins adjust points, services add them.
import { randomUUID } from 'node:crypto';
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

  it('ranks users in the current season and over all time: admins adjust points, services add them, anyone reads', async () => {
    const admin = await signedToken('admin');
    const service = await signedToken('service', 'service:e2e');
    const [x, y] = [randomUUID(), randomUUID()];
    const [xToken, yToken] = [await signedToken('user', x), await signedToken('user', y)];
    const handle = (token: string, body: Record<string, unknown>) =>
      call('POST', `${MERCH}/points/season/admin/handle-points`, { token, body });
    expect(
      (await call('POST', `${MERCH}/points/season/admin/handle-points`, { body: { userUuid: x, points: 5, reason: 'r' } })).status,
    ).toBe(401);
    expect((await handle(xToken, { userUuid: x, points: 5, reason: 'r' })).status).toBe(403);
    expect((await handle(admin, { userUuid: x, points: 0, reason: 'r' })).status).toBe(400);
    const given = await handle(admin, { userUuid: x, points: 10, reason: 'Hosted the launch party' });
    expect(given.status).toBe(201);
    expect(given.body).toMatchObject({
      point: { userUuid: x, kind: 'admin', amount: 10, reason: 'Hosted the launch party' },
      rankingStatus: { userUuid: x, seasonName: 'Season two', balance: 10, rank: 1 },
      lifetime: { balance: 10, rank: 1, seasonId: null },
      replayed: false,
    });
    expect((await handle(admin, { userUuid: y, points: -1, reason: 'r' })).status).toBe(409);
    const reward = { userUuid: y, points: 4, reason: 'Quest', idempotencyKey: 'quest-1' };
    expect((await call('POST', `${MERCH}/points/service`, { token: admin, body: reward })).status).toBe(403);
    expect((await call('POST', `${MERCH}/points/service`, { token: service, body: reward })).body).toMatchObject({ replayed: false });
    expect((await call('POST', `${MERCH}/points/service`, { token: service, body: reward })).body).toMatchObject({
      replayed: true,
      lifetime: { balance: 4 },
    });

    const ranking = await call('GET', `${MERCH}/points/season-ranking?take=10`);
    expect(ranking.body).toMatchObject({ season: { name: 'Season two' }, total: 2, me: null });
    expect(ranking.body.rankings.map((s: { userUuid: string; rank: number }) => [s.userUuid, s.rank])).toEqual([
      [x, 1],
      [y, 2],
    ]);
    expect((await call('GET', `${MERCH}/points/season-ranking-current?take=1&skip=1`, { token: yToken })).body).toMatchObject({
      rankings: [{ userUuid: y }],
      me: { userUuid: y, rank: 2, balance: 4 },
    });
    expect((await call('GET', `${MERCH}/points/season-ranking/${encodeURIComponent('Season two')}`)).body.total).toBe(2);
    expect((await call('GET', `${MERCH}/points/season-ranking/Nope`)).status).toBe(404);
    expect((await call('GET', `${MERCH}/points/season-ranking?take=0`)).status).toBe(400);
    expect((await call('GET', `${MERCH}/points/all-seasons-ranking`, { token: xToken })).body).toMatchObject({ total: 2, me: { rank: 1 } });
    expect((await call('GET', `${MERCH}/points/ranking-status/${x}`)).body).toMatchObject([{ seasonName: 'Season two', balance: 10 }]);
    expect((await call('GET', `${MERCH}/points/ranking-status/sum/${y}`)).body).toEqual({ userUuid: y, balance: 4, rank: 2 });
    expect((await call('GET', `${MERCH}/points/current-ranking-status`)).status).toBe(401);
    expect((await call('GET', `${MERCH}/points/current-ranking-status`, { token: xToken })).body).toMatchObject({
      hasCurrentRankingStatus: true,
      season: { name: 'Season two' },
      rankingStatus: { balance: 10 },
    });
    expect((await call('GET', `${MERCH}/points/current-ranking-status/${randomUUID()}`)).body).toMatchObject({
      hasCurrentRankingStatus: false,
      rankingStatus: null,
    });

    expect((await call('GET', `${MERCH}/admin/ranking-status`, { token: xToken })).status).toBe(403);
    const listed = await call('GET', `${MERCH}/admin/ranking-status?userUuid=${x}`, { token: admin });
    expect(listed.body).toMatchObject({ total: 1, rankingStatuses: [{ userUuid: x, balance: 10 }] });
    const id = listed.body.rankingStatuses[0].id as string;
    expect((await call('GET', `${MERCH}/admin/ranking-status/${id}`, { token: admin })).body).toEqual(listed.body.rankingStatuses[0]);
    expect((await call('GET', `${MERCH}/admin/ranking-status-lifetime/${id}`, { token: admin })).status).toBe(404);
    const lifetime = await call('GET', `${MERCH}/admin/ranking-status-lifetime?userUuid=${y}`, { token: admin });
    expect(lifetime.body).toMatchObject({ total: 1, rankingStatuses: [{ userUuid: y, balance: 4, seasonId: null }] });
    expect(
      (await call('GET', `${MERCH}/admin/ranking-status-lifetime/${lifetime.body.rankingStatuses[0].id}`, { token: admin })).status,
    ).toBe(200);
  });
});
