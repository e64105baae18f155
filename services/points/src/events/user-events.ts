import type { EntityManager } from '@mikro-orm/postgresql';
import { UserSignedUp } from '@spinroom/contracts/events/v1/user_events';
import type { ReceivedEvent } from '@spinroom/platform';
import { recordSignUp } from '../db/point-store.js';
import { createAccount } from '../db/token-store.js';
import { TOPICS } from '@spinroom/contracts/topics';

export const USER_EVENTS_TOPIC = TOPICS.userEvents.name;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Gives every signed-up user (people and bots; guests never sign up) a token
 * account and remembers their sign-up's kind and time (the points' account-age
 * rule, domain/points.ts), in the consumer's transaction: the processed event's id and the
 * account commit together, and the account is unique per user, so a
 * redelivered or repeated event changes nothing. An event without a valid
 * user uuid fails, and after the consumer's retries lands in `user-events.dlq`.
 */
export function userEventsHandler(now: () => Date = () => new Date()) {
  return async (event: ReceivedEvent, em: EntityManager): Promise<void> => {
    if (event.eventType !== 'user.signed-up') return; // other user events are not the ledger's business
    const signedUp = UserSignedUp.decode(event.value);
    if (!UUID.test(signedUp.userUuid)) throw new Error(`user.signed-up without a valid user uuid (${JSON.stringify(signedUp.userUuid)})`);
    await createAccount(em, signedUp.userUuid, now());
    await recordSignUp(em, signedUp.userUuid, { kind: signedUp.kind || 'user', signedUpAt: signedUp.metadata?.occurredAt ?? now() });
  };
}
