// Avatars through the BFF (issue 16): admins create, change, delete and
// assign them (401 without a token, 403 for a user), services look them up
// and assign purchases, anyone reads the public ones; the admin list takes the
// @nestjsx/crud query; a season's award is backfilled once.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signedToken, usePlatform } from '../support/platform.js';

const MERCH = '/api/merch-service';

describe('avatars through the BFF', () => {
  const { call } = usePlatform();

  it('lets admins write and assign avatars, services assign purchases, and anyone read what they may wear', async () => {
    const admin = await signedToken('admin');
    const service = await signedToken('service', 'service:payment');
    const userUuid = randomUUID();
    const user = await signedToken('user', userUuid);
    const body = { slug: 'disco-ball', name: 'Disco ball', status: 'PUBLIC' };
    expect((await call('POST', `${MERCH}/avatars`, { body })).status).toBe(401);
    expect((await call('POST', `${MERCH}/avatars`, { token: user, body })).status).toBe(403);
    expect((await call('POST', `${MERCH}/avatars`, { token: admin, body: { ...body, slug: 'Disco Ball' } })).status).toBe(400);
    const disco = await call('POST', `${MERCH}/avatars`, { token: admin, body });
    expect(disco.status).toBe(201);
    expect(disco.body).toMatchObject({ ...body, discordOnly: false, seasonId: null, rankThreshold: null });
    expect((await call('POST', `${MERCH}/avatars`, { token: admin, body })).status).toBe(409);
    await call('POST', `${MERCH}/avatars`, { token: admin, body: { slug: 'gold-record', name: 'Gold record', status: 'SUBSCRIBER_ONLY' } });
    await call('POST', `${MERCH}/avatars`, { token: admin, body: { slug: 'staff-cap', name: 'Staff cap', status: 'PRIVATE' } });

    expect((await call('GET', `${MERCH}/avatars`)).body.map((a: { slug: string }) => a.slug)).toEqual(['disco-ball']);
    expect((await call('GET', `${MERCH}/all-avatars`)).body.map((a: { slug: string }) => a.slug)).toEqual(['disco-ball', 'gold-record']);
    expect((await call('GET', `${MERCH}/avatars/subscriber`)).body.map((a: { slug: string }) => a.slug)).toEqual(['gold-record']);
    expect((await call('GET', `${MERCH}/avatars/disco-ball`)).body).toEqual(disco.body);
    expect((await call('GET', `${MERCH}/avatars/staff-cap`, { token: user })).status).toBe(404);
    expect((await call('GET', `${MERCH}/avatars/gold-record/${userUuid}`)).body).toMatchObject({
      canWear: false,
      assignment: null,
      userUuid,
    });

    const assign = (token: string, slug: string, extra: Record<string, unknown> = {}) =>
      call('POST', `${MERCH}/avatar-assignment/${slug}`, { token, body: { userUuid, ...extra } });
    expect((await assign(user, 'gold-record')).status).toBe(403);
    expect((await assign(admin, 'gold-record', { assignmentType: 'PURCHASED' })).status).toBe(403);
    const bought = await assign(service, 'gold-record', { assignmentType: 'PURCHASED' });
    expect(bought).toMatchObject({
      status: 201,
      body: { created: true, assignment: { avatarSlug: 'gold-record', assignmentType: 'PURCHASED' } },
    });
    const manual = await assign(admin, 'staff-cap');
    expect(manual.body.assignment.assignmentType).toBe('MANUAL');
    expect((await call('GET', `${MERCH}/avatars`, { token: user })).body.map((a: { slug: string }) => a.slug)).toEqual([
      'disco-ball',
      'gold-record',
      'staff-cap',
    ]);
    expect((await call('GET', `${MERCH}/avatars/gold-record/${userUuid}`)).body).toMatchObject({ canWear: true });
    expect((await call('GET', `${MERCH}/service/avatar/staff-cap`, { token: user })).status).toBe(403);
    expect((await call('GET', `${MERCH}/service/avatar/staff-cap`, { token: service })).body.status).toBe('PRIVATE');
    expect((await call('DELETE', `${MERCH}/avatar-assignment/${manual.body.assignment.id}`, { token: user })).status).toBe(403);
    expect((await call('DELETE', `${MERCH}/avatar-assignment/${manual.body.assignment.id}`, { token: admin })).status).toBe(200);
    expect((await call('DELETE', `${MERCH}/avatar-assignment/${manual.body.assignment.id}`, { token: admin })).status).toBe(404);

    expect((await call('PATCH', `${MERCH}/avatars/disco-ball`, { token: user, body: { name: 'x' } })).status).toBe(403);
    expect((await call('PATCH', `${MERCH}/avatars/disco-ball`, { token: admin, body: { discordOnly: true } })).body).toMatchObject({
      name: 'Disco ball',
      discordOnly: true,
    });
    expect((await call('GET', `${MERCH}/admin/avatars`, { token: user })).status).toBe(403);
    const page = await call('GET', `${MERCH}/admin/avatars?filter=status||$ne||PUBLIC&sort=slug,DESC&fields=name`, { token: admin });
    expect(page.body).toEqual({
      data: [
        { slug: 'staff-cap', name: 'Staff cap' },
        { slug: 'gold-record', name: 'Gold record' },
      ],
      count: 2,
      total: 2,
      page: 1,
      pageCount: 1,
    });
    expect((await call('GET', `${MERCH}/admin/avatars?filter=secret||$eq||1`, { token: admin })).status).toBe(400);
    expect((await call('GET', `${MERCH}/admin/avatars/gold-record?fields=status`, { token: admin })).body).toEqual({
      slug: 'gold-record',
      status: 'SUBSCRIBER_ONLY',
    });
    expect((await call('DELETE', `${MERCH}/admin/avatars/staff-cap`, { token: admin })).status).toBe(200);
    expect((await call('DELETE', `${MERCH}/avatars/staff-cap`, { token: admin })).status).toBe(404);
  });

  it("gives a season's award to the users whose points rank them within it, and backfills it once", async () => {
    const admin = await signedToken('admin');
    const season = (await call('POST', `${MERCH}/points/season`, { token: admin, body: { name: 'Award season', start: '2022-01-01' } }))
      .body;
    const [first, second] = [randomUUID(), randomUUID()];
    for (const [userUuid, points] of [
      [first, 9],
      [second, 4],
    ] as const) {
      await call('POST', `${MERCH}/points/season/admin/handle-points`, { token: admin, body: { userUuid, points, reason: 'r' } });
    }
    const award = { slug: 'champion', name: 'Champion', status: 'SEASON_AWARD', seasonId: season.id, rankThreshold: 1 };
    expect((await call('POST', `${MERCH}/avatars`, { token: admin, body: { ...award, rankThreshold: undefined } })).status).toBe(400);
    expect((await call('POST', `${MERCH}/avatars`, { token: admin, body: award })).status).toBe(201);
    expect((await call('GET', `${MERCH}/avatars/champion/${first}`)).body.canWear).toBe(false);
    const backfill = `${MERCH}/points/backfill-achieved-avatars/${season.id}?limit=10`;
    expect((await call('POST', backfill, { token: await signedToken('user') })).status).toBe(403);
    expect((await call('POST', backfill, { token: admin })).body).toEqual({ assigned: 1, done: true });
    expect((await call('POST', backfill, { token: admin })).body).toEqual({ assigned: 0, done: true });
    expect((await call('GET', `${MERCH}/avatars/champion/${first}`)).body).toMatchObject({
      canWear: true,
      assignment: { assignmentType: 'SEASON_AWARD' },
    });
    expect((await call('GET', `${MERCH}/avatars/champion/${second}`)).body.canWear).toBe(false);
    // Points that put the second user first earn them the award at once.
    await call('POST', `${MERCH}/points/season/admin/handle-points`, { token: admin, body: { userUuid: second, points: 10, reason: 'r' } });
    expect((await call('GET', `${MERCH}/avatars/champion/${second}`)).body.canWear).toBe(true);
  });
});
