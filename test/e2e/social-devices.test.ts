// Devices through the BFF (issue 17): a user registers phones' push tokens and
// browsers' Web Push subscriptions, reads and removes them by token and by the
// pair (user, token); another user may not; services and admins may.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signedToken, usePlatform } from '../support/platform.js';

const SOCIAL = '/api/social-service';
const KEYS = {
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
};

describe('devices through the BFF', () => {
  const { call } = usePlatform();

  it("registers, reads and removes a user's devices", async () => {
    const alice = randomUUID();
    const token = await signedToken('user', alice);
    expect((await call('POST', `${SOCIAL}/devices`, { body: { token: 'fcm-1', type: 'android' } })).status).toBe(401);
    expect((await call('POST', `${SOCIAL}/devices`, { token, body: { token: 'fcm-1', type: 'windows' } })).status).toBe(400);
    expect(
      await call('POST', `${SOCIAL}/devices`, { token, body: { token: 'https://fcm.googleapis.com/fcm/send/abc', type: 'web' } }),
    ).toMatchObject({
      status: 400,
      body: { message: "A web device needs its subscription's keys p256dh and auth (base64url)" },
    });
    expect((await call('POST', `${SOCIAL}/devices`, { token: await signedToken('guest'), body: { token: 'g', type: 'ios' } })).status).toBe(
      403,
    );

    const phone = await call('POST', `${SOCIAL}/devices`, { token, body: { token: `fcm-${alice}`, type: 'android' } });
    expect(phone).toMatchObject({ status: 201, body: { userUuid: alice, type: 'android', webPush: null } });
    // A browser's endpoint is its push service's (FCM for Chrome): another host is refused.
    const refused = await call('POST', `${SOCIAL}/devices`, {
      token,
      body: { token: `https://push.example/send/${alice}`, type: 'web', keys: KEYS },
    });
    expect(refused).toMatchObject({
      status: 400,
      body: { message: "A web device's endpoint must be a browser's push service (FCM, Mozilla, Windows or Apple)" },
    });
    const endpoint = `https://fcm.googleapis.com/fcm/send/${alice}`;
    const browser = await call('POST', `${SOCIAL}/devices`, { token, body: { token: endpoint, type: 'web', keys: KEYS } });
    expect(browser.body).toMatchObject({ type: 'web', token: endpoint, webPush: KEYS });

    const all = await call('GET', `${SOCIAL}/devices/all-devices/${alice}`, { token });
    expect(all.body.map((d: { type: string }) => d.type).sort()).toEqual(['android', 'web']);
    const single = await call('GET', `${SOCIAL}/devices/single-device/${alice}/${encodeURIComponent(endpoint)}`, { token });
    expect(single.body.id).toBe(browser.body.id);

    // Another user sees none of them; a service and an admin do.
    const bob = await signedToken('user');
    expect((await call('GET', `${SOCIAL}/devices/all-devices/${alice}`, { token: bob })).status).toBe(403);
    expect((await call('GET', `${SOCIAL}/devices/all-devices/${alice}`, { token: await signedToken('service') })).body).toHaveLength(2);
    expect((await call('GET', `${SOCIAL}/devices/all-devices/${alice}`, { token: await signedToken('admin') })).body).toHaveLength(2);
    expect((await call('DELETE', `${SOCIAL}/devices/fcm-${alice}`, { token: bob })).status).toBe(404);
    expect((await call('DELETE', `${SOCIAL}/devices/${alice}/fcm-${alice}`, { token: bob })).status).toBe(403);

    // The same token registered again moves to whoever registers it.
    const moved = await call('POST', `${SOCIAL}/devices`, { token: bob, body: { token: `fcm-${alice}`, type: 'android' } });
    expect(moved.body.id).toBe(phone.body.id);
    expect((await call('GET', `${SOCIAL}/devices/all-devices/${alice}`, { token })).body).toHaveLength(1);
    await call('POST', `${SOCIAL}/devices`, { token, body: { token: `fcm-${alice}`, type: 'android' } });

    expect((await call('DELETE', `${SOCIAL}/devices/fcm-${alice}`, { token })).status).toBe(200);
    expect(await call('DELETE', `${SOCIAL}/devices/fcm-${alice}`, { token })).toMatchObject({
      status: 404,
      body: { message: 'Device not found' },
    });
    expect((await call('DELETE', `${SOCIAL}/devices/${alice}/${encodeURIComponent(endpoint)}`, { token })).status).toBe(200);
    expect((await call('GET', `${SOCIAL}/devices/single-device/${alice}/${encodeURIComponent(endpoint)}`, { token })).status).toBe(404);
    expect((await call('GET', `${SOCIAL}/devices/all-devices/${alice}`, { token })).body).toEqual([]);
  });
});
