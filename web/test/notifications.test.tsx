import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { act, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/api/errors';
import { setLocale } from '../src/i18n/i18n';
import { NotificationSettings, timeZones } from '../src/notifications/NotificationSettings';
import { installServiceWorker, notificationFor, readPush, targetUrl, type ServiceWorkerScope } from '../src/notifications/serviceWorker';
import { base64UrlToBytes, disablePush, enablePush, pushState, PushSetupError, type PushEnvironment } from '../src/notifications/webPush';
import { session } from '../src/session/session';

const ORIGIN = 'https://spinroom.example';
const DJ = '11111111-1111-4111-8111-111111111111';
const ROOM = '22222222-2222-4222-8222-222222222222';
const ME = '33333333-3333-4333-8333-333333333333';
// A real P-256 public key (the test platform's), as the BFF answers it.
const VAPID = 'BLYWG6vWiAAt28bNhtyPapsm9zKsrO96VlmbX3AH0g1QWTgMYoxJApKNbIFG6CTCHrQ7QvbiqIAFJ7emu_WY7ZI';

/** What the social service's Web Push channel sends for a DJ taking the stage (pushPayload). */
const djOnStage = {
  id: '44444444-4444-4444-8444-444444444444',
  kind: 'djOnStage',
  title: 'A DJ you follow is on stage',
  body: 'They are playing in Night Shift',
  data: { djUuid: DJ, roomUuid: ROOM, roomSlug: 'night-shift' },
  silent: false,
};

describe('the service worker', () => {
  function fakeScope(windows: Array<{ url: string }> = []) {
    const handlers = new Map<string, (event: never) => void>();
    const shown: Array<{ title: string; options: NotificationOptions }> = [];
    const opened: string[] = [];
    const navigated: string[] = [];
    const focused: string[] = [];
    const clients = windows.map((w) => {
      const client = {
        url: w.url,
        focus: vi.fn(async () => {
          focused.push(client.url);
          return client;
        }),
        navigate: vi.fn(async (url: string) => {
          navigated.push(url);
          return client;
        }),
      };
      return client;
    });
    const scope = {
      location: { origin: ORIGIN },
      registration: { showNotification: vi.fn(async (title: string, options: NotificationOptions) => void shown.push({ title, options })) },
      clients: {
        claim: vi.fn(async () => {}),
        matchAll: vi.fn(async () => clients),
        openWindow: vi.fn(async (url: string) => {
          opened.push(url);
          return null;
        }),
      },
      skipWaiting: vi.fn(async () => {}),
      addEventListener: (type: string, listener: (event: never) => void) => void handlers.set(type, listener),
    } as unknown as ServiceWorkerScope;
    installServiceWorker(scope);
    /** Dispatches an event and waits for what it asked the worker to wait for. */
    const dispatch = async (type: string, event: object) => {
      const waits: Array<Promise<unknown>> = [];
      handlers.get(type)!({ ...event, waitUntil: (p: Promise<unknown>) => waits.push(p) } as never);
      await Promise.all(waits);
      return waits.length;
    };
    const push = (text: string | null) => dispatch('push', { data: text === null ? null : { text: () => text } });
    return { scope, shown, opened, navigated, focused, dispatch, push };
  }

  it("shows the social service's push with its title and body, opening the room the DJ plays in", async () => {
    const worker = fakeScope();
    expect(await worker.push(JSON.stringify(djOnStage))).toBe(1);
    expect(worker.shown).toEqual([
      {
        title: 'A DJ you follow is on stage',
        options: {
          body: 'They are playing in Night Shift',
          tag: djOnStage.id,
          data: { url: `${ORIGIN}/#/room/night-shift`, kind: 'djOnStage', id: djOnStage.id },
        },
      },
    ]);
  });

  it('takes over at once when installed and activated', async () => {
    const worker = fakeScope();
    await worker.dispatch('install', {});
    await worker.dispatch('activate', {});
    expect(worker.scope.skipWaiting).toHaveBeenCalled();
    expect(worker.scope.clients.claim).toHaveBeenCalled();
  });

  it('shows a plain text push as its body, and nothing for a silent one', async () => {
    const worker = fakeScope();
    await worker.push('Hello there');
    expect(worker.shown[0]).toMatchObject({ title: 'Spinroom', options: { body: 'Hello there', data: { url: `${ORIGIN}/#/` } } });
    expect(await worker.push(JSON.stringify({ ...djOnStage, silent: true }))).toBe(0);
    expect(worker.shown).toHaveLength(1);
    expect(readPush(undefined)).toBeUndefined();
    expect(readPush('[1,2]')).toEqual({ body: '[1,2]' });
  });

  it('points each kind at its page, and only at the client’s own origin', () => {
    expect(targetUrl({ kind: 'seatOpen', data: { roomSlug: 'a b' } }, ORIGIN)).toBe(`${ORIGIN}/#/room/a%20b`);
    expect(targetUrl({ kind: 'friendInvitation', data: { fromUuid: DJ } }, ORIGIN)).toBe(`${ORIGIN}/#/profile/${DJ}`);
    expect(targetUrl({ kind: 'friendInvitationAnswered', data: { toUuid: DJ, accepted: 'true' } }, ORIGIN)).toBe(
      `${ORIGIN}/#/profile/${DJ}`,
    );
    expect(targetUrl({ kind: 'friendInvitation', data: { fromUuid: '../../x' } }, ORIGIN)).toBe(`${ORIGIN}/#/`);
    expect(targetUrl({ kind: 'custom', data: { url: '#/shop' } }, ORIGIN)).toBe(`${ORIGIN}/#/shop`);
    expect(targetUrl({ kind: 'custom', data: { url: 'https://evil.example/#/room/x' } }, ORIGIN)).toBe(`${ORIGIN}/#/`);
    expect(targetUrl({ kind: 'custom', data: { url: 'javascript:alert(1)' } }, ORIGIN)).toBe(`${ORIGIN}/#/`);
    expect(notificationFor({ title: '  ' }, ORIGIN)?.title).toBe('Spinroom');
  });

  it('focuses an open window of the client and takes it to the page on a click', async () => {
    const worker = fakeScope([{ url: 'https://other.example/' }, { url: `${ORIGIN}/#/crates` }]);
    const close = vi.fn();
    await worker.dispatch('notificationclick', { notification: { data: { url: `${ORIGIN}/#/room/night-shift` }, close } });
    expect(close).toHaveBeenCalled();
    expect(worker.focused).toEqual([`${ORIGIN}/#/crates`]);
    expect(worker.navigated).toEqual([`${ORIGIN}/#/room/night-shift`]);
    expect(worker.opened).toEqual([]);
  });

  it('opens a window when none of the client is open', async () => {
    const worker = fakeScope([{ url: 'https://other.example/' }]);
    await worker.dispatch('notificationclick', { notification: { data: { url: `${ORIGIN}/#/room/x` }, close: vi.fn() } });
    expect(worker.opened).toEqual([`${ORIGIN}/#/room/x`]);
    await worker.dispatch('notificationclick', { notification: { data: null, close: vi.fn() } });
    expect(worker.opened).toEqual([`${ORIGIN}/#/room/x`, `${ORIGIN}/`]);
  });
});

/** A browser for the push setup: its permission, its service worker container and push manager, recorded. */
function fakeBrowser(options: { permission?: NotificationPermission; answer?: NotificationPermission; subscribeFails?: boolean } = {}) {
  let permission = options.permission ?? 'default';
  let subscription: (PushSubscription & { key: Uint8Array }) | null = null;
  const log: string[] = [];
  const makeSubscription = (key: Uint8Array, endpoint: string) => {
    const made = {
      endpoint,
      key,
      options: { applicationServerKey: key.buffer, userVisibleOnly: true },
      toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: 'BPublicKeyOfTheBrowser', auth: 'authSecret' } }),
      unsubscribe: vi.fn(async () => {
        log.push(`unsubscribe ${endpoint}`);
        subscription = null;
        return true;
      }),
    } as unknown as PushSubscription & { key: Uint8Array };
    return made;
  };
  const pushManager = {
    getSubscription: async () => subscription,
    subscribe: async (init: PushSubscriptionOptionsInit) => {
      log.push('subscribe');
      if (options.subscribeFails) throw new DOMException('Registration failed - push service error', 'AbortError');
      subscription = makeSubscription(init.applicationServerKey as Uint8Array, `https://fcm.googleapis.com/fcm/send/${log.length}`);
      return subscription;
    },
  };
  let registered = false;
  const registration = { pushManager } as unknown as ServiceWorkerRegistration;
  const env: PushEnvironment = {
    notification: {
      get permission() {
        return permission;
      },
      requestPermission: async () => {
        log.push('requestPermission');
        if (permission === 'default') permission = options.answer ?? 'granted';
        return permission;
      },
    },
    serviceWorker: {
      register: async (url: string, init?: RegistrationOptions) => {
        log.push(`register ${url} ${init?.scope}`);
        registered = true;
        return registration;
      },
      getRegistration: async () => (registered ? registration : undefined),
      get ready() {
        return Promise.resolve(registration);
      },
    },
    pushManager: true,
  };
  return {
    env,
    log,
    subscription: () => subscription,
    /** An earlier subscription of this browser's, made with another key. */
    subscribedWith: (key: Uint8Array) => {
      registered = true;
      subscription = makeSubscription(key, 'https://fcm.googleapis.com/fcm/send/old');
    },
  };
}

function fakeApi(devices = new Set<string>()) {
  const calls: string[] = [];
  return {
    calls,
    devices,
    publicKey: vi.fn(async () => ({ publicKey: VAPID })),
    subscribe: vi.fn(async (s: { endpoint: string }) => {
      calls.push(`subscribe ${s.endpoint}`);
      devices.add(s.endpoint);
      return { deviceId: ROOM, created: true };
    }),
    device: vi.fn(async (_user: string, token: string) => {
      if (!devices.has(token)) throw new ApiError(404, 'Device not found');
      return {};
    }),
    deleteDevice: vi.fn(async (token: string) => {
      calls.push(`delete ${token}`);
      if (!devices.delete(token)) throw new ApiError(404, 'Device not found');
      return {};
    }),
  };
}

describe('push in this browser', () => {
  it('asks, registers /sw.js at the root, subscribes with the server’s key and stores the subscription', async () => {
    const browser = fakeBrowser();
    const api = fakeApi();
    expect(await pushState(browser.env, api, ME)).toBe('off');
    await enablePush(browser.env, api);
    expect(browser.log).toEqual(['requestPermission', 'register /sw.js /', 'subscribe']);
    const key = browser.subscription()!.key;
    expect(key).toEqual(base64UrlToBytes(VAPID));
    expect(key).toHaveLength(65);
    expect(api.subscribe).toHaveBeenCalledWith({
      endpoint: browser.subscription()!.endpoint,
      expirationTime: null,
      keys: { p256dh: 'BPublicKeyOfTheBrowser', auth: 'authSecret' },
    });
    expect(await pushState(browser.env, api, ME)).toBe('on');
  });

  it('is off when the subscription is another account’s device, and on again once registered', async () => {
    const browser = fakeBrowser();
    const api = fakeApi();
    await enablePush(browser.env, api);
    api.devices.clear(); // someone else signed in here since
    expect(await pushState(browser.env, api, ME)).toBe('off');
    await enablePush(browser.env, api);
    expect(browser.log.filter((l) => l === 'subscribe')).toHaveLength(1); // the same subscription, registered again
    expect(await pushState(browser.env, api, ME)).toBe('on');
  });

  it('replaces a subscription made with another key', async () => {
    const browser = fakeBrowser({ permission: 'granted' });
    browser.subscribedWith(new Uint8Array(65).fill(4));
    await enablePush(browser.env, fakeApi());
    expect(browser.log).toContain('unsubscribe https://fcm.googleapis.com/fcm/send/old');
    expect(browser.subscription()!.key).toEqual(base64UrlToBytes(VAPID));
  });

  it('says why it could not turn on', async () => {
    const reason = async (browser: ReturnType<typeof fakeBrowser>, api = fakeApi()) =>
      enablePush(browser.env, api).then(
        () => 'on',
        (error: unknown) => (error instanceof PushSetupError ? error.reason : String(error)),
      );
    expect(await reason(fakeBrowser({ answer: 'denied' }))).toBe('blocked');
    expect(await reason(fakeBrowser({ answer: 'default' }))).toBe('dismissed');
    expect(await reason(fakeBrowser({ subscribeFails: true }))).toBe('subscribeFailed');
    const unconfigured = fakeApi();
    unconfigured.publicKey.mockRejectedValueOnce(new ApiError(503, 'Web Push is not configured'));
    expect(await reason(fakeBrowser(), unconfigured)).toBe('notConfigured');
    expect(await reason({ ...fakeBrowser(), env: { ...fakeBrowser().env, pushManager: false } })).toBe('unsupported');
    expect(await pushState({ notification: undefined, serviceWorker: undefined, pushManager: false }, fakeApi(), ME)).toBe('unsupported');
    expect(await pushState(fakeBrowser({ permission: 'denied' }).env, fakeApi(), ME)).toBe('blocked');
  });

  it('turns off: deletes the device, then unsubscribes (a device already gone is fine)', async () => {
    const browser = fakeBrowser();
    const api = fakeApi();
    await enablePush(browser.env, api);
    const endpoint = browser.subscription()!.endpoint;
    await disablePush(browser.env, api);
    expect(api.calls).toEqual([`subscribe ${endpoint}`, `delete ${endpoint}`]);
    expect(browser.log.at(-1)).toBe(`unsubscribe ${endpoint}`);
    expect(await pushState(browser.env, api, ME)).toBe('off');
    await enablePush(browser.env, api);
    api.devices.clear();
    await disablePush(browser.env, api);
    expect(browser.subscription()).toBeNull();
  });
});

describe('the notification settings section', () => {
  let requests: Array<{ method: string; path: string; body?: unknown }>;
  let preferences: { mutedKinds: string[]; quietHours: null | { start: string; end: string; timeZone: string } };
  let devices: Set<string>;

  beforeEach(() => {
    session.signIn('token', ME, 'user');
    requests = [];
    devices = new Set();
    preferences = { mutedKinds: ['custom'], quietHours: null };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const path = decodeURIComponent(new URL(url, 'http://x').pathname);
        const method = init?.method ?? 'GET';
        const body = init?.body ? (JSON.parse(init.body as string) as Record<string, unknown>) : undefined;
        requests.push({ method, path, body });
        const json = (status: number, value: unknown) => new Response(JSON.stringify(value), { status });
        const social = '/api/social-service';
        if (path === `${social}/web-notifications/public-key`) return json(200, { publicKey: VAPID });
        if (path === `${social}/web-notifications/subscription`) {
          devices.add(body!.endpoint as string);
          return json(201, { deviceId: ROOM, created: true });
        }
        if (path.startsWith(`${social}/devices/single-device/${ME}/`)) {
          return devices.has(path.slice(`${social}/devices/single-device/${ME}/`.length))
            ? json(200, {})
            : json(404, { statusCode: 404, message: 'Device not found', error: 'Not Found' });
        }
        if (path.startsWith(`${social}/devices/`) && method === 'DELETE') {
          devices.delete(path.slice(`${social}/devices/`.length));
          return json(200, {});
        }
        if (path === `${social}/notifications/preferences` && method === 'GET') return json(200, { ...preferences, kinds: [] });
        if (path === `${social}/notifications/preferences` && method === 'PUT') {
          preferences = body as typeof preferences;
          return json(200, preferences);
        }
        return json(404, { statusCode: 404, message: 'Not found', error: 'Not Found' });
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    act(() => setLocale('en'));
    session.signOut();
  });

  const wrap = (node: ReactNode) => (
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{node}</QueryClientProvider>
  );

  it('turns push on and off in this browser', async () => {
    const browser = fakeBrowser();
    render(wrap(<NotificationSettings env={browser.env} />));
    expect(await screen.findByText('Off in this browser')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Turn on notifications in this browser' }));
    expect(await screen.findByText('On in this browser')).toBeTruthy();
    const endpoint = browser.subscription()!.endpoint;
    expect(requests).toContainEqual(
      expect.objectContaining({
        method: 'POST',
        path: '/api/social-service/web-notifications/subscription',
        body: expect.objectContaining({ endpoint }),
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Turn off notifications in this browser' }));
    expect(await screen.findByText('Off in this browser')).toBeTruthy();
    expect(requests).toContainEqual({ method: 'DELETE', path: `/api/social-service/devices/${endpoint}`, body: undefined });
    expect(browser.subscription()).toBeNull();
  });

  it('says when the browser blocks notifications, in Spanish too', async () => {
    act(() => setLocale('es'));
    render(wrap(<NotificationSettings env={fakeBrowser({ answer: 'denied' }).env} />));
    fireEvent.click(await screen.findByRole('button', { name: 'Activar las notificaciones en este navegador' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/bloquea las notificaciones/);
  });

  it('saves the kinds received and quiet hours in a time zone', async () => {
    render(wrap(<NotificationSettings env={fakeBrowser().env} />));
    const form = await screen.findByRole('form', { name: 'Notification preferences' });
    const news = within(form).getByRole<HTMLInputElement>('checkbox', { name: 'Spinroom sends news' });
    expect(news.checked).toBe(false);
    fireEvent.click(news);
    fireEvent.click(within(form).getByRole('checkbox', { name: 'A DJ seat opens in a room I wait for' }));
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Nothing between these times' }));
    fireEvent.change(within(form).getByLabelText('From'), { target: { value: '23:30' } });
    fireEvent.change(within(form).getByLabelText('To'), { target: { value: '06:45' } });
    fireEvent.change(within(form).getByLabelText('Time zone'), { target: { value: 'Europe/Madrid' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save notification preferences' }));
    expect(await within(form).findByText('Saved')).toBeTruthy();
    await waitFor(() =>
      expect(preferences).toEqual({ mutedKinds: ['seatOpen'], quietHours: { start: '23:30', end: '06:45', timeZone: 'Europe/Madrid' } }),
    );
  });

  it('offers every zone the engine knows, with the stored one and UTC', () => {
    const zones = timeZones('Mars/Olympus_Mons');
    expect(zones).toContain('Europe/Madrid');
    expect(zones).toContain('UTC');
    expect(zones).toContain('Mars/Olympus_Mons');
  });
});
