// Notifications end to end (issue 17): a DJ takes the stage on the room feed,
// the room service announces it on room-events, the social service fans it out
// to the DJ's fans through the notifications topic, and a fan's browser gets
// the push from the Web Push service (web-push-testing, in this process); five
// takes in ten minutes tell the fan once; a seat that opens tells who waits
// for it; a browser the push service reports gone is removed; preferences hold
// back what the person muted; friend invitations and answers are told.
import { randomUUID } from 'node:crypto';
import { eventually } from '@spinroom/platform/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { generateVapidKeys } from '../../services/social/src/notifications/channels/web-push.js';
import { startWebPushStandIn, type BrowserSubscription } from '../../services/social/test/support/push-stand-ins.js';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';

const SOCIAL = '/api/social-service';
const pushService = await startWebPushStandIn();
const vapid = generateVapidKeys();

describe('notifications through Kafka to the Web Push service', () => {
  const { call, platform } = usePlatform({
    social: {
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      WEB_PUSH_PLAIN_HTTP_ORIGINS: [new URL(pushService.base).origin],
    },
  });
  const open: FeedListener[] = [];
  afterEach(() => {
    for (const listener of open.splice(0)) listener.close();
  });
  afterAll(() => pushService.close());

  const person = async () => {
    const body = (
      await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery' } })
    ).body;
    return { token: body.accessToken as string, uuid: body.userUuid as string };
  };
  /** A browser of the person's, subscribed with the service's key and registered through the BFF. */
  const browser = async (who: { token: string }): Promise<BrowserSubscription> => {
    const key = await call('GET', `${SOCIAL}/web-notifications/public-key`);
    expect(key.status).toBe(200);
    expect(key.body.publicKey).toBe(vapid.publicKey);
    const subscription = await pushService.subscribe(key.body.publicKey as string);
    const stored = await call('POST', `${SOCIAL}/web-notifications/subscription`, {
      token: who.token,
      body: { endpoint: subscription.endpoint, expirationTime: null, keys: subscription.keys },
    });
    expect(stored.status).toBe(201);
    expect(stored.body.created).toBe(true);
    return subscription;
  };
  const pushes = (subscription: BrowserSubscription) => pushService.messages(subscription.clientHash);
  const pushesOf = async (subscription: BrowserSubscription, kind: string) => (await pushes(subscription)).filter((m) => m.kind === kind);

  it("tells a fan's browser once when the DJ they follow takes the stage five times, and a waiting person when a seat opens", async () => {
    const dj = await person();
    const fan = await person();
    const waiter = await person();
    expect((await call('POST', `${SOCIAL}/dj-fans`, { token: fan.token, body: { djUuid: dj.uuid } })).status).toBe(201);
    const fanBrowser = await browser(fan);
    const waiterBrowser = await browser(waiter);
    expect(
      (
        await call('POST', '/api/playlist-service/crate/special/queue/songs', {
          token: dj.token,
          body: {
            songs: [
              { musicProvider: 'spotify', songId: `ntf-${randomUUID()}`, trackName: 'Take the stage', artistName: 'Artist', duration: 200 },
            ],
            append: true,
          },
        })
      ).status,
    ).toBe(201);
    const room = (
      await call('POST', '/api/room-service/rooms/infrastructure', { token: dj.token, body: { name: `Stage ${randomUUID().slice(0, 6)}` } })
    ).body as { uuid: string; slug: string };
    const d = await FeedListener.join(platform().baseUrl, dj.token, dj.uuid, room.uuid);
    open.push(d);
    await d.action('addDj');
    await eventually(async () => ((await pushesOf(fanBrowser, 'djOnStage')).length > 0 ? true : undefined), 60_000, 250);
    const [told] = await pushesOf(fanBrowser, 'djOnStage');
    expect(told).toMatchObject({
      title: 'A DJ you follow is on stage',
      data: { djUuid: dj.uuid, roomUuid: room.uuid, roomSlug: room.slug },
    });
    // Down and up again four more times within the window.
    for (let take = 0; take < 4; take += 1) {
      await d.action('removeDj');
      await d.until((s) => !s.djs.some((x: { uuid: string }) => x.uuid === dj.uuid), 'off the stage');
      await d.action('addDj');
      await d.until((s) => s.djs.some((x: { uuid: string }) => x.uuid === dj.uuid), 'on the stage');
    }
    // The waiter asks for the next seat; the DJ's leaving opens one.
    const watch = await call('POST', `${SOCIAL}/room-users-notification`, { token: waiter.token, body: { roomUuid: room.uuid } });
    expect(watch.status).toBe(201);
    expect((await call('GET', `${SOCIAL}/room-users-notification`, { token: waiter.token })).body.watches).toEqual([
      expect.objectContaining({ roomUuid: room.uuid }),
    ]);
    await d.action('removeDj');
    await eventually(async () => ((await pushesOf(waiterBrowser, 'seatOpen')).length > 0 ? true : undefined), 60_000, 250);
    expect((await pushesOf(waiterBrowser, 'seatOpen'))[0]).toMatchObject({ data: { roomUuid: room.uuid } });
    // Room events are read in order: every take was handled before the seat opened. Once, then.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await pushesOf(fanBrowser, 'djOnStage')).toHaveLength(1);
    expect((await call('GET', `${SOCIAL}/room-users-notification`, { token: waiter.token })).body.watches).toEqual([]);
  }, 240_000);

  it('removes a browser the push service reports gone (410)', async () => {
    const fan = await person();
    const gone = await browser(fan);
    const kept = await browser(fan);
    await pushService.expire(gone.clientHash);
    const sent = await call('POST', `${SOCIAL}/web-notifications/push-notification`, {
      token: fan.token,
      body: { title: 'Hello', body: 'Is this on?' },
    });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ queued: 1, accepted: true });
    await eventually(async () => ((await pushes(kept)).length > 0 ? true : undefined), 60_000, 250);
    const devices = await eventually(async () => {
      const list = await call('GET', `${SOCIAL}/devices/all-devices/${fan.uuid}`, { token: fan.token });
      const tokens = (list.body.devices ?? list.body) as Array<{ token: string }>;
      return tokens.length === 1 ? tokens : undefined;
    }, 30_000);
    expect(devices.map((d) => d.token)).toEqual([kept.endpoint]);
  }, 120_000);

  it('holds back a muted kind and tells friends of an invitation and its answer', async () => {
    const a = await person();
    const b = await person();
    const aBrowser = await browser(a);
    const bBrowser = await browser(b);
    const muted = await call('PUT', `${SOCIAL}/notifications/preferences`, {
      token: a.token,
      body: { mutedKinds: ['custom'], quietHours: null },
    });
    expect(muted.status).toBe(200);
    expect((await call('GET', `${SOCIAL}/dj-fans-notification`, { token: a.token })).body).toEqual({ enabled: true });
    await call('POST', `${SOCIAL}/web-notifications/push-notification`, { token: a.token, body: { title: 'Muted' } });
    const invitation = await call('POST', `${SOCIAL}/friend-invitations`, { token: a.token, body: { userUuid: b.uuid } });
    expect(invitation.status).toBe(201);
    await eventually(async () => ((await pushesOf(bBrowser, 'friendInvitation')).length > 0 ? true : undefined), 60_000, 250);
    expect((await pushesOf(bBrowser, 'friendInvitation'))[0]).toMatchObject({ data: { fromUuid: a.uuid } });
    const answer = await call('POST', `${SOCIAL}/friend-invitations/handle-friend`, {
      token: b.token,
      body: { invitationId: invitation.body.id, status: 'ACCEPTED' },
    });
    expect(answer.status).toBe(200);
    await eventually(async () => ((await pushesOf(aBrowser, 'friendInvitationAnswered')).length > 0 ? true : undefined), 60_000, 250);
    expect((await pushesOf(aBrowser, 'friendInvitationAnswered'))[0]).toMatchObject({ title: 'Friend invitation accepted' });
    // The muted one, asked for before the invitation's answer on the same person's partition, never came.
    expect(await pushesOf(aBrowser, 'custom')).toEqual([]);
    const prefs = await call('GET', `${SOCIAL}/notifications/preferences`, { token: a.token });
    expect(prefs.body).toMatchObject({ mutedKinds: ['custom'], quietHours: null });
  }, 120_000);

  it('sending to others is for admins, checked by the social service', async () => {
    const user = await person();
    const target = await person();
    const refused = await call('POST', `${SOCIAL}/mobileNotification`, {
      token: user.token,
      body: { userUuid: target.uuid, title: 'Hi' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only admins may send this notification');
    const admin = await signedToken('admin');
    const sent = await call('POST', `${SOCIAL}/mobileNotification/admin`, {
      token: admin,
      body: { userUuids: [target.uuid], title: 'Hi' },
    });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ queued: 1, accepted: true });
    expect((await call('POST', `${SOCIAL}/mobileNotification/all-devices`, { token: user.token, body: { title: 'All' } })).status).toBe(
      403,
    );
    expect((await call('POST', `${SOCIAL}/notifications/dj-fans`, { token: user.token, body: {} })).body).toMatchObject({ accepted: true });
    expect((await call('POST', `${SOCIAL}/notifications/dj-fans`, { token: user.token, body: {} })).body).toMatchObject({
      accepted: false,
    });
    expect((await call('POST', `${SOCIAL}/mobileNotification/user`, { token: user.token, body: { title: 'Me' } })).status).toBe(202);
    // A room with nobody in it: still refused to a user, and nothing to send for an admin.
    const empty = (
      await call('POST', '/api/room-service/rooms/infrastructure', { token: user.token, body: { name: `Empty ${randomUUID()}` } })
    ).body;
    for (const path of ['notifications/custom-message-from-room', 'mobileNotification/room-users']) {
      const body = path.startsWith('notifications')
        ? { roomUuid: empty.uuid, message: 'Anyone?' }
        : { roomUuid: empty.uuid, title: 'Anyone?' };
      const asUser = await call('POST', `${SOCIAL}/${path}`, { token: user.token, body });
      expect(asUser.status, path).toBe(403);
      const asAdmin = await call('POST', `${SOCIAL}/${path}`, { token: admin, body });
      expect(asAdmin.status, path).toBe(202);
      expect(asAdmin.body, path).toMatchObject({ queued: 0, accepted: true });
    }
  }, 120_000);
});
