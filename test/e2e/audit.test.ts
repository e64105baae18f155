// The audit service through the BFF (issue 18, Audit service): /kinesis
// records answered once Kafka has them and counted into the play-tracking
// aggregates once per play id and kind, however often they are sent; the
// moderation actions the user service publishes stored and listed in the
// @nestjsx/crud syntax, and written by admins (create, bulk, patch, put,
// delete); user actions ('Unauthorized to perform action' for others); the
// info-admin paths; geolocation from geoip-lite's shipped database with the
// caller's address as the BFF sees it; and who may call what (401 without a
// token, 403 for the wrong role).
import { randomUUID } from 'node:crypto';
import { eventually } from '@spinroom/platform/testing';
import { describe, expect, it } from 'vitest';
import { createAuditClient } from '../../bff/src/routes/audit/index.js';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';

type Json = any;
const A = '/api/audit-service';
const device = { platform: 'web', os: 'Linux', browser: 'Chromium', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' };

function playRecord(userUuid: string, event: 'totalPlayed' | 'played15Sec' | 'played30Sec', overrides: Record<string, unknown> = {}) {
  const now = Date.now();
  return {
    event,
    playId: randomUUID(),
    userUuid,
    roomSlug: 'audit-room',
    roomOwnerUuid: randomUUID(),
    djUuid: randomUUID(),
    songInfo: { songId: `song-${randomUUID()}`, trackName: 'Track', artistName: 'Artist', duration: 180, musicProvider: 'uploadService' },
    startedDate: new Date(now - 40_000).toISOString(),
    updatedDate: new Date(now).toISOString(),
    volumeStart: 50,
    volumeEnd: 60,
    sent15sec: true,
    sent30sec: true,
    userProvider: 'spotify',
    subscriptionLevel: 'free',
    device,
    ...overrides,
  };
}

describe('the audit service through the BFF', () => {
  const { call, platform } = usePlatform();
  const totals = async (scope: string, key: string) => {
    const client = createAuditClient(platform().grpc.audit);
    try {
      return (await client.getPlayTotals({ scope, key }, { token: await signedToken('admin') })).totals!;
    } finally {
      client.close();
    }
  };

  it('takes /kinesis records from signed-in callers only, checked for their topic and their user', async () => {
    const userUuid = randomUUID();
    const token = await signedToken('user', userUuid);
    const record = playRecord(userUuid, 'totalPlayed');
    expect((await call('POST', `${A}/kinesis`, { body: { topic: 'play-tracking', record } })).status).toBe(401);
    expect((await call('POST', `${A}/kinesis`, { token, body: { topic: 'clicks', record } })).status).toBe(400);
    expect(
      (await call('POST', `${A}/kinesis`, { token, body: { topic: 'play-tracking', record: { ...record, device: undefined } } })).status,
    ).toBe(400);
    expect(
      (await call('POST', `${A}/kinesis`, { token, body: { topic: 'play-tracking', record: { ...record, playId: 'no spaces' } } })).status,
    ).toBe(400);
    const early = playRecord(userUuid, 'played30Sec', { startedDate: new Date(Date.now() - 12_000).toISOString() });
    const tooSoon = await call('POST', `${A}/kinesis`, { token, body: { topic: 'play-tracking', record: early } });
    expect([tooSoon.status, tooSoon.body.message]).toEqual([400, 'record: a 30-second play needs 25 s played']);
    const backwards = playRecord(userUuid, 'totalPlayed', { startedDate: new Date(Date.now() + 60_000).toISOString() });
    expect((await call('POST', `${A}/kinesis`, { token, body: { topic: 'play-tracking', record: backwards } })).status).toBe(400);
    const someoneElse = await call('POST', `${A}/kinesis`, {
      token,
      body: { topic: 'play-tracking', record: playRecord(randomUUID(), 'totalPlayed') },
    });
    expect([someoneElse.status, someoneElse.body.message]).toEqual([403, 'A record may only be sent for its own user']);

    const accepted = await call('POST', `${A}/kinesis`, { token, body: { topic: 'play-tracking', record } });
    expect(accepted.status).toBe(201);
    expect(accepted.body).toEqual({ recordId: expect.stringMatching(/^[0-9a-f-]{36}$/), topic: 'play-tracking' });

    // Requests at the same time share one call to the audit service (the BFF's batcher): each is still answered on its own.
    const otherUuid = randomUUID();
    const otherToken = await signedToken('guest', otherUuid);
    const together = await Promise.all([
      call('POST', `${A}/kinesis`, { token, body: { topic: 'play-tracking', record: playRecord(userUuid, 'played15Sec') } }),
      call('POST', `${A}/kinesis`, { token: otherToken, body: { topic: 'play-tracking', record: playRecord(userUuid, 'totalPlayed') } }),
      call('POST', `${A}/kinesis`, { token, body: { topic: 'play-tracking', record: early } }),
      call('POST', `${A}/kinesis`, { token: otherToken, body: { topic: 'page-views', record: { path: '/rooms', device } } }),
      call('POST', `${A}/kinesis`, { token: await signedToken('service'), body: { topic: 'play-tracking', record } }),
    ]);
    expect(together.map((answer) => [answer.status, answer.body.message ?? answer.body.topic])).toEqual([
      [201, 'play-tracking'],
      [403, 'A record may only be sent for its own user'],
      [400, 'record: a 30-second play needs 25 s played'],
      [201, 'page-views'],
      [403, 'Records come from users'],
    ]);
  });

  it('counts plays per song, DJ, room and user once per play id and kind, whatever is sent again', async () => {
    const userUuid = randomUUID();
    const token = await signedToken('user', userUuid);
    const djUuid = randomUUID();
    const roomSlug = `room-${randomUUID()}`;
    const songId = `song-${randomUUID()}`;
    const shared = { djUuid, roomSlug, songInfo: { songId, duration: 30 } };
    const first = randomUUID();
    const second = randomUUID();
    const records = [
      playRecord(userUuid, 'played15Sec', { ...shared, playId: first }),
      playRecord(userUuid, 'played30Sec', { ...shared, playId: first }),
      // 40 s listened to a 30 s song: its length and 5 s count.
      playRecord(userUuid, 'totalPlayed', { ...shared, playId: first }),
      playRecord(userUuid, 'played15Sec', { ...shared, playId: second, startedDate: new Date(Date.now() - 12_000).toISOString() }),
      playRecord(userUuid, 'totalPlayed', { ...shared, playId: second, startedDate: new Date(Date.now() - 12_000).toISOString() }),
    ];
    // Every record three times, at once: each is acknowledged, each counts once.
    const sent = await Promise.all(
      [...records, ...records, ...records].map((record) =>
        call('POST', `${A}/kinesis`, { token, body: { topic: 'play-tracking', record } }),
      ),
    );
    expect(sent.map((answer) => answer.status)).toEqual(Array(15).fill(201));
    const expected = { totalPlayed: 2, playedSeconds: 35 + 12, fifteenSecondPlays: 2, thirtySecondPlays: 1 };
    await eventually(async () => ((await totals('user', userUuid)).totalPlayed === 2 ? true : undefined));
    // Let any late duplicate arrive before reading the rest.
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const [scope, key] of [
      ['user', userUuid],
      ['song', songId],
      ['dj', djUuid],
      ['room', roomSlug],
    ] as const) {
      expect(await totals(scope, key)).toEqual(expected);
    }
    // The same through the BFF, for staff (the admin panel's DJ plays).
    const staffToken = await signedToken('staff');
    const viaRest = await call('GET', `${A}/info-admin/play-totals?scope=dj&key=${djUuid}`, { token: staffToken });
    expect(viaRest).toMatchObject({ status: 200, body: expected });
    expect((await call('GET', `${A}/info-admin/play-totals?scope=dj&key=${djUuid}`, { token })).status).toBe(403);
    expect((await call('GET', `${A}/info-admin/play-totals?scope=dj`, { token: staffToken })).status).toBe(400);
    expect((await call('GET', `${A}/info-admin/play-totals?scope=planet&key=x`, { token: staffToken })).status).toBe(400);
    expect((await call('GET', `${A}/info-admin/play-totals`, { token: staffToken })).body.totalPlayed).toBeGreaterThanOrEqual(2);
    const { body: doc } = await call('GET', '/api/openapi.json');
    expect(doc.paths[`${A}/info-admin/play-totals`].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['key', 'scope']);
    const everything = await totals('', '');
    expect(everything.totalPlayed).toBeGreaterThanOrEqual(2);
    // The room service's /info-admin/played-seconds answers the audit service's count (every room, every listener:
    // other platforms' records on the shared topic too, hence at least).
    const played = await call('GET', '/api/room-service/info-admin/played-seconds', { token: await signedToken('admin') });
    expect(played.body.playedSeconds).toBeGreaterThanOrEqual(expected.playedSeconds);
    const refused = await call('GET', '/api/room-service/info-admin/played-seconds', { token });
    expect(refused.status).toBe(403);

    const staff = await signedToken('staff');
    const last = await eventually(async () => {
      const answer = await call('GET', `${A}/info-admin/event-last/${userUuid}`, { token: staff });
      return answer.status === 200 ? answer.body : undefined;
    });
    expect(last).toMatchObject({
      userUuid,
      topic: 'play-tracking',
      name: expect.stringMatching(/^(totalPlayed|played15Sec|played30Sec)$/),
    });

    // A page view after the plays is the user's last event.
    const view = { path: '/rooms/audit-room', query: { tab: 'chat' }, device };
    expect((await call('POST', `${A}/kinesis`, { token, body: { topic: 'page-views', record: view } })).status).toBe(201);
    const viewed = await eventually(async () => {
      const answer = await call('GET', `${A}/info-admin/event-last/${userUuid}`, { token: staff });
      return answer.body.name === 'pageView' ? answer.body : undefined;
    });
    expect(viewed).toMatchObject({ topic: 'page-views', detail: { path: '/rooms/audit-room', query: { tab: 'chat' } } });
    const appEvent = { name: 'shop.opened', properties: { from: 'header' }, device };
    expect((await call('POST', `${A}/kinesis`, { token, body: { topic: 'app-events', record: appEvent } })).status).toBe(201);
    await eventually(async () =>
      (await call('GET', `${A}/info-admin/event-last/${userUuid}`, { token: staff })).body.name === 'appEvent' ? true : undefined,
    );
  });

  it('stores what the user service publishes on moderation-actions and lists it in the crud syntax for staff', async () => {
    const person = (
      await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery' } })
    ).body as { userUuid: string };
    const moderatorUuid = randomUUID();
    const moderator = await signedToken('moderator', moderatorUuid);
    expect((await call('POST', '/api/user-service/users/kick', { token: moderator, body: { userUuid: person.userUuid } })).status).toBe(
      200,
    );
    const staff = await signedToken('staff');
    const list = `${A}/moderation-actions?filter=targetUuid||$eq||${person.userUuid}`;
    const page: Json = await eventually(async () => {
      const answer = await call('GET', list, { token: staff });
      return answer.body.total === 1 ? answer.body : undefined;
    });
    expect(page).toMatchObject({ count: 1, total: 1, page: 1, pageCount: 1 });
    expect(page.data[0]).toMatchObject({
      actionType: 'globalKick',
      role: 'kicked',
      actorUuid: moderatorUuid,
      targetUuid: person.userUuid,
      actorTokenRole: 'moderator',
      roomUuid: null,
      source: 'kafka',
    });
    const id = page.data[0].id as string;
    const one = await call('GET', `${A}/moderation-actions/${id}?fields=actionType,targetUuid`, { token: staff });
    expect(one.body).toEqual({ id, actionType: 'globalKick', targetUuid: person.userUuid });
    const last = await call('GET', `${A}/info-admin/event-last/${person.userUuid}`, { token: staff });
    expect(last.body).toMatchObject({ name: 'globalKick', topic: 'moderation-actions', detail: { actionId: id } });

    expect((await call('GET', list)).status).toBe(401);
    expect((await call('GET', list, { token: await signedToken('user') })).status).toBe(403);
    expect((await call('GET', `${A}/moderation-actions?filter=password||$eq||x`, { token: staff })).status).toBe(400);
    expect((await call('GET', `${A}/moderation-actions?sort=nope,ASC`, { token: staff })).status).toBe(400);
    expect((await call('GET', `${A}/moderation-actions/${randomUUID()}`, { token: staff })).body).toMatchObject({
      statusCode: 404,
      message: 'Moderation action not found',
    });
  });

  it('lets admins create, bulk create, patch, put and delete actions, and staff only read them', async () => {
    const adminUuid = randomUUID();
    const admin = await signedToken('admin', adminUuid);
    const staff = await signedToken('staff');
    const target = randomUUID();
    const room = randomUUID();
    const body = { actionType: 'banUser', targetUuid: target, roomUuid: room, role: 'banned', previousRole: 'dj' };
    expect((await call('POST', `${A}/moderation-actions`, { token: staff, body })).status).toBe(403);
    expect((await call('POST', `${A}/moderation-actions`, { token: admin, body: { ...body, actionType: 'hug' } })).status).toBe(400);
    expect((await call('POST', `${A}/moderation-actions`, { token: admin, body: { ...body, role: 'wizard' } })).status).toBe(400);

    const made = await call('POST', `${A}/moderation-actions`, { token: admin, body });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ ...body, actorUuid: adminUuid, actorTokenRole: 'admin', expirationTime: null, source: 'api' });
    const id = made.body.id as string;

    const bulk = await call('POST', `${A}/moderation-actions/bulk`, {
      token: admin,
      body: {
        bulk: [
          { actionType: 'kickUser', targetUuid: target, roomUuid: room, role: 'kicked' },
          { actionType: 'temporaryBan', targetUuid: target, expirationTime: '2099-01-01T00:00:00.000Z' },
        ],
      },
    });
    expect(bulk.status).toBe(201);
    expect(bulk.body.map((a: Json) => a.actionType)).toEqual(['kickUser', 'temporaryBan']);
    // All or none: one bad action refuses the bulk.
    const refused = await call('POST', `${A}/moderation-actions/bulk`, {
      token: admin,
      body: {
        bulk: [
          { actionType: 'kickUser', targetUuid: target },
          { actionType: 'grantRole', targetUuid: target, role: 'emperor' },
        ],
      },
    });
    expect(refused.status).toBe(400);
    const byTarget = await call('GET', `${A}/moderation-actions?filter=targetUuid||$eq||${target}&sort=actionType,ASC`, { token: staff });
    expect(byTarget.body.data.map((a: Json) => a.actionType)).toEqual(['banUser', 'kickUser', 'temporaryBan']);
    const paged = await call(
      'GET',
      `${A}/moderation-actions?s={"targetUuid":"${target}","actionType":{"$in":["banUser","kickUser"]}}&limit=1&page=2&sort=actionType,ASC`,
      {
        token: staff,
      },
    );
    expect(paged.body).toMatchObject({ count: 1, total: 2, page: 2, pageCount: 2, data: [{ actionType: 'kickUser' }] });

    expect((await call('PATCH', `${A}/moderation-actions/${id}`, { token: staff, body: { role: 'kicked' } })).status).toBe(403);
    const patched = await call('PATCH', `${A}/moderation-actions/${id}`, {
      token: admin,
      body: { previousRole: null, expirationTime: '2098-05-05T00:00:00Z' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      actionType: 'banUser',
      previousRole: null,
      role: 'banned',
      expirationTime: '2098-05-05T00:00:00.000Z',
    });
    const replaced = await call('PUT', `${A}/moderation-actions/${id}`, {
      token: admin,
      body: { actionType: 'globalBan', targetUuid: target },
    });
    expect(replaced.body).toMatchObject({
      actionType: 'globalBan',
      role: null,
      roomUuid: null,
      actorUuid: null,
      expirationTime: null,
      targetUuid: target,
    });
    expect((await call('PUT', `${A}/moderation-actions/${id}`, { token: admin, body: { actionType: 'globalBan' } })).status).toBe(400);

    expect((await call('DELETE', `${A}/moderation-actions/${id}`, { token: staff })).status).toBe(403);
    const deleted = await call('DELETE', `${A}/moderation-actions/${id}`, { token: admin });
    expect([deleted.status, deleted.body.id]).toEqual([200, id]);
    expect((await call('GET', `${A}/moderation-actions/${id}`, { token: staff })).status).toBe(404);
    expect((await call('DELETE', `${A}/moderation-actions/${id}`, { token: admin })).status).toBe(404);
    expect((await call('PATCH', `${A}/moderation-actions/${id}`, { token: admin, body: { role: 'kicked' } })).status).toBe(404);
  });

  it("answers a user's actions to the user and staff, and 'Unauthorized to perform action' to anyone else", async () => {
    const admin = await signedToken('admin');
    const userUuid = randomUUID();
    await call('POST', `${A}/moderation-actions/bulk`, {
      token: admin,
      body: { bulk: [1, 2, 3].map(() => ({ actionType: 'kickUser', targetUuid: userUuid, role: 'kicked' })) },
    });
    const own = await call('GET', `${A}/user-actions/${userUuid}?limit=2`, { token: await signedToken('user', userUuid) });
    expect([own.status, own.body.total, own.body.data.length]).toEqual([200, 3, 2]);
    expect((await call('GET', `${A}/user-actions/${userUuid}`, { token: await signedToken('staff') })).body.total).toBe(3);
    const other = await call('GET', `${A}/user-actions/${userUuid}`, { token: await signedToken('user') });
    expect([other.status, other.body.message]).toEqual([403, 'Unauthorized to perform action']);
    const guest = await call('GET', `${A}/user-actions/${userUuid}`, { token: await signedToken('guest', userUuid) });
    expect(guest.status).toBe(403);
    expect((await call('GET', `${A}/user-actions/${userUuid}`)).status).toBe(401);
  });

  it('answers the info-admin paths to staff only', async () => {
    const staff = await signedToken('staff');
    const user = await signedToken('user');
    const sockets = await call('GET', `${A}/info-admin/socket-events-names`, { token: staff });
    expect(sockets.body).toEqual(expect.arrayContaining(['joinRoom', 'playedSong', 'kickedFromRoom']));
    const users = await call('GET', `${A}/info-admin/user-events-names`, { token: staff });
    expect(users.body).toEqual(expect.arrayContaining(['totalPlayed', 'played15Sec', 'played30Sec', 'pageView', 'banUser', 'globalUnBan']));
    const status = await call('GET', `${A}/info-admin/audit-service-status`, { token: staff });
    expect(status.body).toMatchObject({ status: 'ok', version: '1.0.0', databaseOk: true });
    expect((await call('GET', `${A}/info-admin/event-last/${randomUUID()}`, { token: staff })).status).toBe(404);
    for (const path of ['socket-events-names', 'user-events-names', 'audit-service-status', `event-last/${randomUUID()}`]) {
      expect((await call('GET', `${A}/info-admin/${path}`, { token: user })).status).toBe(403);
      expect((await call('GET', `${A}/info-admin/${path}`)).status).toBe(401);
    }
    expect((await call('POST', `${A}/sentry-testing`, { token: user })).status).toBe(403);
    const reported = await call('POST', `${A}/sentry-testing`, { token: await signedToken('admin') });
    expect([reported.status, reported.body.eventId]).toEqual([200, expect.stringMatching(/^[0-9a-f-]{36}$/)]);
  });

  it("geolocates an address, or the caller's as the BFF sees it behind a trusted proxy, from the shipped database", async () => {
    const token = await signedToken('user');
    const google = await call('POST', `${A}/geolocate`, { token, body: { ip: '8.8.8.8' } });
    expect(google.body).toMatchObject({ ip: '8.8.8.8', found: true, country: 'US' });
    const v6 = await call('POST', `${A}/geolocate`, { token, body: { ip: '2001:4860:4860::8888' } });
    expect(v6.body).toMatchObject({ found: true, country: 'US' });
    // The test connects from loopback, a trusted proxy: X-Forwarded-For names the client.
    const forwarded = await call('GET', `${A}/geolocate`, { token, headers: { 'x-forwarded-for': '81.2.69.142' } });
    expect(forwarded.body).toMatchObject({ ip: '81.2.69.142', found: true, country: 'GB', city: 'Newmarket', timezone: 'Europe/London' });
    expect(forwarded.body.ll).toHaveLength(2);
    const posted = await call('POST', `${A}/geolocate`, { token, body: {}, headers: { 'x-forwarded-for': '1.1.1.1' } });
    expect(posted.body).toMatchObject({ ip: '1.1.1.1', country: 'AU' });
    const local = await call('GET', `${A}/geolocate`, { token });
    expect(local.body).toMatchObject({ ip: '127.0.0.1', found: false, country: '', ll: null });
    expect((await call('POST', `${A}/geolocate`, { token, body: { ip: '999.1.1.1' } })).status).toBe(400);
    expect((await call('GET', `${A}/geolocate`)).status).toBe(401);
  });
});
