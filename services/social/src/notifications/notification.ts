/**
 * What a notification is, what a person may hold back (kinds they muted,
 * quiet hours), and the devices it reaches. Plain rules, no I/O.
 */

import { NOTIFICATION_KINDS, type NotificationKind } from '@spinroom/contracts/notifications';

/** The kinds a person may mute, as the REST paths and the preferences name them. */
export { NOTIFICATION_KINDS, type NotificationKind };

/** Which of a person's devices a notification goes to. */
export const NOTIFICATION_CHANNELS = ['all', 'mobile', 'web'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** One notification for one person: what the `notifications` topic carries. */
export interface Notification {
  /** Unique per recipient: the delivery is idempotent by it. */
  id: string;
  recipientUuid: string;
  kind: NotificationKind;
  title: string;
  body: string;
  /** Shown to the app with the notification (a room's slug, a DJ's uuid...). */
  data: Record<string, string>;
  /** Data only, nothing shown (the original's silent notifications): quiet hours do not hold it back. */
  silent: boolean;
  channel: NotificationChannel;
}

/** Quiet hours: minutes after midnight in the person's time zone; an end before the start spans midnight. */
export interface QuietHours {
  startMinute: number;
  endMinute: number;
  timeZone: string;
}

export interface NotificationPreferences {
  /** Kinds the person does not want pushed. */
  muted: NotificationKind[];
  quietHours: QuietHours | null;
}

export const DEFAULT_PREFERENCES: NotificationPreferences = { muted: [], quietHours: null };

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** Minutes after midnight at `at` in `timeZone`. */
export function minuteOfDay(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  return (hour % 24) * 60 + minute;
}

/** Whether `at` falls in the quiet hours (start included, end excluded). */
export function inQuietHours(quiet: QuietHours, at: Date): boolean {
  if (quiet.startMinute === quiet.endMinute) return false;
  const minute = minuteOfDay(at, quiet.timeZone);
  return quiet.startMinute < quiet.endMinute
    ? minute >= quiet.startMinute && minute < quiet.endMinute
    : minute >= quiet.startMinute || minute < quiet.endMinute;
}

/** Why a notification is not pushed to this person now, or null when it is. */
export function heldBack(
  preferences: NotificationPreferences,
  notification: Pick<Notification, 'kind' | 'silent'>,
  at: Date,
): 'muted' | 'quietHours' | null {
  if (preferences.muted.includes(notification.kind)) return 'muted';
  if (!notification.silent && preferences.quietHours && inQuietHours(preferences.quietHours, at)) return 'quietHours';
  return null;
}

/** A device a person can be reached on: a browser's Web Push subscription, or a phone's FCM or APNs token. */
export type Device =
  | { type: 'web'; id: string; userUuid: string; endpoint: string; p256dh: string; auth: string }
  | { type: 'android' | 'ios'; id: string; userUuid: string; token: string };

/** What a push service answered for one device. */
export type PushOutcome = 'sent' | 'gone';

/** One push service (Web Push, FCM, APNs): sends, says when the device is gone, throws on other failures. */
export interface PushChannel<D extends Device = Device> {
  readonly name: string;
  send(device: D, notification: Notification): Promise<PushOutcome>;
  close?(): Promise<void>;
}

/** Whether the channel of a notification includes this device. */
export function reaches(channel: NotificationChannel, device: Pick<Device, 'type'>): boolean {
  return channel === 'all' || (channel === 'web') === (device.type === 'web');
}

/** The text a push carries, as the service worker and the apps read it. */
export function pushPayload(notification: Notification): Record<string, unknown> {
  return {
    id: notification.id,
    kind: notification.kind,
    title: notification.title,
    body: notification.body,
    data: notification.data,
    silent: notification.silent,
  };
}

/** Where Web Push may post: https to a known push service, or plain HTTP to an allowed local origin. */
export interface PushEndpointRules {
  hosts: string[];
  plainHttpOrigins: string[];
}

export function pushEndpointAllowed(endpoint: string, rules: PushEndpointRules): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol === 'http:') return rules.plainHttpOrigins.includes(url.origin);
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  return rules.hosts.some((allowed) => (allowed.startsWith('*.') ? host.endsWith(allowed.slice(1)) : host === allowed));
}
