import type { StatefulFeedMessageName } from '@spinroom/platform/core';
import type { JoinState, LiveRoomGateway } from './gateway.js';
import { textFrame } from './wire.js';

/** The join's second message, built around the room service's `allUserData` text (named in platform's feed map). */
const JOINED_USER_DATA: StatefulFeedMessageName = 'updatedUserData';
/** A joiner waiting on fetches that others started, each behind its version, fetches its own; this many rounds at most. */
const MAX_ROUNDS = 8;

/**
 * What every joiner of a room at one version is answered with, as UTF-8 bytes
 * built once: each socket's answer is its own few bytes (messageId,
 * serverTime) written before `responseTail`, then `userData` as it is.
 */
export interface SharedJoinAnswer {
  version: number;
  /** The end of the joinRoom answer, from `,"version"` to the closing brace (the state in it): shared, never written into. */
  responseTail: Buffer;
  /** The `updatedUserData` message (`allUserData`), framed once as a WebSocket text message: shared, never written into. */
  userDataFrame: Buffer;
  /** Its payload alone (a view into `userDataFrame`), for a socket that cannot take shared frames. */
  userDataPayload: Buffer;
}

/** The shared answer built from a room service's join state. */
export function sharedJoinAnswer(roomUuid: string, state: JoinState, now: number): SharedJoinAnswer {
  const { version } = state;
  const responseTail = Buffer.from(`,"version":${version},"state":${state.stateJson}}`);
  const userData =
    `{"context":"user","room":${JSON.stringify(roomUuid)},"from":"server","sentAt":${now},"messageId":${version},` +
    `"message":{"name":"${JOINED_USER_DATA}","statePatch":[{"op":"replace","path":"/allUserData","value":${state.allUserDataJson}}],"version":${version}},"version":${version}}`;
  const userDataFrame = textFrame(userData);
  const payloadBytes = Buffer.byteLength(userData);
  return { version, responseTail, userDataFrame, userDataPayload: userDataFrame.subarray(userDataFrame.length - payloadBytes) };
}

interface RoomJoins {
  /** Joiners of the room waiting for an answer now: the entry goes when none does. */
  waiting: number;
  /** The newest answer fetched while someone waited. */
  latest?: SharedJoinAnswer;
  /** The fetch in flight, if any: joiners who come meanwhile wait for it instead of asking again. */
  fetching?: Promise<SharedJoinAnswer>;
}

/**
 * The room state joiners are answered with, fetched from the room service
 * once per room and version for all the joiners waiting at the same time
 * (single flight), and held as the bytes every joiner's answer shares.
 *
 * A joiner answered by the room service at version V gets a state at V or
 * later: its socket was subscribed to the room's frames before it joined, and
 * keeps every frame until its answer is sent, then drops those at or below
 * the state's version (feed-server.ts `deliver`), so no version is missed.
 *
 * Memory: at most the latest answer of each room, and only while one of its
 * joiners waits (sockets that have not flushed it yet hold on to the buffers).
 */
export class JoinAnswers {
  private readonly rooms = new Map<string, RoomJoins>();

  constructor(
    private readonly gateway: Pick<LiveRoomGateway, 'joinState'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The answer for a joiner of the room answered at `version`: a state at that version or later. */
  async answer(roomUuid: string, version: number): Promise<SharedJoinAnswer> {
    let room = this.rooms.get(roomUuid);
    if (!room) {
      room = { waiting: 0 };
      this.rooms.set(roomUuid, room);
    }
    room.waiting += 1;
    try {
      for (let round = 0; round < MAX_ROUNDS; round += 1) {
        if (room.latest && room.latest.version >= version) return room.latest;
        // Another joiner's fetch, in flight: it may well be at this version already.
        if (!room.fetching) room.fetching = this.fetch(roomUuid, room, version);
        await room.fetching;
      }
      throw new Error(`room ${roomUuid}: no join state at version ${version} after ${MAX_ROUNDS} fetches`);
    } finally {
      room.waiting -= 1;
      if (room.waiting === 0 && this.rooms.get(roomUuid) === room) this.rooms.delete(roomUuid);
    }
  }

  /** Rooms with joiners waiting (each holding at most one answer). */
  get roomCount(): number {
    return this.rooms.size;
  }

  private async fetch(roomUuid: string, room: RoomJoins, minVersion: number): Promise<SharedJoinAnswer> {
    try {
      const state = await this.gateway.joinState(roomUuid, minVersion);
      const answer = sharedJoinAnswer(roomUuid, state, this.now());
      if (!room.latest || answer.version > room.latest.version) room.latest = answer;
      return answer;
    } finally {
      room.fetching = undefined;
    }
  }
}
