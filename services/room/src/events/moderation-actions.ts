import { ModerationAction as ModerationActionMessage } from '@spinroom/contracts/events/v1/moderation_actions';
import { newEventMetadata, type OutboxEntry } from '@spinroom/platform';

export const MODERATION_ACTIONS_TOPIC = 'moderation-actions';
export const MODERATION_ACTION_EVENT = 'moderation.action';

/** Spec 002's moderation action types. */
export type ModerationActionType =
  | 'banUser'
  | 'kickUser'
  | 'grantRole'
  | 'removeRole'
  | 'globalKick'
  | 'globalBan'
  | 'globalUnBan'
  | 'temporaryBan';

export interface ModerationAction {
  actionType: ModerationActionType;
  previousRole: string | null;
  role: string | null;
  /** null for an action across every room. */
  roomUuid: string | null;
  actorUuid: string;
  actorTokenRole: string;
  targetUuid: string;
  expirationTime: Date | null;
}

/** One moderation act on `moderation-actions`, keyed by the room (or the target user when it spans rooms). */
export function moderationAction(action: ModerationAction): OutboxEntry {
  const metadata = newEventMetadata(MODERATION_ACTION_EVENT);
  const payload = ModerationActionMessage.encode({
    metadata,
    actionType: action.actionType,
    previousRole: action.previousRole ?? '',
    role: action.role ?? '',
    roomUuid: action.roomUuid ?? '',
    actorUserUuid: action.actorUuid,
    targetUserUuid: action.targetUuid,
    expirationTime: action.expirationTime ?? undefined,
    actorTokenRole: action.actorTokenRole,
  }).finish();
  return { topic: MODERATION_ACTIONS_TOPIC, key: action.roomUuid ?? action.targetUuid, metadata, payload };
}
