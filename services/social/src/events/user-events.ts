import type { EntityManager } from '@mikro-orm/postgresql';
import { UserSignedUp } from '@spinroom/contracts/events/v1/user_events';
import type { ReceivedEvent } from '@spinroom/platform';
import { addToDirectory } from '../db/contact-store.js';
import { isUuid } from '../domain/actors.js';
import type { Contacts } from '../domain/contacts.js';

export const USER_EVENTS_TOPIC = 'user-events';

/**
 * Keeps the directory contacts are matched against: a signed-up user's email,
 * hashed as address books are, in the consumer's transaction (a redelivered
 * event changes nothing). Events without an email (phone sign-ups) add
 * nothing; an event without a valid user uuid fails, and after the
 * consumer's retries lands in `user-events.dlq`.
 */
export function userEventsHandler(contacts: Contacts, now: () => Date = () => new Date()) {
  return async (event: ReceivedEvent, em: EntityManager): Promise<void> => {
    if (event.eventType !== 'user.signed-up') return;
    const signedUp = UserSignedUp.decode(event.value);
    if (!isUuid(signedUp.userUuid)) throw new Error(`user.signed-up without a valid user uuid (${JSON.stringify(signedUp.userUuid)})`);
    const entry = contacts.directoryEntry(signedUp.email);
    if (entry) await addToDirectory(em, signedUp.userUuid.toLowerCase(), entry, now());
  };
}
