/**
 * What the room service needs from the live engine (Redis room state, DJ
 * rotation), as a port: the engine supplies an implementation to
 * startRoomService({ live }). Until it does, NO_LIVE_ROOMS answers that nobody
 * is present and nothing has played: no invented data.
 */
export interface LiveRoomPort {
  /** Users present in the live room, in join order. */
  presentUserUuids(roomUuid: string): Promise<string[]>;
  /** Users present but not on the dance floor (the audience off the floor). */
  noDancefloorUserUuids(roomUuid: string): Promise<string[]>;
  /** The live room state as the feed knows it (`{}` when the room is not live). */
  roomState(roomUuid: string): Promise<Record<string, unknown>>;
  /** Seconds of music played in the room so far. */
  playedSeconds(roomUuid: string): Promise<number>;
  /**
   * Called after a kick was recorded (its transaction committed): the engine
   * removes the user from the live room. Errors are logged, not returned.
   */
  onKicked(kick: { roomUuid: string; userUuid: string; actorUuid: string; until: Date }): Promise<void>;
  /**
   * Called after a room's settings or some users' roles changed (committed):
   * the live state follows. A deleted room's live state goes.
   */
  onChanged(change: { roomUuid: string; userUuids?: string[]; deleted?: boolean }): Promise<void>;
}

/** The port's stand-in while the live engine is not wired: nobody present, nothing played, kicks do nothing more. */
export const NO_LIVE_ROOMS: LiveRoomPort = {
  presentUserUuids: async () => [],
  noDancefloorUserUuids: async () => [],
  roomState: async () => ({}),
  playedSeconds: async () => 0,
  onKicked: async () => undefined,
  onChanged: async () => undefined,
};
