import type { MinimalCrateSongJson } from '@spinroom/contracts/songs';

/**
 * What the room records need from the live rooms (Redis state, the DJ
 * rotation), as a port, so domain/rooms.ts stays free of Redis: app.ts
 * supplies it from LiveRooms.
 */
export interface LiveRoomPort {
  /** Users present in the live room, in join order, the song playing there (null while none plays) and the DJs in turn order. */
  presence(roomUuid: string): Promise<{ userUuids: string[]; song: MinimalCrateSongJson | null; djUuids: string[] }>;
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
  onKicked(kick: { roomUuid: string; userUuid: string; actorUuid: string; until: Date; reason?: 'kicked' | 'banned' }): Promise<void>;
  /**
   * Called after a room's settings or some users' roles changed (committed):
   * the live state follows. A deleted room's live state goes.
   */
  onChanged(change: { roomUuid: string; userUuids?: string[]; deleted?: boolean }): Promise<void>;
}
