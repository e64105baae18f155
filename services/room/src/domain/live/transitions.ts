import { randomUUID } from 'node:crypto';
import {
  badRequest,
  ERROR_CODES,
  forbidden,
  isGlobalRole,
  ROOM_STAFF_ROLES,
  type StatefulFeedMessageName,
  type StatelessFeedMessage,
} from '@spinroom/platform';
import {
  EMPTY_VOTES,
  songKey,
  type ClientRoomUser,
  type LiveRoom,
  type Member,
  type MinimalCrateSong,
  type PlayListener,
  type SongVotes,
  type StageRules,
} from './state.js';

/** The room live rules: pure functions from a room, an input and the time to the next room. */

export const NOTHING_PLAYING = 'Nothing is playing right now.';
export const ROOM_FULL = 'This room is full. Try again when someone leaves.';
export const NOT_IN_ROOM = 'Join the room first.';
export const CANNOT_DJ = 'You are not allowed to DJ in this room.';
export const ALREADY_DJ = 'You are already on stage.';
export const STAGE_FULL = 'The stage is full. Join the waitlist to take the next free seat.';
export const STAGE_FULL_NO_WAITLIST = 'The stage is full.';
export const EMPTY_QUEUE = 'Your queue is empty. Add songs to your queue to DJ.';
export const NOT_A_DJ = 'You are not on stage.';
export const NOT_ALLOWED = 'You are not allowed to do that in this room.';
export const ALREADY_WAITING = 'You are already on the waitlist.';
export const NOT_WAITING = 'That user is not on the waitlist.';
export const WAITLIST_OFF = 'This room has no waitlist.';

/** Whether a member moderates the room: room staff and the global roles above them. */
export function isModerator(member: Pick<Member, 'tokenRole' | 'highestRole'>): boolean {
  return (
    isGlobalRole(member.tokenRole) ||
    (member.highestRole !== undefined && (ROOM_STAFF_ROLES as readonly string[]).includes(member.highestRole))
  );
}

/** A change the live service carries out after the new state is stored (once, by whoever stored it). */
export type Effect =
  | {
      type: 'songPlayed';
      roomUuid: string;
      playId: string;
      djUuid: string;
      song: MinimalCrateSong;
      startTime: number;
      endTime: number;
      voteCounts: { likes: number; dislikes: number; stars: number };
      listeners: number;
      /** Everyone else in the room when it ended, with their up-votes. */
      audience: PlayListener[];
    }
  | { type: 'requeue'; playId: string; djUuid: string; crateSongUuid: string }
  | { type: 'refreshNextSong'; djUuid: string }
  | { type: 'snag'; playId: string; userUuid: string; song: MinimalCrateSong }
  | {
      /** Who took and who left the stage in one stored change (`room.stage-changed`), announced once by its `changeId`. */
      type: 'stageChanged';
      /** Names this change for good (a room's revisions start again when it reopens): the event's id. */
      changeId: string;
      roomUuid: string;
      added: string[];
      removed: string[];
      /** The stage after the change. */
      djs: string[];
      numberOfDjs: number;
      /** When the change was stored (ms): the event's time. */
      at: number;
    };

/** A stateless feed message of a change (platform's feed map), to everyone or, with `to`, to one user's connections. */
export type StatelessMessage = StatelessFeedMessage & {
  /** Only this user's connections receive it. */
  to?: string;
};

export interface Transition {
  room: LiveRoom;
  /** The stateful message the patch travels in. */
  name: StatefulFeedMessageName;
  effects: Effect[];
  stateless: StatelessMessage[];
}

function next(room: LiveRoom, name: StatefulFeedMessageName, effects: Effect[] = [], stateless: StatelessMessage[] = []): Transition {
  derive(room);
  return { room, name, effects, stateless };
}

function clone(room: LiveRoom): LiveRoom {
  return structuredClone(room);
}

function member(room: LiveRoom, userUuid: string): Member {
  const found = room.server.members.find((m) => m.uuid === userUuid);
  if (!found) throw forbidden(NOT_IN_ROOM);
  return found;
}

function isDj(room: LiveRoom, userUuid: string): boolean {
  return room.client.djs.some((d) => d.uuid === userUuid);
}

// No key holds `undefined`: the state must diff the same in memory as after a JSON round trip.
const asUser = (m: Member): ClientRoomUser => ({
  uuid: m.uuid,
  tokenRole: m.tokenRole,
  ...(m.highestRole ? { highestRole: m.highestRole } : {}),
  canDj: m.canDj,
});

/** Recomputes the lists that follow from the members and the stage. */
export function derive(room: LiveRoom): void {
  const { client, server } = room;
  const byUuid = new Map(server.members.map((m) => [m.uuid, m]));
  client.djs = client.djs.filter((d) => byUuid.has(d.uuid)).map((d) => ({ ...asUser(byUuid.get(d.uuid)!), nextSong: d.nextSong }));
  client.visibleDjs = client.djs.map((d) => ({ ...d }));
  const onStage = new Set(client.djs.map((d) => d.uuid));
  client.allUsers = server.members.filter((m) => m.tokenRole !== 'guest').map(asUser);
  client.audienceUsers = server.members.filter((m) => !onStage.has(m.uuid)).map(asUser);
  client.floorUsers = client.audienceUsers.filter((u) => u.tokenRole !== 'guest');
  client.waitlist = client.waitlist.filter((uuid) => byUuid.has(uuid) && !onStage.has(uuid));
  const current = server.play?.djUuid;
  const played = current ? (server.songsPlayedByDj[current] ?? 0) : 0;
  client.songsRemainingForDj = room.rules.songsPerDj > 0 ? Math.max(0, room.rules.songsPerDj - played) : 0;
  countVotes(room);
}

function countVotes(room: LiveRoom): void {
  const dj = room.server.play?.djUuid;
  const counts = { ...EMPTY_VOTES };
  if (room.server.play) {
    for (const [uuid, data] of Object.entries(room.client.allUserData)) {
      if (uuid === dj) continue; // the DJ's own vote does not count for them
      if (data.songVotes.like === true) counts.likes += 1;
      if (data.songVotes.like === false) counts.dislikes += 1;
      if (data.songVotes.star === true) counts.stars += 1;
    }
  }
  room.client.voteCounts = counts;
  const cast = counts.likes + counts.dislikes;
  room.client.vibeMeter = cast === 0 ? 0.5 : Math.round((counts.likes / cast) * 1000) / 1000;
}

/**
 * The room with a member's role-derived fields as the room records say now
 * (roles expire; a DJ who may no longer DJ leaves the stage and the waitlist).
 */
export function withMember(current: LiveRoom, fresh: Pick<Member, 'uuid' | 'highestRole' | 'canDj'>, now: number): Transition | null {
  const present = current.server.members.find((m) => m.uuid === fresh.uuid);
  if (!present || (present.highestRole === fresh.highestRole && present.canDj === fresh.canDj)) return null;
  const room = clone(current);
  const m = room.server.members.find((x) => x.uuid === fresh.uuid)!;
  if (fresh.highestRole === undefined) delete m.highestRole;
  else m.highestRole = fresh.highestRole;
  m.canDj = fresh.canDj;
  const effects = m.canDj ? [] : stepOff(room, m.uuid, now);
  if (!m.canDj) room.client.waitlist = room.client.waitlist.filter((u) => u !== m.uuid);
  return next(room, 'updatedUserData', effects);
}

/** The room's settings changed in its records. */
export function updateSettings(current: LiveRoom, settings: Record<string, unknown>, rules: StageRules, now: number): Transition {
  const room = clone(current);
  room.client.settings = settings;
  room.rules = rules;
  // Fewer seats than DJs: the last to take a seat step down (the song playing stays).
  while (room.client.djs.length > rules.numberOfDjs) {
    const last = [...room.client.djs].reverse().find((d) => d.uuid !== room.server.play?.djUuid);
    if (!last) break;
    room.client.djs = room.client.djs.filter((d) => d !== last);
  }
  const effects = fillSeats(room, now);
  return next(room, 'updatedRoomSettings', effects);
}

/** A user enters (again: a second connection changes nothing). */
export function join(
  current: LiveRoom,
  input: { member: Member; profile: Record<string, unknown>; position: { x: number; y: number }; now?: number },
): Transition | null {
  const present = current.server.members.find((m) => m.uuid === input.member.uuid);
  if (present && present.highestRole === input.member.highestRole && present.canDj === input.member.canDj) return null;
  const room = clone(current);
  if (present) {
    Object.assign(room.server.members.find((m) => m.uuid === input.member.uuid)!, input.member);
    return next(room, 'updatedUserData');
  }
  if (room.rules.roomSize > 0 && room.server.members.length >= room.rules.roomSize && !isModerator(input.member))
    throw forbidden(ROOM_FULL, ERROR_CODES.roomFull);
  room.server.members.push({ ...input.member });
  if (input.now !== undefined) room.server.joinedAt = { ...room.server.joinedAt, [input.member.uuid]: input.now };
  room.client.allUserData[input.member.uuid] = { userProfile: input.profile, position: input.position, songVotes: {} };
  return next(room, 'userJoined');
}

/** A user is gone (their last connection closed and the grace period passed, or they were kicked). */
export function leave(current: LiveRoom, userUuid: string, now: number): Transition | null {
  if (!current.server.members.some((m) => m.uuid === userUuid)) return null;
  const room = clone(current);
  const effects = stepOff(room, userUuid, now);
  room.server.members = room.server.members.filter((m) => m.uuid !== userUuid);
  delete room.client.allUserData[userUuid];
  if (room.server.joinedAt) delete room.server.joinedAt[userUuid];
  return next(room, 'userLeft', effects);
}

/** Takes a DJ off the stage; a playing DJ's song stops (the clock plays the next one). */
function stepOff(room: LiveRoom, djUuid: string, now: number): Effect[] {
  const effects: Effect[] = [];
  if (!isDj(room, djUuid)) return effects;
  room.client.djs = room.client.djs.filter((d) => d.uuid !== djUuid);
  delete room.server.songsPlayedByDj[djUuid];
  delete room.server.lastActivity[djUuid];
  delete room.server.afkWarned[djUuid];
  room.server.leaveAfterSong = room.server.leaveAfterSong.filter((u) => u !== djUuid);
  room.server.pinnedNextSong = room.server.pinnedNextSong.filter((u) => u !== djUuid);
  if (room.server.play?.djUuid === djUuid) {
    effects.push(...finishPlay(room, now, { requeue: false }));
  }
  effects.push(...fillSeats(room, now));
  return effects;
}

/** The first in line take freed seats. */
function fillSeats(room: LiveRoom, now: number): Effect[] {
  const effects: Effect[] = [];
  while (room.client.djs.length < room.rules.numberOfDjs && room.client.waitlist.length > 0) {
    const uuid = room.client.waitlist.shift()!;
    const m = room.server.members.find((x) => x.uuid === uuid);
    if (!m?.canDj) continue;
    room.client.djs.push({ ...asUser(m), nextSong: null });
    room.server.lastActivity[uuid] = now;
    effects.push({ type: 'refreshNextSong', djUuid: uuid });
  }
  return effects;
}

/**
 * Everyone but the DJ in the room, when they started hearing the song (the
 * later of its start and their joining; its start when the join time is not
 * known) and when they up-voted it if they still like it.
 */
function audienceOf(room: LiveRoom, djUuid: string, startTime: number): PlayListener[] {
  return room.server.members
    .filter((m) => m.uuid !== djUuid)
    .map((m) => {
      const likedAt = room.client.allUserData[m.uuid]?.songVotes.like === true ? room.server.likedAt?.[m.uuid] : undefined;
      return {
        userUuid: m.uuid,
        tokenRole: m.tokenRole,
        listeningSince: Math.max(startTime, room.server.joinedAt?.[m.uuid] ?? startTime),
        ...(likedAt === undefined ? {} : { likedAt }),
      };
    });
}

/** Ends what is playing: announces the play, and clears the song and the votes. */
function finishPlay(room: LiveRoom, now: number, options: { requeue: boolean }): Effect[] {
  const play = room.server.play;
  const playing = room.client.nowPlaying;
  if (!play || !playing) return [];
  countVotes(room);
  const effects: Effect[] = [
    {
      type: 'songPlayed',
      roomUuid: room.roomUuid,
      playId: play.playId,
      djUuid: play.djUuid,
      song: playing.song,
      startTime: playing.startTime,
      endTime: Math.min(now, playing.endTime),
      voteCounts: { ...room.client.voteCounts },
      listeners: room.server.members.length,
      audience: audienceOf(room, play.djUuid, playing.startTime),
    },
  ];
  if (options.requeue && play.crateSongUuid)
    effects.push({ type: 'requeue', playId: play.playId, djUuid: play.djUuid, crateSongUuid: play.crateSongUuid });
  room.server.recentPlays.push({ songKey: play.songKey, playedAt: playing.startTime });
  room.server.recentPlays = room.server.recentPlays.slice(-200);
  room.server.play = null;
  room.client.nowPlaying = null;
  room.server.likedAt = {};
  for (const data of Object.values(room.client.allUserData)) {
    if (data.songVotes.like !== undefined || data.songVotes.star !== undefined) data.songVotes = {};
  }
  return effects;
}

export function addDj(current: LiveRoom, userUuid: string, nextSong: MinimalCrateSong | null, pinned: boolean, now: number): Transition {
  const room = clone(current);
  const m = member(room, userUuid);
  if (!m.canDj) throw forbidden(CANNOT_DJ);
  if (isDj(room, userUuid)) throw badRequest(ALREADY_DJ);
  if (room.client.djs.length >= room.rules.numberOfDjs) throw forbidden(room.rules.waitlistEnabled ? STAGE_FULL : STAGE_FULL_NO_WAITLIST);
  if (!nextSong) throw badRequest(EMPTY_QUEUE);
  room.client.waitlist = room.client.waitlist.filter((u) => u !== userUuid);
  room.client.djs.push({ ...asUser(m), nextSong });
  if (pinned) room.server.pinnedNextSong.push(userUuid);
  room.server.lastActivity[userUuid] = now;
  return next(room, 'addedDj');
}

export function removeDj(current: LiveRoom, actorUuid: string, djUuid: string, now: number): Transition {
  const room = clone(current);
  const actor = member(room, actorUuid);
  if (djUuid !== actorUuid && !isModerator(actor)) throw forbidden(NOT_ALLOWED);
  if (!isDj(room, djUuid)) throw badRequest(djUuid === actorUuid ? NOT_A_DJ : 'That user is not on stage.');
  return next(room, 'removedDj', stepOff(room, djUuid, now));
}

export function updateNextSong(current: LiveRoom, userUuid: string, song: MinimalCrateSong, pinned: boolean, now: number): Transition {
  const room = clone(current);
  const dj = room.client.djs.find((d) => d.uuid === userUuid);
  if (!dj) throw badRequest(NOT_A_DJ);
  dj.nextSong = song;
  room.server.pinnedNextSong = room.server.pinnedNextSong.filter((u) => u !== userUuid);
  if (pinned) room.server.pinnedNextSong.push(userUuid);
  room.server.lastActivity[userUuid] = now;
  delete room.server.afkWarned[userUuid];
  return next(room, 'updatedNextSong');
}

/** Checks a skip is allowed: the playing DJ, or a moderator. The clock then plays the next song. */
export function checkSkip(room: LiveRoom, actorUuid: string): void {
  const actor = member(room, actorUuid);
  if (!room.server.play) throw badRequest(NOTHING_PLAYING);
  if (room.server.play.djUuid !== actorUuid && !isModerator(actor)) throw forbidden(NOT_ALLOWED);
}

export function voteOnSong(current: LiveRoom, userUuid: string, votes: SongVotes, now: number): Transition {
  const room = clone(current);
  member(room, userUuid);
  const playing = room.client.nowPlaying;
  if (!playing || !room.server.play) throw badRequest(NOTHING_PLAYING);
  const data = room.client.allUserData[userUuid]!;
  const before = data.songVotes;
  const after: SongVotes = { ...before };
  if (votes.like !== undefined) after.like = votes.like;
  if (votes.star !== undefined) after.star = votes.star;
  data.songVotes = after;
  // When the like was cast (a like sent again keeps its first time; taking it back forgets it).
  if (after.like === true && before.like !== true) room.server.likedAt = { ...room.server.likedAt, [userUuid]: now };
  if (after.like !== true && room.server.likedAt) delete room.server.likedAt[userUuid];
  if (isDj(room, userUuid)) {
    room.server.lastActivity[userUuid] = now;
    delete room.server.afkWarned[userUuid];
  }
  const effects: Effect[] =
    after.star === true && before.star !== true ? [{ type: 'snag', playId: room.server.play.playId, userUuid, song: playing.song }] : [];
  return next(room, 'votedOnSong', effects);
}

export function joinWaitlist(current: LiveRoom, userUuid: string): Transition {
  const room = clone(current);
  const m = member(room, userUuid);
  if (!room.rules.waitlistEnabled) throw badRequest(WAITLIST_OFF);
  if (!m.canDj) throw forbidden(CANNOT_DJ);
  if (isDj(room, userUuid)) throw badRequest(ALREADY_DJ);
  if (room.client.waitlist.includes(userUuid)) throw badRequest(ALREADY_WAITING);
  room.client.waitlist.push(userUuid);
  return next(room, 'updatedWaitlist');
}

export function leaveWaitlist(current: LiveRoom, actorUuid: string, userUuid: string): Transition {
  const room = clone(current);
  const actor = member(room, actorUuid);
  if (userUuid !== actorUuid && !isModerator(actor)) throw forbidden(NOT_ALLOWED);
  if (!room.client.waitlist.includes(userUuid)) throw badRequest(NOT_WAITING);
  room.client.waitlist = room.client.waitlist.filter((u) => u !== userUuid);
  return next(room, 'updatedWaitlist');
}

export function moveInWaitlist(current: LiveRoom, actorUuid: string, userUuid: string, position: number): Transition {
  const room = clone(current);
  if (!isModerator(member(room, actorUuid))) throw forbidden(NOT_ALLOWED);
  const from = room.client.waitlist.indexOf(userUuid);
  if (from < 0) throw badRequest(NOT_WAITING);
  if (!Number.isInteger(position) || position < 0) throw badRequest('position must be a whole number from 0');
  room.client.waitlist.splice(from, 1);
  room.client.waitlist.splice(Math.min(position, room.client.waitlist.length), 0, userUuid);
  return next(room, 'updatedWaitlist');
}

/** 'Leave the stage after my next song': the DJ steps down once their current (or next) song ends. */
export function leaveAfterSong(current: LiveRoom, userUuid: string, enabled: boolean, now: number): Transition {
  const room = clone(current);
  if (!isDj(room, userUuid)) throw badRequest(NOT_A_DJ);
  room.server.leaveAfterSong = room.server.leaveAfterSong.filter((u) => u !== userUuid);
  if (enabled) room.server.leaveAfterSong.push(userUuid);
  room.server.lastActivity[userUuid] = now;
  return { room, name: 'updatedLeaveAfterSong', effects: [], stateless: [] };
}

/** Whether the clock has work: a song ended, or DJs wait on a silent stage. */
export function needsAdvance(room: LiveRoom, now: number): boolean {
  const playing = room.client.nowPlaying;
  return playing ? playing.endTime <= now : room.client.djs.length > 0;
}

/**
 * The DJs in the order they would play next, if the current song ended now,
 * and whether each needs songs from their queue (not a song chosen by hand).
 */
export function upcomingDjs(room: LiveRoom): Array<{ djUuid: string; fromQueue: boolean }> {
  const order = room.client.djs.map((d) => d.uuid);
  const current = room.server.play?.djUuid;
  if (current && order[0] === current) order.push(order.shift()!);
  return order.map((djUuid) => ({ djUuid, fromQueue: !room.server.pinnedNextSong.includes(djUuid) }));
}

export interface AdvanceOptions {
  now: number;
  /** Each upcoming DJ's queue, first songs first (fetched for those `upcomingDjs` says need it). */
  queues: Record<string, MinimalCrateSong[]>;
  /** Longest a play lasts (ms), whatever the song's length: the deployment's cap (tests use short songs). */
  maxPlayMs?: number;
  /** Ends the current song even before its end time (a skip). */
  force?: boolean;
  playId?: string;
}

/**
 * The song clock: ends the current song (when due or forced), rotates the
 * finished DJ to the end of the stage (or off it: songsPerDj reached, or they
 * asked to leave), and the next DJ with a playable song plays it. A DJ with
 * nothing playable leaves the stage. A stage without DJs is silent.
 */
export function advance(current: LiveRoom, options: AdvanceOptions): Transition | null {
  const { now } = options;
  if (!options.force && !needsAdvance(current, now)) return null;
  const room = clone(current);
  const effects: Effect[] = [];
  const finished = room.server.play?.djUuid;
  const justPlayed = room.server.play?.crateSongUuid;
  if (room.server.play) effects.push(...finishPlay(room, now, { requeue: true }));
  if (finished && isDj(room, finished)) {
    const played = (room.server.songsPlayedByDj[finished] ?? 0) + 1;
    room.server.songsPlayedByDj[finished] = played;
    const done = room.server.leaveAfterSong.includes(finished) || (room.rules.songsPerDj > 0 && played >= room.rules.songsPerDj);
    const dj = room.client.djs.find((d) => d.uuid === finished)!;
    if (room.server.pinnedNextSong.includes(finished)) {
      room.server.pinnedNextSong = room.server.pinnedNextSong.filter((u) => u !== finished);
    }
    dj.nextSong = null;
    if (done) {
      effects.push(...stepOff(room, finished, now));
    } else {
      room.client.djs = [...room.client.djs.filter((d) => d.uuid !== finished), dj];
      effects.push({ type: 'refreshNextSong', djUuid: finished });
    }
  }
  const windowMs = room.rules.repeatWindowMinutes * 60_000;
  const playedRecently = new Set(room.server.recentPlays.filter((p) => windowMs > 0 && p.playedAt > now - windowMs).map((p) => p.songKey));
  // Try each DJ once, from the front of the stage.
  for (let tries = room.client.djs.length; tries > 0 && room.client.djs.length > 0; tries -= 1) {
    const dj = room.client.djs[0]!;
    const pinned = room.server.pinnedNextSong.includes(dj.uuid);
    const queue = options.queues[dj.uuid];
    // A DJ seated by this very change (from the waitlist): their queue is read on the clock's next beat.
    if (!(pinned && dj.nextSong) && queue === undefined) break;
    const candidates = pinned && dj.nextSong ? [dj.nextSong] : afterRequeue(queue ?? [], dj.uuid === finished ? justPlayed : undefined);
    const playable = candidates.filter((s) => !playedRecently.has(songKey(s)));
    const song = playable[0];
    if (!song) {
      if (candidates.length > 0) {
        // Everything this DJ has was played too recently here: they sit this turn out.
        room.client.djs.push(room.client.djs.shift()!);
        continue;
      }
      effects.push(...stepOff(room, dj.uuid, now));
      continue;
    }
    const capsMs = [
      song.duration * 1000,
      options.maxPlayMs ?? Infinity,
      room.rules.maxSongLengthSeconds > 0 ? room.rules.maxSongLengthSeconds * 1000 : Infinity,
    ];
    const lengthMs = Math.max(1000, Math.min(...capsMs));
    room.client.nowPlaying = { song, startTime: now, endTime: now + lengthMs };
    room.server.play = {
      playId: options.playId ?? randomUUID(),
      djUuid: dj.uuid,
      songKey: songKey(song),
      ...(song.crateSongUuid && !pinned ? { crateSongUuid: song.crateSongUuid } : {}),
    };
    room.server.pinnedNextSong = room.server.pinnedNextSong.filter((u) => u !== dj.uuid);
    // What they play next: the song after this one in their queue (refreshed once it is requeued).
    dj.nextSong = pinned ? null : (playable.find((s) => s !== song && s.crateSongUuid !== song.crateSongUuid) ?? null);
    break;
  }
  return next(room, 'playedSong', effects);
}

/** The queue as it is once the song just played has moved to its end (the move itself happens after). */
function afterRequeue(queue: MinimalCrateSong[], playedEntry: string | undefined): MinimalCrateSong[] {
  if (!playedEntry) return queue;
  const played = queue.filter((s) => s.crateSongUuid === playedEntry);
  return [...queue.filter((s) => s.crateSongUuid !== playedEntry), ...played];
}

/** Fills in a DJ's next song from their queue (after a rotation), unless they chose one by hand. */
export function refreshNextSong(current: LiveRoom, djUuid: string, queue: MinimalCrateSong[]): Transition | null {
  const dj = current.client.djs.find((d) => d.uuid === djUuid);
  if (!dj || current.server.pinnedNextSong.includes(djUuid)) return null;
  const playingEntry = current.server.play?.djUuid === djUuid ? current.server.play.crateSongUuid : undefined;
  const song = queue.find((s) => !playingEntry || s.crateSongUuid !== playingEntry) ?? null;
  if (JSON.stringify(song) === JSON.stringify(dj.nextSong)) return null;
  const room = clone(current);
  room.client.djs.find((d) => d.uuid === djUuid)!.nextSong = song;
  return next(room, 'updatedNextSong');
}

export interface AfkOptions {
  now: number;
  /** How long a warned DJ has to act before leaving the stage (ms). */
  graceMs: number;
}

/** AFK DJs: warned after `afkLimitMinutes` without any action, taken off the stage after the grace period. */
export function checkAfk(current: LiveRoom, options: AfkOptions): Transition | null {
  const limitMs = current.rules.afkLimitMinutes * 60_000;
  if (limitMs <= 0 || current.client.djs.length === 0) return null;
  const room = clone(current);
  const effects: Effect[] = [];
  const stateless: StatelessMessage[] = [];
  let removed = false;
  for (const dj of current.client.djs) {
    const last = room.server.lastActivity[dj.uuid] ?? options.now;
    room.server.lastActivity[dj.uuid] = last;
    if (options.now - last < limitMs) continue;
    const warnedAt = room.server.afkWarned[dj.uuid];
    if (warnedAt === undefined) {
      room.server.afkWarned[dj.uuid] = options.now;
      stateless.push({ name: 'warnedAfkDj', params: { userUuid: dj.uuid, removeAt: options.now + options.graceMs } });
    } else if (options.now - warnedAt >= options.graceMs) {
      effects.push(...stepOff(room, dj.uuid, options.now));
      removed = true;
    }
  }
  if (!removed && stateless.length === 0) return null;
  const transition = next(room, removed ? 'removedDj' : 'warnedAfkDj', effects, stateless);
  return transition;
}

/** When the room next needs the clock (ms), or null. */
export function nextDue(room: LiveRoom, afkGraceMs: number): number | null {
  const times: number[] = [];
  if (room.client.nowPlaying) times.push(room.client.nowPlaying.endTime);
  else if (room.client.djs.length > 0) times.push(0);
  const limitMs = room.rules.afkLimitMinutes * 60_000;
  if (limitMs > 0) {
    for (const dj of room.client.djs) {
      const warnedAt = room.server.afkWarned[dj.uuid];
      times.push(warnedAt !== undefined ? warnedAt + afkGraceMs : (room.server.lastActivity[dj.uuid] ?? 0) + limitMs);
    }
  }
  return times.length > 0 ? Math.min(...times) : null;
}

/** Marks a DJ's action (keeps them from being AFK). Internal only: no message. */
export function touch(current: LiveRoom, userUuid: string, now: number): LiveRoom | null {
  if (!isDj(current, userUuid)) return null;
  const room = clone(current);
  room.server.lastActivity[userUuid] = now;
  delete room.server.afkWarned[userUuid];
  return room;
}
