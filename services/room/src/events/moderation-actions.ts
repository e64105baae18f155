import { ModerationAction as ModerationActionMessage } from '@spinroom/contracts/events/v1/moderation_actions';
import { moderationActionTypes, toModerationRole, type ModerationActionTypeName } from '@spinroom/contracts/moderation';
import { UserRole } from '@spinroom/contracts/room/v1/room_vocabulary';
import { userRoles, type RoomRoleName } from '@spinroom/contracts/vocabulary';
import { newEventMetadata, type OutboxEntry } from '@spinroom/platform';
import { TOPICS } from '@spinroom/contracts/topics';

export const MODERATION_ACTIONS_TOPIC = TOPICS.moderationActions.name;
export const MODERATION_ACTION_EVENT = 'moderation.action';

/** Spec 002's moderation action types. */
export type ModerationActionType = Extract<
  ModerationActionTypeName,
  'banUser' | 'kickUser' | 'grantRole' | 'removeRole' | 'globalKick' | 'globalBan' | 'globalUnBan' | 'temporaryBan'
>;

export interface ModerationAction {
  actionType: ModerationActionType;
  previousRole: RoomRoleName | null;
  role: RoomRoleName | null;
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
    actionType: moderationActionTypes.valueOf(action.actionType),
    previousRole: toModerationRole(action.previousRole && { room: action.previousRole }),
    role: toModerationRole(action.role && { room: action.role }),
    roomUuid: action.roomUuid ?? '',
    actorUserUuid: action.actorUuid,
    targetUserUuid: action.targetUuid,
    expirationTime: action.expirationTime ?? undefined,
    actorTokenRole: userRoles.parse(action.actorTokenRole) ?? UserRole.USER_ROLE_UNSPECIFIED,
  }).finish();
  return { topic: MODERATION_ACTIONS_TOPIC, key: action.roomUuid ?? action.targetUuid, metadata, payload };
}
