import type { StageRules } from '../src/domain/live/state.js';

/** The live-room tests' stage: two DJ seats and a waitlist, no other limit. */
export const RULES: StageRules = {
  numberOfDjs: 2,
  songsPerDj: 0,
  roomSize: 0,
  maxSongLengthSeconds: 0,
  repeatWindowMinutes: 0,
  afkLimitMinutes: 0,
  waitlistEnabled: true,
};
