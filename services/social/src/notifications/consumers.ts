import { randomUUID } from 'node:crypto';
import { StageChanged } from '@spinroom/contracts/events/v1/room_events';
import { FriendInvitationAnswered, FriendInvitationSent } from '@spinroom/contracts/events/v1/social_events';
import type { EventHandler, Logger } from '@spinroom/platform';
import type { NotificationDelivery } from './delivery.js';
import type { Notifications } from './notifications.js';
import { NOTIFICATION_REQUESTED, readNotification } from './topic.js';
import { TOPICS } from '@spinroom/contracts/topics';

export const ROOM_EVENTS_TOPIC = TOPICS.roomEvents.name;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `room-events`: a DJ taking the stage tells their fans (once per digest
 * window), and a change that leaves a seat free tells who waits for one. In
 * the consumer's transaction, with the event's own time: a redelivered event
 * is skipped whole, and the digest judges by when the DJ took the stage.
 */
export function roomEventsHandler(notifications: Notifications): EventHandler {
  return async (event, em) => {
    if (event.eventType !== 'room.stage-changed') return;
    const stage = StageChanged.decode(event.value);
    if (!UUID.test(stage.roomUuid)) throw new Error('room.stage-changed without a room uuid');
    const at = stage.metadata?.occurredAt ?? new Date();
    const room = { roomUuid: stage.roomUuid, roomSlug: stage.roomSlug, roomName: stage.roomName };
    for (const djUuid of stage.addedDjUuids.filter((uuid) => UUID.test(uuid))) {
      await notifications.djTookStage(em, { ...room, djUuid, at });
    }
    if (stage.removedDjUuids.length > 0 && stage.djUuids.length < stage.numberOfDjs) await notifications.seatOpened(em, room);
  };
}

/** `social-events`: the invited person is told of an invitation, the inviter of its answer. */
export function socialEventsHandler(notifications: Notifications): EventHandler {
  return async (event, em) => {
    if (event.eventType === 'social.friend-invitation-sent') {
      const sent = FriendInvitationSent.decode(event.value);
      if (!UUID.test(sent.toUuid)) return;
      notifications.tell(em, {
        id: randomUUID(),
        recipientUuid: sent.toUuid,
        kind: 'friendInvitation',
        title: 'New friend invitation',
        body: 'Someone wants to be your friend on Spinroom',
        data: { invitationId: sent.invitationId, fromUuid: sent.fromUuid },
        silent: false,
        channel: 'all',
      });
    } else if (event.eventType === 'social.friend-invitation-answered') {
      const answered = FriendInvitationAnswered.decode(event.value);
      if (!UUID.test(answered.fromUuid)) return;
      notifications.tell(em, {
        id: randomUUID(),
        recipientUuid: answered.fromUuid,
        kind: 'friendInvitationAnswered',
        title: answered.accepted ? 'Friend invitation accepted' : 'Friend invitation declined',
        body: answered.accepted ? 'You have a new friend on Spinroom' : 'Your friend invitation was declined',
        data: { invitationId: answered.invitationId, toUuid: answered.toUuid, accepted: String(answered.accepted) },
        silent: false,
        channel: 'all',
      });
    }
  };
}

/**
 * `notifications`: each notification delivered to its recipient's devices.
 * The consumer records its id in the transaction the delivery runs in, so a
 * consumer restarted mid-stream skips what it delivered (a crash between a
 * push and the commit may push that one again: at least once, by id once).
 */
export function notificationsHandler(delivery: NotificationDelivery, logger: Logger): EventHandler {
  return async (event) => {
    if (event.eventType !== NOTIFICATION_REQUESTED) return;
    const notification = readNotification(event.eventId, event.value);
    if (!notification) return;
    const report = await delivery.deliver(notification);
    logger.debug({ notificationId: notification.id, kind: notification.kind, ...report }, 'notification delivered');
  };
}
