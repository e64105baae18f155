// DJ fans through the BFF (issue 17): users follow and unfollow a DJ, the
// fans are counted and listed 12 a page with their total, a user's followed
// DJs likewise; admins see DJs by fans; services read the devices of a DJ's
// fans; each new follow is announced once on social-events.
import { randomUUID } from 'node:crypto';
import { DjFollowed } from '@spinroom/contracts/events/v1/social_events';
import { eventually } from '@spinroom/platform/testing';
import { describe, expect, it } from 'vitest';
import { signedToken, usePlatform, useTopic } from '../support/platform.js';

const SOCIAL = '/api/social-service';

describe('DJ fans through the BFF', () => {
  const { call } = usePlatform();
  const events = useTopic('social-events');

  it('follows, counts, pages by 12 and unfollows', async () => {
    const dj = randomUUID();
    const fans = Array.from({ length: 14 }, () => randomUUID());
    const tokens = await Promise.all(fans.map((fan) => signedToken('user', fan)));
    expect((await call('POST', `${SOCIAL}/dj-fans`, { body: { djUuid: dj } })).status).toBe(401);
    expect((await call('POST', `${SOCIAL}/dj-fans`, { token: tokens[0], body: { djUuid: fans[0] } })).body.message).toBe(
      'You cannot follow yourself',
    );
    for (const token of tokens) expect((await call('POST', `${SOCIAL}/dj-fans`, { token, body: { djUuid: dj } })).status).toBe(201);
    // Following again changes nothing.
    const again = await call('POST', `${SOCIAL}/dj-fans`, { token: tokens[0], body: { djUuid: dj } });
    expect(again.body).toMatchObject({ fanUuid: fans[0], djUuid: dj });

    const count = await call('GET', `${SOCIAL}/dj-fans/count/${dj}`, { token: tokens[0] });
    expect(count.body).toEqual({ count: 14, fans: 14, following: 0 });
    expect((await call('GET', `${SOCIAL}/dj-fans/count/${fans[0]}`, { token: tokens[0] })).body).toEqual({
      count: 0,
      fans: 0,
      following: 1,
    });

    const first = await call('GET', `${SOCIAL}/dj-fans/dj-fans-paginated/${dj}`, { token: tokens[0] });
    expect(first.body).toMatchObject({ total: 14, skip: 0, take: 12 });
    expect(first.body.data).toHaveLength(12);
    // Newest first: the last to follow leads.
    expect(first.body.data[0].fanUuid).toBe(fans[13]);
    const second = await call('GET', `${SOCIAL}/dj-fans/dj-fans-paginated/${dj}?skip=12&take=12`, { token: tokens[0] });
    expect(second.body.data.map((f: { fanUuid: string }) => f.fanUuid)).toEqual([fans[1], fans[0]]);
    expect((await call('GET', `${SOCIAL}/dj-fans/dj-fans/${dj}?take=3`, { token: tokens[0] })).body).toHaveLength(3);
    expect((await call('GET', `${SOCIAL}/dj-fans/dj-fans-paginated/${dj}?take=101`, { token: tokens[0] })).status).toBe(400);

    const followed = await call('GET', `${SOCIAL}/dj-fans/${fans[0]}/djs-followed`, { token: tokens[1] });
    expect(followed.body).toMatchObject({ total: 1, data: [{ djUuid: dj, fanUuid: fans[0] }] });
    expect((await call('GET', `${SOCIAL}/dj-fans`, { token: tokens[0] })).body).toMatchObject({ total: 1, data: [{ djUuid: dj }] });
    expect((await call('GET', `${SOCIAL}/dj-fans/dj-fan/${dj}`, { token: tokens[0] })).body.fanUuid).toBe(fans[0]);
    expect(await call('GET', `${SOCIAL}/dj-fans/dj-fan/${fans[5]}`, { token: tokens[0] })).toMatchObject({
      status: 404,
      body: { message: 'DJ fan not found' },
    });

    expect((await call('DELETE', `${SOCIAL}/dj-fans/${dj}`, { token: tokens[0] })).status).toBe(200);
    expect((await call('DELETE', `${SOCIAL}/dj-fans/${dj}`, { token: tokens[0] })).status).toBe(404);
    const byRecord = (await call('GET', `${SOCIAL}/dj-fans/dj-fan/${dj}`, { token: tokens[1] })).body.id;
    expect((await call('DELETE', `${SOCIAL}/dj-fans/${byRecord}`, { token: tokens[1] })).status).toBe(200);
    expect((await call('GET', `${SOCIAL}/dj-fans/count/${dj}`, { token: tokens[2] })).body.count).toBe(12);

    // Each new follow was announced once, keyed by the DJ.
    const announced = await eventually(async () => {
      const follows = events
        .filter((message) => message.headers['event-type'] === 'social.dj-followed' && message.key === dj)
        .map((message) => DjFollowed.decode(message.value));
      return follows.length >= 14 ? follows : undefined;
    }, 30_000);
    expect(announced).toHaveLength(14);
    expect(new Set(announced.map((event) => event.fanUuid))).toEqual(new Set(fans));
  });

  it("shows admins DJs by fans, and services the devices of a DJ's fans", async () => {
    const dj = randomUUID();
    const [fan, other] = [randomUUID(), randomUUID()];
    const fanToken = await signedToken('user', fan);
    await call('POST', `${SOCIAL}/dj-fans`, { token: fanToken, body: { djUuid: dj } });
    await call('POST', `${SOCIAL}/dj-fans`, { token: await signedToken('user', other), body: { djUuid: dj } });
    await call('POST', `${SOCIAL}/devices`, { token: fanToken, body: { token: `ios-${fan}`, type: 'ios' } });
    await call('POST', `${SOCIAL}/devices`, { token: fanToken, body: { token: `android-${fan}`, type: 'android' } });

    const admin = await signedToken('admin');
    expect((await call('GET', `${SOCIAL}/admin/djs`, { token: fanToken })).status).toBe(403);
    const djs = await call('GET', `${SOCIAL}/admin/djs?take=100`, { token: admin });
    expect(djs.body.data.find((d: { djUuid: string }) => d.djUuid === dj)).toMatchObject({ fans: 2, following: 0 });
    expect((await call('GET', `${SOCIAL}/admin/djs/${dj}`, { token: admin })).body).toMatchObject({ djUuid: dj, fans: 2 });
    expect((await call('GET', `${SOCIAL}/dj-fans/admin/${dj}`, { token: admin })).body).toMatchObject({
      dj: { fans: 2 },
      fans: { total: 2 },
    });
    expect((await call('GET', `${SOCIAL}/dj-fans/admin/${dj}`, { token: fanToken })).status).toBe(403);

    expect((await call('GET', `${SOCIAL}/dj-fans/devices/list?djUuid=${dj}`, { token: fanToken })).status).toBe(403);
    const service = await signedToken('service');
    const page1 = await call('GET', `${SOCIAL}/dj-fans/devices/list?djUuid=${dj}&take=1`, { token: service });
    expect(page1.body).toHaveLength(1);
    const page2 = await call('GET', `${SOCIAL}/dj-fans/devices/list?djUuid=${dj}&take=5&after=${page1.body[0].id}`, { token: service });
    expect([...page1.body, ...page2.body].map((d: { token: string }) => d.token).sort()).toEqual([`android-${fan}`, `ios-${fan}`]);
  });
});
