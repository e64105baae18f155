// Web Push in the web client (issue 17), in Debian's Chromium against the
// whole platform: a fan who follows a DJ turns notifications on in the
// settings (the permission, the client's own service worker at /sw.js, a push
// subscription registered through POST /web-notifications/subscription),
// mutes a kind and sets quiet hours; the DJ takes the stage on the room feed;
// the room service's room-events, the social service's fan-out and the
// notifications topic bring the push to the Web Push service
// (web-push-testing, which checks the VAPID signature and decrypts it); its
// payload is handed to the fan's real service worker, which shows it. Turning
// off deletes the device and ends the subscription.
//
// What is bridged, and why: headless Chromium cannot reach a browser vendor's
// push service (its PushManager.subscribe waits on Google's servers forever
// here), so the page's PushManager.subscribe and getSubscription are replaced,
// in this test only, by ones answering web-push-testing's subscription (an
// endpoint and the p256dh and auth keys it decrypts with); and the message
// web-push-testing received is delivered to the service worker through the
// DevTools protocol (ServiceWorker.deliverPushMessage), the way Chromium's
// push service would deliver it. Everything else is the product's own code.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '@spinroom/platform/testing';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateVapidKeys } from '../../services/social/src/notifications/channels/web-push.js';
import { startWebPushStandIn, type BrowserSubscription } from '../../services/social/test/support/push-stand-ins.js';
import { ensureWebBuild } from '../../web/build.js';
import { CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM, openSignedIn, WEB_ARTIFACTS } from '../support/browser.js';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, usePlatform } from '../support/platform.js';

const SOCIAL = '/api/social-service';
const pushService = await startWebPushStandIn();
const vapid = generateVapidKeys();

/** The push messages web-push-testing decrypted for a subscription, as the bytes the social service sent (oldest first). */
async function received(clientHash: string): Promise<string[]> {
  const response = await fetch(`${pushService.base}/get-notifications`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientHash }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { messages: string[] } }).data.messages;
}

/** The browser's globals the page-side functions use (the repository's tests compile without the DOM's types). */
interface PageWorld {
  PushManager: {
    prototype: {
      subscribe(options?: { applicationServerKey?: string | ArrayBuffer | ArrayBufferView | null }): Promise<unknown>;
      getSubscription(): Promise<unknown>;
    };
  };
  Notification: { permission: string };
  navigator: {
    serviceWorker: {
      getRegistration(scope: string): Promise<
        | {
            scope: string;
            active: { scriptURL: string } | null;
            pushManager: { getSubscription(): Promise<unknown> };
            getNotifications(): Promise<Array<{ title: string; body: string; tag: string; data: unknown }>>;
          }
        | undefined
      >;
    };
  };
}

/**
 * The bridge's page half: PushManager's subscription comes from
 * web-push-testing (through the test's bindings) instead of Chrome's push
 * service, kept in localStorage so getSubscription finds it after a reload.
 */
function pushManagerBridge() {
  const KEY = 'test.pushSubscription';
  interface Stored {
    endpoint: string;
    keys: { p256dh: string; auth: string };
    clientHash: string;
    applicationServerKey: string;
  }
  const world = globalThis as unknown as PageWorld;
  const bridge = globalThis as unknown as {
    __testPushSubscribe(key: string): Promise<Omit<Stored, 'applicationServerKey'>>;
    __testPushUnsubscribe(clientHash: string): Promise<void>;
  };
  const toBase64Url = (bytes: Uint8Array) =>
    btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  const fromBase64Url = (text: string) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  const subscription = (stored: Stored) => ({
    endpoint: stored.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: fromBase64Url(stored.applicationServerKey).buffer },
    toJSON: () => ({ endpoint: stored.endpoint, expirationTime: null, keys: stored.keys }),
    unsubscribe: async () => {
      localStorage.removeItem(KEY);
      await bridge.__testPushUnsubscribe(stored.clientHash);
      return true;
    },
  });
  world.PushManager.prototype.subscribe = async function subscribe(options) {
    const key = options?.applicationServerKey;
    const text =
      typeof key === 'string'
        ? key
        : toBase64Url(
            ArrayBuffer.isView(key)
              ? new Uint8Array(key.buffer, key.byteOffset, key.byteLength)
              : new Uint8Array(key ?? new ArrayBuffer(0)),
          );
    const stored: Stored = { ...(await bridge.__testPushSubscribe(text)), applicationServerKey: text };
    localStorage.setItem(KEY, JSON.stringify(stored));
    return subscription(stored);
  };
  world.PushManager.prototype.getSubscription = async function getSubscription() {
    const raw = localStorage.getItem(KEY);
    return raw ? subscription(JSON.parse(raw) as Stored) : null;
  };
}

/** HH:MM in a time zone, hours from now. */
function clockIn(timeZone: string, hoursFromNow: number): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(Date.now() + hoursFromNow * 3_600_000),
  );
}

describe.skipIf(!HAS_CHROMIUM)('Web Push in the web client, through a real service worker', () => {
  const webDir = ensureWebBuild();
  const { call, platform } = usePlatform({
    webDir,
    social: {
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      WEB_PUSH_PLAIN_HTTP_ORIGINS: [new URL(pushService.base).origin],
    },
  });
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const subscriptions: BrowserSubscription[] = [];
  const problems: string[] = [];
  const feeds: FeedListener[] = [];

  beforeAll(async () => {
    mkdirSync(WEB_ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['notifications'], { origin: platform().baseUrl });
    await context.exposeFunction('__testPushSubscribe', async (applicationServerKey: string) => {
      // The page subscribes with the key the BFF gives it, the social service's.
      if (applicationServerKey !== vapid.publicKey) throw new Error(`subscribed with another key: ${applicationServerKey}`);
      const subscription = await pushService.subscribe(applicationServerKey);
      subscriptions.push(subscription);
      return subscription;
    });
    await context.exposeFunction('__testPushUnsubscribe', (clientHash: string) => pushService.expire(clientHash));
    await context.addInitScript(pushManagerBridge);
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  }, 60_000);
  afterEach(async (test) => {
    for (const feed of feeds.splice(0)) feed.close();
    if (test.task.result?.state !== 'fail') return;
    await page?.screenshot({ path: join(WEB_ARTIFACTS, 'failure-notifications.png'), fullPage: true }).catch(() => {});
    console.log(problems);
  });
  afterAll(async () => {
    await browser?.close();
    await pushService.close();
  });

  const person = async (nickname: string) => {
    const body = (
      await call('POST', '/api/user-service/users/sign-up', {
        body: { email: freshEmail(), password: 'correct horse battery', nickname },
      })
    ).body;
    return { token: body.accessToken as string, uuid: body.userUuid as string };
  };
  /** The service worker registrations Chromium reports for the page's origin. */
  const registrationId = async () => {
    const cdp = await context.newCDPSession(page);
    const registrations: Array<{ registrationId: string; scopeURL: string; isDeleted: boolean }> = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
    await cdp.send('ServiceWorker.enable');
    const found = await eventually(async () => registrations.find((r) => r.scopeURL === `${platform().baseUrl}/` && !r.isDeleted), 30_000);
    return { cdp, id: found.registrationId };
  };

  it("shows the push of a DJ the fan follows taking the stage, and not a muted kind's", async () => {
    const dj = await person('Deejay Push');
    const fan = await person('Fan Push');
    expect((await call('POST', `${SOCIAL}/dj-fans`, { token: fan.token, body: { djUuid: dj.uuid } })).status).toBe(201);

    // The fan turns push on in the settings.
    await openSignedIn(page, platform().baseUrl, { token: fan.token, userUuid: fan.uuid }, '#/settings');
    const section = page.getByRole('region', { name: 'Notifications' });
    await section.getByText('Off in this browser').waitFor();
    await section.getByRole('button', { name: 'Turn on notifications in this browser' }).click();
    await section.getByText('On in this browser').waitFor();
    const worker = await page.evaluate(async () => {
      const world = globalThis as unknown as PageWorld;
      const registration = await world.navigator.serviceWorker.getRegistration('/');
      return { scope: registration?.scope, script: registration?.active?.scriptURL, permission: world.Notification.permission };
    });
    expect(worker).toEqual({
      scope: `${platform().baseUrl}/`,
      script: `${platform().baseUrl}/sw.js`,
      permission: 'granted',
    });
    expect(subscriptions).toHaveLength(1);
    const [subscription] = subscriptions;
    const devices = await call('GET', `${SOCIAL}/devices/all-devices/${fan.uuid}`, { token: fan.token });
    expect(devices.status).toBe(200);
    expect((devices.body as Array<{ token: string; type: string }>).map((d) => [d.type, d.token])).toEqual([
      ['web', subscription!.endpoint],
    ]);

    // News muted; quiet hours that do not hold now, in a time zone far from the machine's.
    const form = section.getByRole('form', { name: 'Notification preferences' });
    await form.getByRole('checkbox', { name: 'Spinroom sends news' }).uncheck();
    await form.getByRole('checkbox', { name: 'Nothing between these times' }).check();
    const zone = 'Pacific/Kiritimati';
    const quietHours = { start: clockIn(zone, 3), end: clockIn(zone, 4), timeZone: zone };
    await form.getByLabel('From', { exact: true }).fill(quietHours.start);
    await form.getByLabel('To', { exact: true }).fill(quietHours.end);
    await form.getByRole('combobox', { name: 'Time zone' }).selectOption(zone);
    await form.getByRole('button', { name: 'Save notification preferences' }).click();
    await form.getByText('Saved').waitFor();
    expect((await call('GET', `${SOCIAL}/notifications/preferences`, { token: fan.token })).body).toMatchObject({
      mutedKinds: ['custom'],
      quietHours,
    });

    // A muted kind first (the fan's own test push is `custom`), then the DJ takes the stage.
    const muted = await call('POST', `${SOCIAL}/web-notifications/push-notification`, {
      token: fan.token,
      body: { title: 'Muted news', body: 'Not for this fan' },
    });
    expect(muted.status).toBe(202);
    expect(
      (
        await call('POST', '/api/playlist-service/crate/special/queue/songs', {
          token: dj.token,
          body: {
            songs: [{ musicProvider: 'spotify', songId: `wpn-${randomUUID()}`, trackName: 'Push it', artistName: 'Artist', duration: 200 }],
            append: true,
          },
        })
      ).status,
    ).toBe(201);
    const roomName = `Push Stage ${randomUUID().slice(0, 6)}`;
    const room = (await call('POST', '/api/room-service/rooms/infrastructure', { token: dj.token, body: { name: roomName } })).body as {
      uuid: string;
      slug: string;
    };
    const feed = await FeedListener.join(platform().baseUrl, dj.token, dj.uuid, room.uuid);
    feeds.push(feed);
    await feed.action('addDj');

    // room-events → the social service → notifications → Web Push: the stand-in has it, encrypted for this subscription.
    const messages = await eventually(async () => {
      const all = await received(subscription!.clientHash);
      return all.some((m) => (JSON.parse(m) as { kind: string }).kind === 'djOnStage') ? all : undefined;
    }, 90_000);
    // The notifications topic is keyed by recipient: the muted push, asked for first, would have come first.
    expect(messages.map((m) => (JSON.parse(m) as { kind: string }).kind)).toEqual(['djOnStage']);
    const [pushed] = messages;
    expect(JSON.parse(pushed!)).toMatchObject({
      kind: 'djOnStage',
      title: 'A DJ you follow is on stage',
      data: { djUuid: dj.uuid, roomUuid: room.uuid, roomSlug: room.slug },
    });

    // Delivered to the fan's service worker as the push service would, and shown by it.
    const { cdp, id } = await registrationId();
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: platform().baseUrl, registrationId: id, data: pushed! });
    const shown = await eventually(async () => {
      const notifications = await page.evaluate(async () => {
        const registration = await (globalThis as unknown as PageWorld).navigator.serviceWorker.getRegistration('/');
        return (await registration!.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
      });
      return notifications.length > 0 ? notifications : undefined;
    }, 30_000);
    expect(shown).toEqual([
      {
        title: 'A DJ you follow is on stage',
        body: (JSON.parse(pushed!) as { body: string }).body,
        tag: (JSON.parse(pushed!) as { id: string }).id,
        data: {
          url: `${platform().baseUrl}/#/room/${room.slug}`,
          kind: 'djOnStage',
          id: (JSON.parse(pushed!) as { id: string }).id,
        },
      },
    ]);
    expect(shown[0]!.body).toContain(roomName);
    await page.screenshot({ path: join(WEB_ARTIFACTS, 'notification-settings.png'), fullPage: true });

    // Off: the device is deleted, the subscription ended (the push service answers 410 for it from now on).
    await section.getByRole('button', { name: 'Turn off notifications in this browser' }).click();
    await section.getByText('Off in this browser').waitFor();
    const after = await call('GET', `${SOCIAL}/devices/all-devices/${fan.uuid}`, { token: fan.token });
    expect(after.status === 404 || (after.body as unknown[]).length === 0).toBe(true);
    expect(
      await page.evaluate(async () =>
        (await (globalThis as unknown as PageWorld).navigator.serviceWorker.getRegistration('/'))?.pushManager.getSubscription(),
      ),
    ).toBeNull();
    await cdp.detach();
    expect(problems).toEqual([]);
  }, 240_000);
});
