import { badRequest, notFound } from '@spinroom/platform/core';
import { pushEndpointAllowed, type PushEndpointRules } from '../notifications/notification.js';
import { actsForAnyone, isUuid, requireMember, requireSelfOrPrivileged, requireUserUuid, type Actor } from './actors.js';

export const DEVICE_TYPES = ['ios', 'android', 'web'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

export interface Device {
  id: string;
  userUuid: string;
  token: string;
  type: DeviceType;
  webPushP256dh: string | null;
  webPushAuth: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface DeviceInput {
  token: string;
  type: DeviceType;
  webPushP256dh: string | null;
  webPushAuth: string | null;
}

export interface DeviceStore {
  /** Inserts, or moves the token to this user with these keys (a phone changes hands, a browser re-subscribes). */
  upsert(userUuid: string, input: DeviceInput, now: Date): Promise<{ device: Device; created: boolean }>;
  /** Removes a token (of this user only, when given). */
  remove(token: string, userUuid?: string): Promise<boolean>;
  find(userUuid: string, token: string): Promise<Device | undefined>;
  listOf(userUuid: string): Promise<Device[]>;
}

const DEVICE_NOT_FOUND = 'Device not found';
const MAX_TOKEN = 2048;
/** A Web Push subscription's keys are base64url: p256dh 65 bytes, auth 16. */
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/**
 * What a device's registration must hold: a token, and for a web device a Web Push subscription: an
 * endpoint of a push service delivery may post to (`pushEndpoints`, as /web-notifications/subscription
 * checks) and both keys.
 */
export function checkDevice(
  input: { token: string; type: string; webPushP256dh?: string; webPushAuth?: string },
  pushEndpoints: PushEndpointRules,
): DeviceInput {
  const token = input.token.trim();
  if (!token || token.length > MAX_TOKEN) throw badRequest('token must be 1 to 2048 characters');
  if (!(DEVICE_TYPES as readonly string[]).includes(input.type)) throw badRequest('type must be one of ios, android, web');
  const type = input.type as DeviceType;
  if (type !== 'web') return { token, type, webPushP256dh: null, webPushAuth: null };
  let endpoint: URL;
  try {
    endpoint = new URL(token);
  } catch {
    throw badRequest("A web device's token is its Web Push subscription's endpoint (an https URL)");
  }
  if (endpoint.protocol !== 'https:' && endpoint.protocol !== 'http:') {
    throw badRequest("A web device's token is its Web Push subscription's endpoint (an https URL)");
  }
  if (!pushEndpointAllowed(token, pushEndpoints)) {
    throw badRequest("A web device's endpoint must be a browser's push service (FCM, Mozilla, Windows or Apple)");
  }
  const p256dh = input.webPushP256dh?.trim() ?? '';
  const auth = input.webPushAuth?.trim() ?? '';
  if (!BASE64URL.test(p256dh) || p256dh.length > 256 || !BASE64URL.test(auth) || auth.length > 128) {
    throw badRequest("A web device needs its subscription's keys p256dh and auth (base64url)");
  }
  return { token, type, webPushP256dh: p256dh, webPushAuth: auth };
}

/** Devices: where a user's notifications go (ios and android push tokens, web push subscriptions). */
export class Devices {
  constructor(
    private readonly store: DeviceStore,
    /** The push services a web device's endpoint may name (WEB_PUSH_ENDPOINT_HOSTS and local plain-HTTP origins). */
    private readonly pushEndpoints: PushEndpointRules,
    private readonly now: () => Date = () => new Date(),
  ) {}

  register(actor: Actor, input: { token: string; type: string; webPushP256dh?: string; webPushAuth?: string }) {
    requireMember(actor);
    return this.store.upsert(actor.userUuid, checkDevice(input, this.pushEndpoints), this.now());
  }

  /** The caller's device by its token; services and admins remove anyone's (a token the push service reports gone). */
  async remove(actor: Actor, token: string): Promise<void> {
    const owner = actsForAnyone(actor) ? undefined : actor.userUuid;
    if (!(await this.store.remove(token, owner))) throw notFound(DEVICE_NOT_FOUND);
  }

  async removeOf(actor: Actor, userUuid: string, token: string): Promise<void> {
    requireSelfOrPrivileged(actor, userUuid);
    if (!isUuid(userUuid) || !(await this.store.remove(token, userUuid.toLowerCase()))) throw notFound(DEVICE_NOT_FOUND);
  }

  async get(actor: Actor, userUuid: string, token: string): Promise<Device> {
    requireSelfOrPrivileged(actor, userUuid);
    const device = isUuid(userUuid) ? await this.store.find(userUuid.toLowerCase(), token) : undefined;
    if (!device) throw notFound(DEVICE_NOT_FOUND);
    return device;
  }

  async list(actor: Actor, userUuid: string): Promise<Device[]> {
    requireSelfOrPrivileged(actor, userUuid);
    return this.store.listOf(requireUserUuid(userUuid));
  }
}
