import { CommunityEventLive } from '@spinroom/contracts/events/v1/community_notifications';
import { newEventMetadata, type OutboxEntry } from '@spinroom/platform';
import type { CommunityEvent } from '../domain/community-rules.js';
import type { Room } from '../domain/room.js';

export const NOTIFICATIONS_TOPIC = 'notifications';
export const COMMUNITY_EVENT_LIVE = 'community.event-live';

/**
 * `community.event-live` on `notifications`, keyed by the event's room: one
 * part of the members to tell that the event started (services/room/README.md
 * and proto/spinroom/events/v1/community_notifications.proto give the shape).
 */
export function communityEventLive(live: {
  event: CommunityEvent;
  room: Room;
  roomOwnerUuid: string;
  recipients: string[];
  part: number;
  parts: number;
}): OutboxEntry {
  const { event, room } = live;
  const metadata = newEventMetadata(COMMUNITY_EVENT_LIVE);
  const payload = CommunityEventLive.encode({
    metadata,
    eventUuid: event.uuid,
    eventSlug: event.slug,
    eventName: event.name,
    roomUuid: room.uuid,
    roomSlug: room.slug,
    roomName: room.name,
    roomOwnerUuid: live.roomOwnerUuid,
    communityUuid: event.communityUuid ?? '',
    communitySlug: event.communitySlug ?? '',
    communityName: event.communityName ?? '',
    startTime: event.startTime,
    endTime: event.endTime,
    recipientUserUuids: live.recipients,
    part: live.part,
    parts: live.parts,
    title: `${event.name} is live now`,
    body: `${event.name} is live now in ${room.name}`,
  }).finish();
  return { topic: NOTIFICATIONS_TOPIC, key: room.uuid, metadata, payload };
}
