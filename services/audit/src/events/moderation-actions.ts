import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ModerationAction } from '@spinroom/contracts/events/v1/moderation_actions';
import { moderationActionTypes, moderationRoleName, type ModerationRoleName } from '@spinroom/contracts/moderation';
import { userRoles } from '@spinroom/contracts/vocabulary';
import type { ReceivedEvent } from '@spinroom/platform';
import { recordModerationEvent } from '../db/moderation-store.js';
import { recordUserEvents } from '../db/play-store.js';
import type { ModerationActionRow } from '../domain/moderation-actions.js';
import { TOPICS } from '@spinroom/contracts/topics';

export const MODERATION_ACTIONS_TOPIC = TOPICS.moderationActions.name;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidOrNull = (value: string) => (UUID.test(value) ? value.toLowerCase() : null);

function word(role: ModerationRoleName | undefined): string | null {
  if (!role) return null;
  if ('room' in role) return role.room;
  if ('user' in role) return role.user;
  return role.capability;
}

/** A `moderation.action` event as the row it is stored as; throws for one without a known type. */
export function moderationRow(
  event: Pick<ReceivedEvent, 'value' | 'eventId'>,
  now: Date = new Date(),
): ModerationActionRow & { eventId: string } {
  const action = ModerationAction.decode(event.value);
  const actionType = moderationActionTypes.nameOf(action.actionType);
  if (!actionType) throw new Error(`moderation.action of unknown type ${action.actionType}`);
  const at = action.metadata?.occurredAt ?? now;
  return {
    id: randomUUID(),
    eventId: event.eventId,
    actionType,
    previousRole: word(moderationRoleName(action.previousRole)),
    role: word(moderationRoleName(action.role)),
    roomUuid: uuidOrNull(action.roomUuid),
    actorUuid: uuidOrNull(action.actorUserUuid),
    targetUuid: uuidOrNull(action.targetUserUuid),
    actorTokenRole: userRoles.nameOf(action.actorTokenRole) ?? null,
    expirationTime: action.expirationTime ?? null,
    createdAt: at,
    updatedAt: at,
    source: 'kafka',
  };
}

/**
 * Everything on `moderation-actions` (the room and user services publish
 * them), stored once per event id in the idempotent consumer's transaction;
 * the actor's and the target's last event become this action.
 */
export function moderationActionsHandler(now?: () => Date) {
  return async (event: ReceivedEvent, em: EntityManager): Promise<void> => {
    const row = moderationRow(event, now?.());
    if (!(await recordModerationEvent(em, row))) return;
    const detail = { actionId: row.id, roomUuid: row.roomUuid, actorUuid: row.actorUuid, targetUuid: row.targetUuid, role: row.role };
    const users = [...new Set([row.actorUuid, row.targetUuid].filter((uuid): uuid is string => uuid !== null))];
    await recordUserEvents(
      em,
      users.map((userUuid) => ({ userUuid, name: row.actionType, topic: MODERATION_ACTIONS_TOPIC, occurredAt: row.createdAt, detail })),
    );
  };
}
