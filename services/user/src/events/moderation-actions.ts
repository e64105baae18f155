import { ModerationAction } from '@spinroom/contracts/events/v1/moderation_actions';
import { moderationActionTypes, toModerationRole } from '@spinroom/contracts/moderation';
import { userRoles } from '@spinroom/contracts/vocabulary';
import { newEventMetadata, type OutboxEntry } from '@spinroom/platform';
import type { ModerationEvent } from '../domain/moderation/moderation.js';
import { TOPICS } from '@spinroom/contracts/topics';

/** The topic the room service writes its room acts to; the user service writes its acts on accounts there too. */
export const MODERATION_ACTIONS_TOPIC = TOPICS.moderationActions.name;
export const MODERATION_ACTION_EVENT = 'moderation.action';

/** An act on an account across every room: no room, keyed by the target user. */
export function moderationAction(action: ModerationEvent): OutboxEntry {
  const metadata = newEventMetadata(MODERATION_ACTION_EVENT);
  const payload = ModerationAction.encode({
    metadata,
    actionType: moderationActionTypes.valueOf(action.actionType),
    previousRole: toModerationRole(action.previousRole),
    role: toModerationRole(action.role),
    roomUuid: '',
    actorUserUuid: action.actorUuid,
    targetUserUuid: action.targetUuid,
    expirationTime: action.expirationTime ?? undefined,
    actorTokenRole: userRoles.valueOf(action.actorTokenRole),
  }).finish();
  return { topic: MODERATION_ACTIONS_TOPIC, key: action.targetUuid, metadata, payload };
}
