import { ERROR_CODES, forbidden } from '@spinroom/platform';
import type { Operation } from 'fast-json-patch';
import type { ClientRoomUser, ClientUserData, LiveRoom, Member } from './state.js';
import { isModerator, ROOM_FULL } from './transitions.js';

/**
 * A join or a leave that touches only that user, whatever the room's size:
 * the same room and the same patch as `join` and `leave` in transitions.ts
 * (which copy and re-derive the whole room), worked out from the user alone.
 * `arrival`/`departures` answer the patch without changing the room; `admit`
 * and `release` then change it in place, once the change is stored. Joins
 * and leaves that come together are worked out and stored together: one
 * write, one message, one version.
 */

const asUser = (m: Member): ClientRoomUser => ({
  uuid: m.uuid,
  tokenRole: m.tokenRole,
  ...(m.highestRole ? { highestRole: m.highestRole } : {}),
  canDj: m.canDj,
});

export interface Arrival {
  member: Member;
  data: ClientUserData;
  now: number;
  patch: Operation[];
}

/** Arrivals worked out together before any is stored: each one's places follow the ones before it. */
export interface ArrivalBatch {
  uuids: Set<string>;
  members: number;
  allUsers: number;
  audienceUsers: number;
  floorUsers: number;
}

export function arrivalBatch(room: LiveRoom): ArrivalBatch {
  return {
    uuids: new Set(),
    members: room.server.members.length,
    allUsers: room.client.allUsers.length,
    audienceUsers: room.client.audienceUsers.length,
    floorUsers: room.client.floorUsers.length,
  };
}

/**
 * A new member's entry, after those already in `batch`: null when they are
 * already in the room or in the batch (then `join` of transitions.ts decides,
 * once the batch is stored). 403 ROOM_FULL past the room's size.
 */
export function arrival(
  room: LiveRoom,
  input: { member: Member; profile: Record<string, unknown>; position: { x: number; y: number }; now: number },
  batch: ArrivalBatch = arrivalBatch(room),
): Arrival | null {
  const { uuid } = input.member;
  if (batch.uuids.has(uuid) || room.client.allUserData[uuid] !== undefined || room.server.members.some((m) => m.uuid === uuid)) return null;
  if (room.rules.roomSize > 0 && batch.members >= room.rules.roomSize && !isModerator(input.member))
    throw forbidden(ROOM_FULL, ERROR_CODES.roomFull);
  const member = { ...input.member };
  const data: ClientUserData = { userProfile: input.profile, position: input.position, songVotes: {} };
  const user = asUser(member);
  const guest = member.tokenRole === 'guest';
  // As the state's keys are diffed (allUserData, allUsers, audienceUsers, floorUsers): appended at each list's end.
  const patch: Operation[] = [{ op: 'add', path: `/allUserData/${uuid}`, value: structuredClone(data) }];
  if (!guest) patch.push({ op: 'add', path: `/allUsers/${batch.allUsers++}`, value: { ...user } });
  patch.push({ op: 'add', path: `/audienceUsers/${batch.audienceUsers++}`, value: { ...user } });
  if (!guest) patch.push({ op: 'add', path: `/floorUsers/${batch.floorUsers++}`, value: { ...user } });
  batch.uuids.add(uuid);
  batch.members += 1;
  return { member, data, now: input.now, patch };
}

/** Applies a stored arrival to the room (arrivals of a batch in their order). */
export function admit(room: LiveRoom, { member, data, now }: Arrival): void {
  room.server.members.push(member);
  room.server.joinedAt = room.server.joinedAt ?? {};
  room.server.joinedAt[member.uuid] = now;
  room.client.allUserData[member.uuid] = data;
  const user = asUser(member);
  if (member.tokenRole !== 'guest') room.client.allUsers.push({ ...user });
  room.client.audienceUsers.push({ ...user });
  if (member.tokenRole !== 'guest') room.client.floorUsers.push({ ...user });
}

export interface Departure {
  userUuid: string;
  patch: Operation[];
  /** Where they were in each list when they left, after the departures before them (-1: not there). */
  at: { allUsers: number; audienceUsers: number; floorUsers: number };
}

const LISTS = ['allUsers', 'audienceUsers', 'floorUsers'] as const;

/**
 * Members leaving who hold nothing else in the room (not on stage, not in
 * line, no vote counted), each after the ones before it. Those `leave` of
 * transitions.ts must decide (someone on stage or in line, a counted vote)
 * are answered apart; users not in the room are left out.
 */
export function departures(room: LiveRoom, userUuids: string[]): { quick: Departure[]; ruled: string[] } {
  const lists = {
    allUsers: room.client.allUsers.slice(),
    audienceUsers: room.client.audienceUsers.slice(),
    floorUsers: room.client.floorUsers.slice(),
  };
  const quick: Departure[] = [];
  const ruled: string[] = [];
  const seen = new Set<string>();
  for (const userUuid of userUuids) {
    if (seen.has(userUuid)) continue;
    seen.add(userUuid);
    const data = room.client.allUserData[userUuid];
    if (!data || !room.server.members.some((m) => m.uuid === userUuid)) continue;
    const holds =
      room.client.djs.some((d) => d.uuid === userUuid) ||
      room.client.waitlist.includes(userUuid) ||
      (room.server.play !== null && (data.songVotes.like !== undefined || data.songVotes.star !== undefined));
    if (holds) {
      ruled.push(userUuid);
      continue;
    }
    const patch: Operation[] = [{ op: 'remove', path: `/allUserData/${userUuid}` }];
    const at = { allUsers: -1, audienceUsers: -1, floorUsers: -1 };
    for (const list of LISTS) {
      at[list] = lists[list].findIndex((u) => u.uuid === userUuid);
      if (at[list] < 0) continue;
      lists[list].splice(at[list], 1);
      patch.push({ op: 'remove', path: `/${list}/${at[list]}` });
    }
    quick.push({ userUuid, patch, at });
  }
  return { quick, ruled };
}

/** Applies a stored departure to the room (departures of a batch in their order). */
export function release(room: LiveRoom, { userUuid, at }: Departure): void {
  room.server.members.splice(
    room.server.members.findIndex((m) => m.uuid === userUuid),
    1,
  );
  delete room.client.allUserData[userUuid];
  if (room.server.joinedAt) delete room.server.joinedAt[userUuid];
  for (const list of LISTS) {
    if (at[list] >= 0) room.client[list].splice(at[list], 1);
  }
}
