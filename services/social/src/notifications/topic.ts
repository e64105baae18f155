import { NotificationRequested } from '@spinroom/contracts/events/v1/notifications';
import { newEventMetadata, type OutboxEntry } from '@spinroom/platform';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  type Notification,
  type NotificationChannel,
  type NotificationKind,
} from './notification.js';
import { TOPICS } from '@spinroom/contracts/topics';

export const NOTIFICATIONS_TOPIC = TOPICS.notifications.name;
export const NOTIFICATION_REQUESTED = 'notification.requested';

/** One notification as its `notifications` record: keyed by its recipient, its id the event id. */
export function notificationEntry(notification: Notification, occurredAt = new Date()): OutboxEntry {
  const metadata = { ...newEventMetadata(NOTIFICATION_REQUESTED), eventId: notification.id, occurredAt };
  const payload = NotificationRequested.encode({
    metadata,
    recipientUserUuid: notification.recipientUuid,
    kind: notification.kind,
    title: notification.title,
    body: notification.body,
    data: notification.data,
    silent: notification.silent,
    channel: notification.channel,
  }).finish();
  return { topic: NOTIFICATIONS_TOPIC, key: notification.recipientUuid, metadata, payload };
}

const asKind = (kind: string): NotificationKind =>
  (NOTIFICATION_KINDS as readonly string[]).includes(kind) ? (kind as NotificationKind) : 'custom';
const asChannel = (channel: string): NotificationChannel =>
  (NOTIFICATION_CHANNELS as readonly string[]).includes(channel) ? (channel as NotificationChannel) : 'all';

/** A record of the topic as the notification it asks for (its id the record's event id); undefined when it names no recipient. */
export function readNotification(eventId: string, value: Uint8Array): Notification | undefined {
  const message = NotificationRequested.decode(value);
  if (!message.recipientUserUuid) return undefined;
  return {
    id: eventId,
    recipientUuid: message.recipientUserUuid,
    kind: asKind(message.kind),
    title: message.title,
    body: message.body,
    data: message.data,
    silent: message.silent,
    channel: asChannel(message.channel),
  };
}
