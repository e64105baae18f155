import { UserProfileUpdated } from '@spinroom/contracts/events/v1/user_events';
import type { ReceivedEvent } from '@spinroom/platform';
import type { CachedProfiles } from '../live-rooms/adapters.js';
import { TOPICS } from '@spinroom/contracts/topics';

/** The user service's topic: the room service reads `user.profile-updated` from it. */
export const USER_EVENTS_TOPIC = TOPICS.userEvents.name;

/** Keeps the live rooms' profile cache fresh: each `user.profile-updated` replaces the user's cached profile; other events are not the room's. */
export function userEventsHandler(profiles: CachedProfiles) {
  return async (event: ReceivedEvent): Promise<void> => {
    if (event.eventType !== 'user.profile-updated') return;
    const { profile } = UserProfileUpdated.decode(event.value);
    if (profile?.uuid) await profiles.updated(profile);
  };
}
