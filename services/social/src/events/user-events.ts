import type { EntityManager } from '@mikro-orm/postgresql';
import { UserPhoneNumberChanged, UserSignedUp } from '@spinroom/contracts/events/v1/user_events';
import type { ReceivedEvent } from '@spinroom/platform';
import { addToDirectory, removeFromDirectory } from '../db/contact-store.js';
import { isUuid } from '../domain/actors.js';
import type { Contacts } from '../domain/contacts.js';
import { TOPICS } from '@spinroom/contracts/topics';

export const USER_EVENTS_TOPIC = TOPICS.userEvents.name;

/**
 * Keeps the directory contacts are matched against: a signed-up user's email
 * and the numbers they sign in with, hashed as address books are, in the
 * consumer's transaction (a redelivered event changes nothing). Events
 * without an email add none; an event without a valid user uuid fails, and
 * after the consumer's retries lands in `user-events.dlq`.
 */
export function userEventsHandler(contacts: Contacts, now: () => Date = () => new Date()) {
  return async (event: ReceivedEvent, em: EntityManager): Promise<void> => {
    if (event.eventType === 'user.signed-up') {
      const signedUp = UserSignedUp.decode(event.value);
      const userUuid = validUser(signedUp.userUuid, event.eventType);
      const entry = contacts.directoryEntry(signedUp.email);
      if (entry) await addToDirectory(em, userUuid, entry, now());
      return;
    }
    if (event.eventType === 'user.phone-number-added' || event.eventType === 'user.phone-number-removed') {
      const changed = UserPhoneNumberChanged.decode(event.value);
      const userUuid = validUser(changed.userUuid, event.eventType);
      const entry = contacts.phoneDirectoryEntry(changed.phone);
      if (!entry) return;
      if (event.eventType === 'user.phone-number-added') await addToDirectory(em, userUuid, entry, now());
      else await removeFromDirectory(em, userUuid, entry);
    }
  };
}

function validUser(userUuid: string, eventType: string): string {
  if (!isUuid(userUuid)) throw new Error(`${eventType} without a valid user uuid (${JSON.stringify(userUuid)})`);
  return userUuid.toLowerCase();
}
