import { ModerationActionType, type ModerationRole } from './gen/spinroom/events/v1/moderation_actions.js';
import {
  roomUserRoles,
  userCapabilities,
  userRoles,
  vocabulary,
  type RoomRoleName,
  type UserCapabilityName,
  type UserRoleName,
} from './vocabulary.js';

/**
 * Moderation action types by spec 002's words ("globalUnBan"), and the user
 * service's acts on accounts. Here rather than in ./vocabulary.ts, which the
 * web client bundles: this one needs the event's generated code.
 */
export const moderationActionTypes = vocabulary(ModerationActionType, 'MODERATION_ACTION_TYPE_', true);
export const MODERATION_ACTION_TYPES = moderationActionTypes.names;
export type ModerationActionTypeName = (typeof MODERATION_ACTION_TYPES)[number];

/** A role or capability a moderation action names, by its words: a room role, a global (token) role or a capability. */
export type ModerationRoleName = { room: RoomRoleName } | { user: UserRoleName } | { capability: UserCapabilityName };

/** The event's ModerationRole for a named role; undefined for none. The one mapping producers use. */
export function toModerationRole(role: ModerationRoleName | null | undefined): ModerationRole | undefined {
  if (!role) return undefined;
  if ('room' in role) return { kind: { $case: 'roomRole', value: roomUserRoles.valueOf(role.room) } };
  if ('user' in role) return { kind: { $case: 'userRole', value: userRoles.valueOf(role.user) } };
  return { kind: { $case: 'capability', value: userCapabilities.valueOf(role.capability) } };
}

/** The words of an event's ModerationRole, for consumers; undefined when unset or unknown. */
export function moderationRoleName(role: ModerationRole | undefined): ModerationRoleName | undefined {
  const kind = role?.kind;
  if (!kind) return undefined;
  if (kind.$case === 'roomRole') {
    const room = roomUserRoles.nameOf(kind.value);
    return room && { room };
  }
  if (kind.$case === 'userRole') {
    const user = userRoles.nameOf(kind.value);
    return user && { user };
  }
  const capability = userCapabilities.nameOf(kind.value);
  return capability && { capability };
}
