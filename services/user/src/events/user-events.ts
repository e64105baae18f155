import { UserSignedUp } from '@spinroom/contracts/events/v1/user_events';
import { newEventMetadata, type OutboxEntry } from '@spinroom/platform';
import type { User } from '../domain/user.js';

export const USER_EVENTS_TOPIC = 'user-events';

/** `user.signed-up`, keyed by the user's uuid. */
export function userSignedUp(user: User): OutboxEntry {
  const metadata = newEventMetadata('user.signed-up');
  const payload = UserSignedUp.encode({
    metadata,
    userUuid: user.uuid,
    email: user.email ?? '',
    nickname: user.nickname,
    kind: user.kind,
  }).finish();
  return { topic: USER_EVENTS_TOPIC, key: user.uuid, metadata, payload };
}
