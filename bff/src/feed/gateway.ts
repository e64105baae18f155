import type { Caller } from '@spinroom/platform/core';
import type { LiveAction } from './live-actions.js';

/** What the feed asks of the room service (kept apart so the feed never touches gRPC). */
export interface LiveRoomGateway {
  /** Lets the connection in; answers the version it joined at (the state comes from `joinState`, once for all joiners). */
  join(caller: Caller, input: { roomUuid: string; password?: string; connectionId: string }): Promise<JoinedRoom>;
  /** The state joiners are answered with, at the room's current version (at least `minVersion`). */
  joinState(roomUuid: string, minVersion: number): Promise<JoinState>;
  /** Runs a live action; answers the room version it produced (0 when it changed no state). */
  act(caller: Caller, roomUuid: string, action: LiveAction): Promise<{ version: number }>;
  /**
   * A connection closed: `left` when the person left on purpose (they leave the
   * room at once), else it dropped (the room service waits its grace period).
   */
  leave(roomUuid: string, connectionId: string, left: boolean): Promise<void>;
  /** The connections this BFF still holds, so the room service knows they are alive. */
  keepAlive(connections: Array<{ roomUuid: string; connectionId: string; userUuid: string }>): Promise<void>;
}

export interface JoinedRoom {
  roomUuid: string;
  version: number;
  /** The state itself, when the room service answered it with the join (one that predates `joinState`). */
  state?: JoinState;
}

export interface JoinState {
  /** The room version the state is at. */
  version: number;
  /** The room state as joinRoom answers it (`allUserData` empty), already serialized. */
  stateJson: string;
  /** `allUserData`, sent to each joining connection alone as `updatedUserData`. */
  allUserDataJson: string;
}
