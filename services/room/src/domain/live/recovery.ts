import type { LiveRoom } from './state.js';
import { nextDue } from './transitions.js';

/**
 * A room written back after Redis lost it (a flush, a restart without its
 * data), from the copy a room-service replica held: the room as it was, with
 * what Redis kept beside it rebuilt. Its members' connections were lost with
 * Redis and every client is told to rejoin, so each member leaves at
 * `leaveAt` (the grace period of a dropped connection) unless they come back,
 * as after any drop; the clock is due when the room says (a song that ended
 * meanwhile advances at once).
 */
export interface Restoration {
  due: number | null;
  leaveAt: number;
}

export function restoration(room: LiveRoom, input: { now: number; leaveGraceMs: number; afkGraceMs: number }): Restoration {
  return { due: nextDue(room, input.afkGraceMs), leaveAt: input.now + input.leaveGraceMs };
}
