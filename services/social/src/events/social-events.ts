import { DjFollowed, FriendInvitationAnswered, FriendInvitationSent } from '@spinroom/contracts/events/v1/social_events';
import { newEventMetadata, type OutboxEntry } from '@spinroom/platform';
import type { DjFan } from '../domain/dj-fans.js';
import type { FriendInvitation } from '../domain/friends.js';
import { TOPICS } from '@spinroom/contracts/topics';

/** What the social service announces (proto/spinroom/events/v1/social_events.proto), through its outbox. */
export const SOCIAL_EVENTS_TOPIC = TOPICS.socialEvents.name;
export const FRIEND_INVITATION_SENT = 'social.friend-invitation-sent';
export const FRIEND_INVITATION_ANSWERED = 'social.friend-invitation-answered';
export const DJ_FOLLOWED = 'social.dj-followed';

/** `social.friend-invitation-sent`, keyed by the invited user: staged in the invitation's own transaction. */
export function friendInvitationSent(invitation: FriendInvitation): OutboxEntry {
  const metadata = newEventMetadata(FRIEND_INVITATION_SENT);
  const payload = FriendInvitationSent.encode({
    metadata,
    invitationId: invitation.id,
    fromUuid: invitation.fromUuid,
    toUuid: invitation.toUuid,
    sentAt: invitation.createdAt,
  }).finish();
  return { topic: SOCIAL_EVENTS_TOPIC, key: invitation.toUuid, metadata, payload };
}

/** `social.friend-invitation-answered`, keyed by the inviter (who is told): staged with the answer. */
export function friendInvitationAnswered(invitation: FriendInvitation): OutboxEntry {
  const metadata = newEventMetadata(FRIEND_INVITATION_ANSWERED);
  const payload = FriendInvitationAnswered.encode({
    metadata,
    invitationId: invitation.id,
    fromUuid: invitation.fromUuid,
    toUuid: invitation.toUuid,
    accepted: invitation.status === 'ACCEPTED',
    answeredAt: invitation.answeredAt ?? metadata.occurredAt,
  }).finish();
  return { topic: SOCIAL_EVENTS_TOPIC, key: invitation.fromUuid, metadata, payload };
}

/** `social.dj-followed`, keyed by the DJ: staged with the follow. */
export function djFollowed(fan: DjFan): OutboxEntry {
  const metadata = newEventMetadata(DJ_FOLLOWED);
  const payload = DjFollowed.encode({
    metadata,
    fanId: fan.id,
    fanUuid: fan.fanUuid,
    djUuid: fan.djUuid,
    followedAt: fan.createdAt,
  }).finish();
  return { topic: SOCIAL_EVENTS_TOPIC, key: fan.djUuid, metadata, payload };
}
