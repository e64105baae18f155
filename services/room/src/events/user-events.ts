import { UserProfileUpdated, UserSignedUp } from '@spinroom/contracts/events/v1/user_events';
import type { ReceivedEvent } from '@spinroom/platform';
import type { CachedProfiles } from '../live-rooms/adapters.js';
import { TOPICS } from '@spinroom/contracts/topics';

/** The user service's topic: the room service reads `user.signed-up` and `user.profile-updated` from it. */
export const USER_EVENTS_TOPIC = TOPICS.userEvents.name;

/**
 * Keeps the live rooms' profile cache filled and fresh: an account's profile as created (`user.signed-up`, and a
 * guest's `user.profile-updated` at its creation), so that a first join does not ask the user service for it, and each
 * `user.profile-updated` replaces the cached profile; other events are not the room's.
 */
export function userEventsHandler(profiles: CachedProfiles) {
  return async (event: ReceivedEvent): Promise<void> => {
    const { profile } =
      event.eventType === 'user.profile-updated'
        ? UserProfileUpdated.decode(event.value)
        : event.eventType === 'user.signed-up'
          ? UserSignedUp.decode(event.value)
          : { profile: undefined };
    if (profile?.uuid) await profiles.updated(profile);
  };
}
