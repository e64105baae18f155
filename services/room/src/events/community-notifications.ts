import type { NotificationKind } from '@spinroom/contracts/notifications';
import { NotificationRequested } from '@spinroom/contracts/events/v1/notifications';
import { newEventMetadata, type OutboxEntry } from '@spinroom/platform';
import type { CommunityEvent } from '../domain/community-rules.js';
import type { Room } from '../domain/room.js';
import { TOPICS } from '@spinroom/contracts/topics';

export const NOTIFICATIONS_TOPIC = TOPICS.notifications.name;
/** The social service's record of one notification for one person (proto/spinroom/events/v1/notifications.proto). */
export const NOTIFICATION_REQUESTED = 'notification.requested';
/** What a person would mute: the social service reads a kind it does not list as `custom`. */
export const EVENT_LIVE_KIND: NotificationKind = 'eventLive';

/**
 * An event's start, told to one of its community's members: a
 * `notification.requested` record on `notifications`, keyed by the member,
 * its event id the notification's id (the social service delivers each id
 * once). `data` says where to go: the room and the event.
 */
export function eventLiveNotification(live: { event: CommunityEvent; room: Room; recipientUuid: string }): OutboxEntry {
  const { event, room } = live;
  const metadata = newEventMetadata(NOTIFICATION_REQUESTED);
  const payload = NotificationRequested.encode({
    metadata,
    recipientUserUuid: live.recipientUuid,
    kind: EVENT_LIVE_KIND,
    title: `${event.name} is live now`,
    body: `${event.name} is live now in ${room.name}`,
    data: {
      type: EVENT_LIVE_KIND,
      eventUuid: event.uuid,
      eventSlug: event.slug,
      roomUuid: room.uuid,
      roomSlug: room.slug,
      communityUuid: event.communityUuid ?? '',
      communitySlug: event.communitySlug ?? '',
    },
    silent: false,
    channel: '',
  }).finish();
  return { topic: NOTIFICATIONS_TOPIC, key: live.recipientUuid, metadata, payload };
}
