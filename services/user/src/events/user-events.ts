import { UserPhoneNumberChanged, UserProfileUpdated, UserSignedUp } from '@spinroom/contracts/events/v1/user_events';
import { newEventMetadata, type OutboxEntry } from '@spinroom/platform';
import type { User } from '../domain/user.js';
import { toProfileMessage } from '../rpc/user-service.js';
import { TOPICS } from '@spinroom/contracts/topics';

export const USER_EVENTS_TOPIC = TOPICS.userEvents.name;

/** `user.signed-up`, keyed by the user's uuid, with the profile as created (the room service caches it). */
export function userSignedUp(user: User): OutboxEntry {
  const metadata = newEventMetadata('user.signed-up');
  const payload = UserSignedUp.encode({
    metadata,
    userUuid: user.uuid,
    email: user.email ?? '',
    nickname: user.nickname,
    kind: user.kind,
    profile: toProfileMessage(user),
  }).finish();
  return { topic: USER_EVENTS_TOPIC, key: user.uuid, metadata, payload };
}

export const PHONE_NUMBER_ADDED = 'user.phone-number-added';
export const PHONE_NUMBER_REMOVED = 'user.phone-number-removed';

/** `user.phone-number-added` / `-removed`: a sign-in number of the user's (the social service matches address books with it). */
export function userPhoneNumberChanged(userUuid: string, phone: string, change: 'added' | 'removed'): OutboxEntry {
  const metadata = newEventMetadata(change === 'added' ? PHONE_NUMBER_ADDED : PHONE_NUMBER_REMOVED);
  const payload = UserPhoneNumberChanged.encode({ metadata, userUuid, phone }).finish();
  return { topic: USER_EVENTS_TOPIC, key: userUuid, metadata, payload };
}

export const PROFILE_UPDATED = 'user.profile-updated';

/** `user.profile-updated`: the user's whole profile after a change, or a guest's as created (the room service shows it in live rooms). */
export function userProfileUpdated(user: User): OutboxEntry {
  const metadata = newEventMetadata(PROFILE_UPDATED);
  const payload = UserProfileUpdated.encode({ metadata, userUuid: user.uuid, profile: toProfileMessage(user) }).finish();
  return { topic: USER_EVENTS_TOPIC, key: user.uuid, metadata, payload };
}
