import { NotificationRequested } from '@spinroom/contracts/events/v1/notifications';
import { newEventMetadata, type OutboxEntry } from '@spinroom/platform';
import type { StoredDirectMessage } from '../domain/direct-message.js';
import { directConversationId } from '../domain/direct-message.js';
import { TOPICS } from '@spinroom/contracts/topics';

/**
 * What the chat service asks of the social service's notifications
 * (proto/spinroom/events/v1/notifications.proto): one `notification.requested`
 * on the `notifications` topic, keyed by the recipient, for a direct message
 * to someone offline. The social service delivers it to their devices unless
 * they muted `directMessage` or are in their quiet hours.
 */
export const NOTIFICATIONS_TOPIC = TOPICS.notifications.name;
export const NOTIFICATION_REQUESTED = 'notification.requested';
/** The longest message text a notification shows, in characters as people see them. */
const BODY_LENGTH = 140;

function preview(message: StoredDirectMessage): string {
  const text = (typeof message.chatMessage.message === 'string' ? message.chatMessage.message : '') || message.text;
  if (!text.trim()) return message.type === 'image' ? 'sent you an image' : 'sent you a message';
  // Cut between characters as people see them (an emoji with its modifiers is one).
  const characters = Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text), (s) => s.segment);
  return characters.length > BODY_LENGTH ? `${characters.slice(0, BODY_LENGTH - 1).join('')}…` : text;
}

/** The notification of a direct message, written in the message's own transaction (the outbox). */
export function directMessageNotification(message: StoredDirectMessage): OutboxEntry {
  const metadata = newEventMetadata(NOTIFICATION_REQUESTED);
  const payload = NotificationRequested.encode({
    metadata,
    recipientUserUuid: message.receiver,
    kind: 'directMessage',
    title: message.senderEntity.name,
    body: preview(message),
    data: {
      type: 'directMessage',
      messageId: message.id,
      senderUuid: message.sender,
      conversationId: directConversationId(message.sender, message.receiver),
    },
    silent: false,
    channel: '',
  }).finish();
  return { topic: NOTIFICATIONS_TOPIC, key: message.receiver, metadata, payload };
}
