import { randomBytes, randomUUID } from 'node:crypto';
import { createLogger } from '@spinroom/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApnsChannel } from '../src/notifications/channels/apns.js';
import { FcmChannel } from '../src/notifications/channels/fcm.js';
import { generateVapidKeys, WebPushChannel } from '../src/notifications/channels/web-push.js';
import { NotificationDelivery, type DeviceDirectory } from '../src/notifications/delivery.js';
import {
  heldBack,
  inQuietHours,
  pushEndpointAllowed,
  type Device,
  type Notification,
  type NotificationPreferences,
} from '../src/notifications/notification.js';
import { startApnsStandIn, startFcmStandIn, startWebPushStandIn } from './support/push-stand-ins.js';

const notification = (over: Partial<Notification> = {}): Notification => ({
  id: randomUUID(),
  recipientUuid: randomUUID(),
  kind: 'djOnStage',
  title: 'DJ Ada is on stage',
  body: 'Ada took the stage in The Room',
  data: { roomSlug: 'the-room' },
  silent: false,
  channel: 'all',
  ...over,
});

describe('preferences', () => {
  const quiet = { startMinute: 22 * 60, endMinute: 7 * 60, timeZone: 'Europe/Madrid' };

  it('quiet hours span midnight in the person’s own time zone', () => {
    // 21:30 UTC is 22:30 in Madrid (winter): quiet; 06:30 UTC is 07:30: not.
    expect(inQuietHours(quiet, new Date('2026-01-10T21:30:00Z'))).toBe(true);
    expect(inQuietHours(quiet, new Date('2026-01-10T05:59:00Z'))).toBe(true);
    expect(inQuietHours(quiet, new Date('2026-01-10T06:30:00Z'))).toBe(false);
    expect(inQuietHours(quiet, new Date('2026-01-10T12:00:00Z'))).toBe(false);
    expect(inQuietHours({ startMinute: 9 * 60, endMinute: 17 * 60, timeZone: 'UTC' }, new Date('2026-01-10T12:00:00Z'))).toBe(true);
    expect(inQuietHours({ startMinute: 9 * 60, endMinute: 17 * 60, timeZone: 'UTC' }, new Date('2026-01-10T17:00:00Z'))).toBe(false);
  });

  it('a muted kind is held back at any hour; quiet hours hold back what shows, not silent data', () => {
    const prefs: NotificationPreferences = { muted: ['seatOpen'], quietHours: quiet };
    const noon = new Date('2026-01-10T12:00:00Z');
    const night = new Date('2026-01-10T23:00:00Z');
    expect(heldBack(prefs, { kind: 'seatOpen', silent: false }, noon)).toBe('muted');
    expect(heldBack(prefs, { kind: 'djOnStage', silent: false }, noon)).toBeNull();
    expect(heldBack(prefs, { kind: 'djOnStage', silent: false }, night)).toBe('quietHours');
    expect(heldBack(prefs, { kind: 'custom', silent: true }, night)).toBeNull();
  });
});

describe('Web Push against web-push-testing', () => {
  let standIn: Awaited<ReturnType<typeof startWebPushStandIn>>;
  const keys = generateVapidKeys();
  let channel: WebPushChannel;
  beforeAll(async () => {
    standIn = await startWebPushStandIn();
    channel = new WebPushChannel(
      { subject: 'mailto:push@spinroom.test', ...keys },
      { ttlSeconds: 60, timeoutMs: 5000, plainHttpOrigins: [new URL(standIn.base).origin], hosts: ['fcm.googleapis.com'] },
    );
  });
  afterAll(() => standIn?.close());

  it('delivers the payload encrypted for the subscription and signed with the VAPID keys; an expired one is gone', async () => {
    const subscription = await standIn.subscribe(keys.publicKey);
    const device: Device = { type: 'web', id: randomUUID(), userUuid: randomUUID(), endpoint: subscription.endpoint, ...subscription.keys };
    const sent = notification();
    expect(await channel.send(device, sent)).toBe('sent');
    expect(await standIn.messages(subscription.clientHash)).toEqual([
      expect.objectContaining({ id: sent.id, kind: 'djOnStage', title: 'DJ Ada is on stage', data: { roomSlug: 'the-room' } }),
    ]);
    await standIn.expire(subscription.clientHash);
    expect(await channel.send(device, notification())).toBe('gone');
  });

  it('only known push services and the allowed local origin are posted to', () => {
    const rules = { hosts: ['fcm.googleapis.com', '*.notify.windows.com'], plainHttpOrigins: ['http://localhost:8090'] };
    expect(pushEndpointAllowed('https://fcm.googleapis.com/fcm/send/abc', rules)).toBe(true);
    expect(pushEndpointAllowed('https://wns2-by3p.notify.windows.com/w/?token=x', rules)).toBe(true);
    expect(pushEndpointAllowed('http://localhost:8090/notify/x', rules)).toBe(true);
    expect(pushEndpointAllowed('https://169.254.169.254/latest', rules)).toBe(false);
    expect(pushEndpointAllowed('https://fcm.googleapis.com.evil.example/x', rules)).toBe(false);
    expect(pushEndpointAllowed('https://user:pw@fcm.googleapis.com/x', rules)).toBe(false);
    expect(pushEndpointAllowed('http://fcm.googleapis.com/x', rules)).toBe(false);
    expect(pushEndpointAllowed('not a url', rules)).toBe(false);
  });

  it('an https endpoint outside the known push services is not posted to', async () => {
    const device: Device = {
      type: 'web',
      id: randomUUID(),
      userUuid: randomUUID(),
      endpoint: 'https://169.254.169.254/x',
      p256dh: 'p',
      auth: 'a',
    };
    await expect(channel.send(device, notification())).rejects.toThrow('push endpoint not allowed');
  });

  it('a plain HTTP endpoint of another origin is not pushed to', async () => {
    const device: Device = {
      type: 'web',
      id: randomUUID(),
      userUuid: randomUUID(),
      endpoint: 'http://127.0.0.2:9/notify/x',
      p256dh: 'p',
      auth: 'a',
    };
    await expect(channel.send(device, notification())).rejects.toThrow('push endpoint not allowed');
  });

  it('a subscription made for another application server key is refused, not taken as gone', async () => {
    const other = generateVapidKeys();
    const subscription = await standIn.subscribe(other.publicKey);
    const device: Device = { type: 'web', id: randomUUID(), userUuid: randomUUID(), endpoint: subscription.endpoint, ...subscription.keys };
    await expect(channel.send(device, notification())).rejects.toThrow();
  });
});

describe('FCM HTTP v1 against its stand-in', () => {
  let standIn: Awaited<ReturnType<typeof startFcmStandIn>>;
  let channel: FcmChannel;
  beforeAll(async () => {
    standIn = await startFcmStandIn();
    channel = new FcmChannel(standIn.account, { endpoint: standIn.endpoint });
  });
  afterAll(async () => {
    await channel?.close();
    await standIn?.close();
  });

  it('sends a notification message with its data, authorized by the service account; an UNREGISTERED token is gone', async () => {
    const token = `fcm-${randomBytes(8).toString('hex')}`;
    const device: Device = { type: 'android', id: randomUUID(), userUuid: randomUUID(), token };
    const sent = notification();
    expect(await channel.send(device, sent)).toBe('sent');
    expect(standIn.received).toEqual([
      {
        token,
        message: expect.objectContaining({
          notification: { title: 'DJ Ada is on stage', body: 'Ada took the stage in The Room' },
          data: expect.objectContaining({ notificationId: sent.id, kind: 'djOnStage', roomSlug: 'the-room' }),
        }),
      },
    ]);
    standIn.unregister(token);
    expect(await channel.send(device, notification())).toBe('gone');
  });

  it('a silent notification carries data alone', async () => {
    const token = `fcm-${randomBytes(8).toString('hex')}`;
    await channel.send(
      { type: 'android', id: randomUUID(), userUuid: randomUUID(), token },
      notification({ silent: true, kind: 'custom' }),
    );
    const message = standIn.received.find((r) => r.token === token)?.message;
    expect(message?.notification).toBeUndefined();
    expect(message?.data).toMatchObject({ kind: 'custom' });
  });
});

describe('APNs against its HTTP/2 stand-in', () => {
  let standIn: Awaited<ReturnType<typeof startApnsStandIn>>;
  let channel: ApnsChannel;
  beforeAll(async () => {
    standIn = await startApnsStandIn('fm.spinroom.app');
    channel = new ApnsChannel({
      key: standIn.key,
      keyId: standIn.keyId,
      teamId: standIn.teamId,
      bundleId: 'fm.spinroom.app',
      production: false,
      address: standIn.address,
      ca: standIn.ca,
    });
  });
  afterAll(async () => {
    await channel?.close();
    await standIn?.close();
  });

  it('sends an alert with the provider token and topic; 410 Unregistered and 400 BadDeviceToken are gone', async () => {
    const token = randomBytes(32).toString('hex');
    const device: Device = { type: 'ios', id: randomUUID(), userUuid: randomUUID(), token };
    const sent = notification();
    expect(await channel.send(device, sent)).toBe('sent');
    expect(standIn.received).toEqual([
      expect.objectContaining({
        token,
        headers: expect.objectContaining({ 'apns-topic': 'fm.spinroom.app', 'apns-push-type': 'alert' }),
        payload: expect.objectContaining({
          aps: { alert: { title: 'DJ Ada is on stage', body: 'Ada took the stage in The Room' } },
          spinroom: expect.objectContaining({ id: sent.id, kind: 'djOnStage' }),
        }),
      }),
    ]);
    standIn.unregister(token);
    expect(await channel.send(device, notification())).toBe('gone');
    expect(await channel.send({ ...device, token: 'not-a-token' }, notification())).toBe('gone');
  });
});

describe('delivery to a person’s devices', () => {
  it('reaches each device through its channel, removes a gone one, keeps the others when one fails, and respects preferences', async () => {
    const userUuid = randomUUID();
    let devices: Device[] = [
      { type: 'web', id: 'w1', userUuid, endpoint: 'https://push.example/1', p256dh: 'p', auth: 'a' },
      { type: 'web', id: 'w2', userUuid, endpoint: 'https://push.example/2', p256dh: 'p', auth: 'a' },
      { type: 'android', id: 'a1', userUuid, token: 'broken' },
      { type: 'ios', id: 'i1', userUuid, token: 't' },
    ];
    const directory: DeviceDirectory = {
      devicesOf: async () => devices,
      remove: async (device) => {
        devices = devices.filter((d) => d.id !== device.id);
      },
    };
    let preferences: NotificationPreferences = { muted: [], quietHours: null };
    const pushed: string[] = [];
    const delivery = new NotificationDelivery(
      directory,
      { preferencesOf: async () => preferences },
      {
        web: {
          name: 'web',
          send: async (d) => {
            pushed.push(d.id);
            return d.id === 'w2' ? 'gone' : 'sent';
          },
        },
        android: {
          name: 'fcm',
          send: async () => {
            throw new Error('FCM is down');
          },
        },
      },
      createLogger('test', { level: 'silent' }),
    );
    expect(await delivery.deliver(notification({ recipientUuid: userUuid }))).toEqual({ heldBack: null, sent: 1, removed: 1, failed: 2 });
    expect(devices.map((d) => d.id)).toEqual(['w1', 'a1', 'i1']);
    expect(await delivery.deliver(notification({ recipientUuid: userUuid, channel: 'web' }))).toEqual({
      heldBack: null,
      sent: 1,
      removed: 0,
      failed: 0,
    });
    preferences = { muted: ['djOnStage'], quietHours: null };
    pushed.length = 0;
    expect(await delivery.deliver(notification({ recipientUuid: userUuid }))).toMatchObject({ heldBack: 'muted', sent: 0 });
    expect(pushed).toEqual([]);
  });
});
