// The live room's state as the feed builds it (spec 002 §4 "Room live state"):
// the join answer's state and version, then each stateful message's RFC 6902
// patch in version order. A patch that fails, or a version gap, means the
// local copy can no longer be trusted: the room is rejoined.
import { applyPatch, type Operation } from 'fast-json-patch';
import type { RoomState, RoomUser } from '../api/types';

export interface LiveState {
  state: RoomState;
  version: number;
}

export type PatchOutcome = { kind: 'applied'; live: LiveState } | { kind: 'ignored' } | { kind: 'rejoin'; reason: string };

/** Applies one stateful message (`{statePatch}` plus the envelope's `version`). */
export function applyStateful(live: LiveState, patch: Operation[], version: number | undefined): PatchOutcome {
  if (version !== undefined) {
    // Older: already in our state. The same version: a message to this connection
    // alone (the joiner's updatedUserData) that does not advance the room. Beyond
    // the next one: a frame was lost.
    if (version < live.version) return { kind: 'ignored' };
    if (version > live.version + 1) return { kind: 'rejoin', reason: `version gap: ${live.version} -> ${version}` };
  }
  try {
    const { newDocument } = applyPatch(live.state, patch, true, false);
    return { kind: 'applied', live: { state: newDocument, version: version ?? live.version + 1 } };
  } catch (error) {
    return { kind: 'rejoin', reason: `patch failed: ${(error as Error).message}` };
  }
}

const STAFF = new Set(['owner', 'coOwner', 'moderator']);
const GLOBAL = new Set(['admin', 'globalModerator', 'staff', 'superUser']);

/** Whether this user may use the moderation menus (a room staff role or a global one). */
export function canModerate(state: RoomState | undefined, userUuid: string | null, globalRoles: string[] = []): boolean {
  if (globalRoles.some((r) => GLOBAL.has(r))) return true;
  if (!state || !userUuid) return false;
  const me = state.allUsers.find((u) => u.uuid === userUuid);
  if (me?.highestRole && (STAFF.has(me.highestRole) || GLOBAL.has(me.highestRole))) return true;
  return (state.settings.roomRoles ?? []).some((r) => r.userUuid === userUuid && STAFF.has(r.role) && !expired(r.expirationTime));
}

function expired(at: string | null | undefined, now = Date.now()): boolean {
  return !!at && Date.parse(at) <= now;
}

/** The unexpired chat-disabled role's end for this user, if any (spec 002 §5). */
export function chatDisabledUntil(state: RoomState | undefined, userUuid: string | null, now = Date.now()): Date | null {
  if (!state || !userUuid) return null;
  const role = (state.settings.roomRoles ?? []).find(
    (r) => r.userUuid === userUuid && r.role === 'chatDisabled' && !expired(r.expirationTime, now),
  );
  if (!role) return null;
  return role.expirationTime ? new Date(role.expirationTime) : new Date(8.64e15);
}

export function isDj(state: RoomState | undefined, userUuid: string | null): boolean {
  return !!state && !!userUuid && state.djs.some((d) => d.uuid === userUuid);
}

/** The first DJ is the one playing; the stage is full at numberOfDjs. */
export function stageFull(state: RoomState): boolean {
  return state.djs.length >= Math.max(1, state.settings.numberOfDjs ?? 1);
}

export function nickname(state: RoomState | undefined, user: Pick<RoomUser, 'uuid'> | string): string {
  const uuid = typeof user === 'string' ? user : user.uuid;
  return state?.allUserData[uuid]?.userProfile?.nickname ?? 'someone';
}
