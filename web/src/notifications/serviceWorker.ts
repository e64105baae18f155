// The service worker's handlers (built into /sw.js by web/src/notifications/sw.ts):
// a Web Push message from the social service becomes a notification, and a
// click on it opens or focuses the page it points at. Written against the few
// parts of the service worker scope it uses, so tests can drive it.

/** What the social service's Web Push channel sends (services/social/src/notifications/notification.ts, pushPayload). */
export interface PushPayload {
  id?: string;
  kind?: string;
  title?: string;
  body?: string;
  data?: Record<string, string>;
  silent?: boolean;
}

/** What a shown notification carries for its click. */
export interface NotificationData {
  url: string;
  kind: string;
  id: string;
}

interface ExtendableEvent {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  data: { text(): string } | null;
}
interface NotificationClickEvent extends ExtendableEvent {
  notification: { data: unknown; close(): void };
}
interface WindowClient {
  url: string;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}

/** The parts of ServiceWorkerGlobalScope the handlers use. */
export interface ServiceWorkerScope {
  location: { origin: string };
  registration: { showNotification(title: string, options: NotificationOptions): Promise<void> };
  clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationClickEvent) => void): void;
}

const DEFAULT_TITLE = 'Spinroom';

/** The push's JSON, or a plain text push as its body; nothing without data. */
export function readPush(text: string | undefined): PushPayload | undefined {
  if (text === undefined || text === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {
    // not JSON: shown as it came
  }
  return { body: text };
}

const hashRoute = (origin: string, route: string) => `${origin}/#/${route}`;

/**
 * The page a notification opens, always on the client's own origin: the room
 * a DJ took the stage in or a seat opened in, the person who invited or
 * answered, a same-origin `data.url` an admin's message carries; else the lobby.
 */
export function targetUrl(payload: PushPayload, origin: string): string {
  const data = payload.data ?? {};
  if (data.url) {
    try {
      const url = new URL(data.url, `${origin}/`);
      if (url.origin === origin) return url.href;
    } catch {
      // not an address: the default below
    }
  }
  const uuid = /^[0-9a-f-]{36}$/i;
  switch (payload.kind) {
    case 'djOnStage':
    case 'seatOpen':
    case 'eventLive':
      if (data.roomSlug) return hashRoute(origin, `room/${encodeURIComponent(data.roomSlug)}`);
      break;
    case 'friendInvitation':
      if (data.fromUuid && uuid.test(data.fromUuid)) return hashRoute(origin, `profile/${data.fromUuid}`);
      break;
    case 'friendInvitationAnswered':
      if (data.toUuid && uuid.test(data.toUuid)) return hashRoute(origin, `profile/${data.toUuid}`);
      break;
    default:
      break;
  }
  return hashRoute(origin, '');
}

/** The notification a push shows (title, body, a tag so a repeat replaces it); none for a silent push. */
export function notificationFor(payload: PushPayload, origin: string): { title: string; options: NotificationOptions } | undefined {
  if (payload.silent) return undefined;
  const data: NotificationData = { url: targetUrl(payload, origin), kind: payload.kind ?? 'custom', id: payload.id ?? '' };
  return {
    title: payload.title?.trim() || DEFAULT_TITLE,
    options: { body: payload.body ?? '', tag: payload.id || undefined, data },
  };
}

/** Focuses a window of the client (taking it to the page) or opens one. */
export async function openPage(scope: ServiceWorkerScope, url: string): Promise<void> {
  const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const mine = windows.find((client) => client.url.startsWith(`${scope.location.origin}/`));
  if (!mine) {
    await scope.clients.openWindow(url);
    return;
  }
  const focused = await mine.focus();
  if (focused.url !== url) await focused.navigate(url).catch(() => scope.clients.openWindow(url));
}

/** Installs the handlers on the worker's scope. */
export function installServiceWorker(scope: ServiceWorkerScope): void {
  // A new version takes over at once: the worker holds no state a page depends on.
  scope.addEventListener('install', (event) => event.waitUntil(scope.skipWaiting()));
  scope.addEventListener('activate', (event) => event.waitUntil(scope.clients.claim()));
  scope.addEventListener('push', (event) => {
    const shown = notificationFor(readPush(event.data?.text()) ?? {}, scope.location.origin);
    if (shown) event.waitUntil(scope.registration.showNotification(shown.title, shown.options));
  });
  scope.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const data = event.notification.data as Partial<NotificationData> | null;
    event.waitUntil(openPage(scope, data?.url ?? `${scope.location.origin}/`));
  });
}
