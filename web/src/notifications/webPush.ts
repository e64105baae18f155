// Push in this browser: the permission, the service worker (/sw.js, scope /)
// and the Web Push subscription made with the server's VAPID key, registered
// with the social service as a web device (spec 002: POST
// /web-notifications/subscription); turning it off unsubscribes and deletes
// the device. The browser's parts come in as an environment, so tests can
// hand in their own.
import { ApiError } from '../api/errors';
import type { notificationsApi, SubscriptionJson } from './api';

export const SERVICE_WORKER_URL = '/sw.js';
export const SERVICE_WORKER_SCOPE = '/';

/** What the page's browser offers (window's own by default). */
export interface PushEnvironment {
  notification: { readonly permission: NotificationPermission; requestPermission(): Promise<NotificationPermission> } | undefined;
  serviceWorker: Pick<ServiceWorkerContainer, 'register' | 'getRegistration' | 'ready'> | undefined;
  pushManager: boolean;
}

export function browserPushEnvironment(): PushEnvironment {
  return {
    notification: typeof Notification === 'undefined' ? undefined : Notification,
    serviceWorker: typeof navigator !== 'undefined' && 'serviceWorker' in navigator ? navigator.serviceWorker : undefined,
    pushManager: typeof PushManager !== 'undefined',
  };
}

type Api = Pick<typeof notificationsApi, 'publicKey' | 'subscribe' | 'device' | 'deleteDevice'>;

/** unsupported: no service worker or push here; blocked: the person denied notifications; on: this browser is the caller's device. */
export type PushState = 'unsupported' | 'blocked' | 'off' | 'on';

/** Why turning push on did not finish. */
export class PushSetupError extends Error {
  constructor(readonly reason: 'unsupported' | 'blocked' | 'dismissed' | 'notConfigured' | 'subscribeFailed') {
    super(reason);
  }
}

/** A base64url string (the VAPID public key) as bytes, for PushManager.subscribe. */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(key: ArrayBuffer | null | undefined, expected: Uint8Array): boolean {
  if (!key) return false;
  const bytes = new Uint8Array(key);
  return bytes.length === expected.length && bytes.every((byte, i) => byte === expected[i]);
}

type Supported = { [K in keyof PushEnvironment]: NonNullable<PushEnvironment[K]> };

function supported(env: PushEnvironment): env is Supported {
  return env.notification !== undefined && env.serviceWorker !== undefined && env.pushManager;
}

async function currentSubscription(env: PushEnvironment): Promise<PushSubscription | null> {
  const registration = await env.serviceWorker?.getRegistration(SERVICE_WORKER_SCOPE);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Whether this browser pushes to the signed-in person: its subscription is their device (another account's is not). */
export async function pushState(env: PushEnvironment, api: Api, userUuid: string): Promise<PushState> {
  if (!supported(env)) return 'unsupported';
  if (env.notification.permission === 'denied') return 'blocked';
  if (env.notification.permission !== 'granted') return 'off';
  const subscription = await currentSubscription(env);
  if (!subscription) return 'off';
  try {
    await api.device(userUuid, subscription.endpoint);
    return 'on';
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return 'off';
    throw error;
  }
}

/**
 * Asks for the permission, registers the service worker, subscribes with the
 * server's key (a subscription made with another key is replaced) and stores
 * it as the caller's web device.
 */
export async function enablePush(env: PushEnvironment, api: Api): Promise<void> {
  if (!supported(env)) throw new PushSetupError('unsupported');
  const permission = await env.notification.requestPermission();
  if (permission === 'denied') throw new PushSetupError('blocked');
  if (permission !== 'granted') throw new PushSetupError('dismissed');
  let publicKey: string;
  try {
    publicKey = (await api.publicKey()).publicKey;
  } catch (error) {
    if (error instanceof ApiError && error.status === 503) throw new PushSetupError('notConfigured');
    throw error;
  }
  await env.serviceWorker.register(SERVICE_WORKER_URL, { scope: SERVICE_WORKER_SCOPE });
  const registration = await env.serviceWorker.ready;
  const key = base64UrlToBytes(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  try {
    subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  } catch {
    // The browser's push service did not answer, or refused (a DOMException: AbortError, NotAllowedError).
    throw new PushSetupError('subscribeFailed');
  }
  const json = subscription.toJSON();
  if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) throw new PushSetupError('subscribeFailed');
  const body: SubscriptionJson = {
    endpoint: json.endpoint,
    expirationTime: json.expirationTime ?? null,
    keys: { p256dh: json.keys.p256dh, auth: json.keys.auth },
  };
  await api.subscribe(body);
}

/** Deletes this browser's device (already gone: fine), then unsubscribes. */
export async function disablePush(env: PushEnvironment, api: Api): Promise<void> {
  const subscription = await currentSubscription(env);
  if (!subscription) return;
  try {
    await api.deleteDevice(subscription.endpoint);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
  await subscription.unsubscribe();
}
