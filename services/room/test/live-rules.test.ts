import { describe, expect, it } from 'vitest';
import jsonpatch from 'fast-json-patch';
import { emptyLiveRoom, type LiveRoom, type Member, type MinimalCrateSong, type StageRules } from '../src/domain/live/state.js';
import * as live from '../src/domain/live/transitions.js';
import { diffClientState } from '../src/domain/live/patch.js';
import { RULES } from './stage-rules.js';

const user = (uuid: string, extra: Partial<Member> = {}): Member => ({
  uuid,
  tokenRole: 'user',
  highestRole: undefined,
  canDj: true,
  ...extra,
});
const song = (id: string, duration = 60): MinimalCrateSong => ({
  artistName: `Artist ${id}`,
  trackName: `Track ${id}`,
  genre: null,
  duration,
  isrc: null,
  musicProviders: { uploadService: id },
  playbackToken: null,
  thumbnails: {},
  crateSongUuid: `entry-${id}`,
});

function roomWith(rules: Partial<StageRules>, ...members: Member[]): LiveRoom {
  let room = emptyLiveRoom('room-1', { slug: 'r' }, { ...RULES, ...rules });
  for (const m of members) room = live.join(room, { member: m, profile: { uuid: m.uuid }, position: { x: 0, y: 0 } })!.room;
  return room;
}

/** Each transition's patch turns the old client state into the new one (what feed clients rely on). */
function applyAndCheck(before: LiveRoom, t: live.Transition): LiveRoom {
  const patch = diffClientState(before.client as never, t.room.client as never);
  const applied = jsonpatch.applyPatch(structuredClone(before.client), patch, true, false).newDocument;
  expect(applied).toEqual(t.room.client);
  // The state diffs the same in memory as after a JSON round trip (no `undefined` values).
  expect(JSON.parse(JSON.stringify(t.room.client))).toStrictEqual(t.room.client);
  return t.room;
}

describe('live room rules', () => {
  it('lists signed-in users apart from guests and keeps a second join a no-op', () => {
    const room = roomWith({}, user('a'), user('g', { tokenRole: 'guest', canDj: false }));
    expect(room.client.allUsers.map((u) => u.uuid)).toEqual(['a']);
    expect(room.client.audienceUsers.map((u) => u.uuid)).toEqual(['a', 'g']);
    expect(room.client.floorUsers.map((u) => u.uuid)).toEqual(['a']);
    expect(Object.keys(room.client.allUserData)).toEqual(['a', 'g']);
    expect(live.join(room, { member: user('a'), profile: {}, position: { x: 0, y: 0 } })).toBeNull();
  });

  it('caps the room at roomSize, except for moderators', () => {
    const room = roomWith({ roomSize: 1 }, user('a'));
    expect(() => live.join(room, { member: user('b'), profile: {}, position: { x: 0, y: 0 } })).toThrow(live.ROOM_FULL);
    expect(live.join(room, { member: user('m', { highestRole: 'moderator' }), profile: {}, position: { x: 0, y: 0 } })).not.toBeNull();
  });

  it('rotates two DJs through their queues on the server clock', () => {
    let room = roomWith({}, user('a'), user('b'), user('c'));
    room = applyAndCheck(room, live.addDj(room, 'a', song('a1'), false, 0));
    room = applyAndCheck(room, live.addDj(room, 'b', song('b1'), false, 0));
    expect(live.needsAdvance(room, 0)).toBe(true); // DJs on a silent stage: play at once
    const queues = { a: [song('a1'), song('a2')], b: [song('b1'), song('b2')] };

    let t = live.advance(room, { now: 1000, queues })!;
    room = applyAndCheck(room, t);
    expect(room.client.nowPlaying).toMatchObject({ song: { trackName: 'Track a1' }, startTime: 1000, endTime: 61_000 });
    expect(room.client.djs.map((d) => [d.uuid, d.nextSong?.trackName])).toEqual([
      ['a', 'Track a2'],
      ['b', 'Track b1'],
    ]);
    expect(live.advance(room, { now: 30_000, queues })).toBeNull(); // not over yet

    const ended = room.server.play!.playId;
    t = live.advance(room, { now: 61_000, queues })!;
    room = applyAndCheck(room, t);
    expect(room.client.nowPlaying?.song.trackName).toBe('Track b1');
    expect(room.client.djs.map((d) => d.uuid)).toEqual(['b', 'a']);
    expect(t.effects).toContainEqual({ type: 'requeue', playId: ended, djUuid: 'a', crateSongUuid: 'entry-a1' });
    expect(t.effects.find((e) => e.type === 'songPlayed')).toMatchObject({
      djUuid: 'a',
      song: { trackName: 'Track a1' },
      startTime: 1000,
      endTime: 61_000,
    });

    // a1 went to the end of a's queue: a plays a2 next.
    t = live.advance(room, { now: 121_000, queues: { a: [song('a2'), song('a1')], b: [song('b2'), song('b1')] } })!;
    room = applyAndCheck(room, t);
    expect(room.client.nowPlaying?.song.trackName).toBe('Track a2');
  });

  it('plays a single-song queue again, and a DJ with an empty queue leaves the stage', () => {
    let room = roomWith({}, user('a'), user('b'));
    room = live.addDj(room, 'a', song('a1'), false, 0).room;
    room = live.advance(room, { now: 0, queues: { a: [song('a1')] } })!.room;
    room = live.advance(room, { now: 60_000, queues: { a: [song('a1')] } })!.room;
    expect(room.client.nowPlaying?.song.trackName).toBe('Track a1');

    room = live.addDj(room, 'b', song('b1'), false, 0).room;
    const t = live.advance(room, { now: 120_000, queues: { a: [song('a1')], b: [] } })!;
    // b had nothing: off the stage; a plays again.
    expect(t.room.client.djs.map((d) => d.uuid)).toEqual(['a']);
    expect(t.room.client.nowPlaying?.song.trackName).toBe('Track a1');
    const silent = live.advance(t.room, { now: 180_000, queues: { a: [] } })!.room;
    expect(silent.client.djs).toEqual([]);
    expect(silent.client.nowPlaying).toBeNull();
  });

  it('caps plays at the room maximum and the deployment maximum', () => {
    let room = roomWith({ maxSongLengthSeconds: 30 }, user('a'));
    room = live.addDj(room, 'a', song('a1', 600), false, 0).room;
    expect(live.advance(room, { now: 0, queues: { a: [song('a1', 600)] } })!.room.client.nowPlaying?.endTime).toBe(30_000);
    expect(live.advance(room, { now: 0, queues: { a: [song('a1', 600)] }, maxPlayMs: 2000 })!.room.client.nowPlaying?.endTime).toBe(2000);
  });

  it("counts votes, one per user and changeable, without the DJ's own", () => {
    let room = roomWith({}, user('dj'), user('x'), user('y'));
    room = live.addDj(room, 'dj', song('s'), false, 0).room;
    room = live.advance(room, { now: 0, queues: { dj: [song('s')] } })!.room;
    room = applyAndCheck(room, live.voteOnSong(room, 'x', { like: true }, 1));
    room = applyAndCheck(room, live.voteOnSong(room, 'y', { like: false }, 1));
    room = applyAndCheck(room, live.voteOnSong(room, 'dj', { like: true }, 1));
    expect(room.client.voteCounts).toEqual({ likes: 1, dislikes: 1, stars: 0 });
    expect(room.client.vibeMeter).toBe(0.5);
    const star = live.voteOnSong(room, 'y', { like: true, star: true }, 2);
    room = applyAndCheck(room, star);
    expect(star.effects).toEqual([
      { type: 'snag', playId: room.server.play!.playId, userUuid: 'y', song: expect.objectContaining({ trackName: 'Track s' }) },
    ]);
    expect(room.client.voteCounts).toEqual({ likes: 2, dislikes: 0, stars: 1 });
    expect(room.client.vibeMeter).toBe(1);
    // The next song starts with no votes.
    const after = live.advance(room, { now: 60_000, queues: { dj: [song('s'), song('t')] } })!;
    expect(after.room.client.voteCounts).toEqual({ likes: 0, dislikes: 0, stars: 0 });
    expect(after.room.client.allUserData.x?.songVotes).toEqual({});
    expect(after.effects.find((e) => e.type === 'songPlayed')).toMatchObject({ voteCounts: { likes: 2, dislikes: 0, stars: 1 } });
  });

  it('announces who heard the song, since when, and when each up-voted it (for points)', () => {
    let room = roomWith({}, user('dj'), user('x'), user('y'), user('g', { tokenRole: 'guest', canDj: false }));
    room = live.addDj(room, 'dj', song('s'), false, 0).room;
    room = live.advance(room, { now: 1000, queues: { dj: [song('s')] } })!.room;
    room = live.join(room, { member: user('late'), profile: {}, position: { x: 0, y: 0 }, now: 20_000 })!.room;
    room = applyAndCheck(room, live.voteOnSong(room, 'x', { like: true }, 5000));
    room = applyAndCheck(room, live.voteOnSong(room, 'x', { like: true, star: true }, 9000)); // the like keeps its first time
    room = applyAndCheck(room, live.voteOnSong(room, 'y', { like: true }, 6000));
    room = applyAndCheck(room, live.voteOnSong(room, 'y', { like: false }, 7000)); // taken back
    room = applyAndCheck(room, live.voteOnSong(room, 'late', { like: true }, 55_000));
    room = applyAndCheck(room, live.voteOnSong(room, 'g', { like: true }, 40_000));
    room = applyAndCheck(room, live.voteOnSong(room, 'dj', { like: true }, 2000));
    const ended = live.advance(room, { now: 61_000, queues: { dj: [song('s'), song('t')] } })!;
    const played = ended.effects.find((e) => e.type === 'songPlayed');
    expect(played?.type === 'songPlayed' ? played.audience : []).toEqual([
      { userUuid: 'x', tokenRole: 'user', listeningSince: 1000, likedAt: 5000 },
      { userUuid: 'y', tokenRole: 'user', listeningSince: 1000 },
      { userUuid: 'g', tokenRole: 'guest', listeningSince: 1000, likedAt: 40_000 },
      { userUuid: 'late', tokenRole: 'user', listeningSince: 20_000, likedAt: 55_000 },
    ]);
    // The next song starts with nobody's like.
    expect(ended.room.server.likedAt).toEqual({});
  });

  it('refuses what the rules forbid, with the messages clients show', () => {
    const room = roomWith({ numberOfDjs: 1 }, user('a'), user('b'), user('n', { canDj: false }));
    expect(() => live.voteOnSong(room, 'a', { like: true }, 0)).toThrow(live.NOTHING_PLAYING);
    expect(() => live.checkSkip(room, 'a')).toThrow(live.NOTHING_PLAYING);
    expect(() => live.addDj(room, 'n', song('n1'), false, 0)).toThrow(live.CANNOT_DJ);
    expect(() => live.addDj(room, 'a', null, false, 0)).toThrow(live.EMPTY_QUEUE);
    expect(() => live.addDj(room, 'stranger', song('x'), false, 0)).toThrow(live.NOT_IN_ROOM);
    const staged = live.addDj(room, 'a', song('a1'), false, 0).room;
    expect(() => live.addDj(staged, 'a', song('a1'), false, 0)).toThrow(live.ALREADY_DJ);
    expect(() => live.addDj(staged, 'b', song('b1'), false, 0)).toThrow(live.STAGE_FULL);
    expect(() => live.removeDj(staged, 'b', 'a', 0)).toThrow(live.NOT_ALLOWED);
  });

  it('seats the waitlist in order when a seat frees up, and steps DJs down after songsPerDj', () => {
    let room = roomWith({ numberOfDjs: 1, songsPerDj: 2 }, user('a'), user('b'), user('c'), user('mod', { highestRole: 'moderator' }));
    room = live.addDj(room, 'a', song('a1'), false, 0).room;
    room = applyAndCheck(room, live.joinWaitlist(room, 'b'));
    room = applyAndCheck(room, live.joinWaitlist(room, 'c'));
    expect(() => live.moveInWaitlist(room, 'b', 'c', 0)).toThrow(live.NOT_ALLOWED);
    room = applyAndCheck(room, live.moveInWaitlist(room, 'mod', 'c', 0));
    expect(room.client.waitlist).toEqual(['c', 'b']);

    const queues = { a: [song('a1'), song('a2')], c: [song('c1')] };
    room = live.advance(room, { now: 0, queues })!.room;
    expect(room.client.songsRemainingForDj).toBe(2);
    room = live.advance(room, { now: 60_000, queues })!.room;
    expect(room.client.nowPlaying?.song.trackName).toBe('Track a2');
    expect(room.client.songsRemainingForDj).toBe(1);
    const t = live.advance(room, { now: 120_000, queues })!;
    room = applyAndCheck(room, t);
    // a played two songs: off the stage; c was first in line and plays.
    expect(room.client.djs.map((d) => d.uuid)).toEqual(['c']);
    expect(room.client.waitlist).toEqual(['b']);
    expect(room.client.nowPlaying?.song.trackName).toBe('Track c1');
    expect(t.effects).toContainEqual({ type: 'refreshNextSong', djUuid: 'c' });
  });

  it("honours 'leave the stage after my next song'", () => {
    let room = roomWith({}, user('a'), user('b'));
    room = live.addDj(room, 'a', song('a1'), false, 0).room;
    room = live.addDj(room, 'b', song('b1'), false, 0).room;
    const queues = { a: [song('a1'), song('a2')], b: [song('b1')] };
    room = live.advance(room, { now: 0, queues })!.room;
    room = live.leaveAfterSong(room, 'a', true, 1).room;
    room = live.advance(room, { now: 60_000, queues })!.room;
    expect(room.client.djs.map((d) => d.uuid)).toEqual(['b']);
  });

  it('stops the song when the playing DJ leaves, and the clock plays the next DJ', () => {
    let room = roomWith({}, user('a'), user('b'));
    room = live.addDj(room, 'a', song('a1'), false, 0).room;
    room = live.addDj(room, 'b', song('b1'), false, 0).room;
    room = live.advance(room, { now: 0, queues: { a: [song('a1')], b: [song('b1')] } })!.room;
    const t = live.leave(room, 'a', 5000)!;
    room = applyAndCheck(room, t);
    expect(room.client.nowPlaying).toBeNull();
    expect(t.effects.find((e) => e.type === 'songPlayed')).toMatchObject({ djUuid: 'a', endTime: 5000 });
    expect(t.effects.some((e) => e.type === 'requeue')).toBe(false);
    expect(live.nextDue(room, 0)).toBe(0);
    room = live.advance(room, { now: 5000, queues: { b: [song('b1')] } })!.room;
    expect(room.client.nowPlaying?.song.trackName).toBe('Track b1');
  });

  it('keeps a song from being replayed within the repeat window', () => {
    let room = roomWith({ repeatWindowMinutes: 10 }, user('a'));
    room = live.addDj(room, 'a', song('a1'), false, 0).room;
    const queues = { a: [song('a1'), song('a2')] };
    room = live.advance(room, { now: 0, queues })!.room;
    room = live.advance(room, { now: 60_000, queues: { a: [song('a2'), song('a1')] } })!.room;
    expect(room.client.nowPlaying?.song.trackName).toBe('Track a2');
    // Only a1 left that is not a2, and a1 played 2 minutes ago: a sits out (alone, the stage goes silent for this turn).
    room = live.advance(room, { now: 120_000, queues: { a: [song('a1')] } })!.room;
    expect(room.client.nowPlaying).toBeNull();
    expect(room.client.djs.map((d) => d.uuid)).toEqual(['a']);
    room = live.advance(room, { now: 11 * 60_000, queues: { a: [song('a1')] } })!.room;
    expect(room.client.nowPlaying?.song.trackName).toBe('Track a1');
  });

  it('warns an AFK DJ, then takes them off the stage', () => {
    let room = roomWith({ afkLimitMinutes: 1 }, user('a'));
    room = live.addDj(room, 'a', song('a1'), false, 0).room;
    expect(live.checkAfk(room, { now: 30_000, graceMs: 10_000 })).toBeNull();
    expect(live.nextDue(room, 10_000)).toBe(0); // silent stage with a DJ: the clock plays at once
    const warned = live.checkAfk(room, { now: 60_000, graceMs: 10_000 })!;
    expect(warned.stateless).toEqual([{ name: 'warnedAfkDj', params: { userUuid: 'a', removeAt: 70_000 } }]);
    room = warned.room;
    expect(live.checkAfk(room, { now: 65_000, graceMs: 10_000 })).toBeNull();
    const removed = live.checkAfk(room, { now: 70_000, graceMs: 10_000 })!;
    expect(removed.room.client.djs).toEqual([]);
    // Acting in time clears the warning.
    const touched = live.touch(room, 'a', 65_000)!;
    expect(live.checkAfk(touched, { now: 70_000, graceMs: 10_000 })).toBeNull();
  });
});

describe('the room records followed live', () => {
  it('takes a DJ who may no longer DJ off the stage, and shrinks the stage to its seats', () => {
    let room = roomWith({ numberOfDjs: 3 }, user('a'), user('b'), user('c'), user('w'));
    room = live.addDj(room, 'a', song('a1'), false, 0).room;
    room = live.addDj(room, 'b', song('b1'), false, 0).room;
    room = live.advance(room, { now: 0, queues: { a: [song('a1')], b: [song('b1')] } })!.room;
    room = live.joinWaitlist(room, 'w').room;
    expect(live.withMember(room, { uuid: 'b', highestRole: undefined, canDj: true }, 1)).toBeNull();
    const t = live.withMember(room, { uuid: 'b', highestRole: undefined, canDj: false }, 1)!;
    room = applyAndCheck(room, t);
    // b's seat went to the first in line.
    expect(room.client.djs.map((d) => d.uuid)).toEqual(['a', 'w']);
    expect(room.client.waitlist).toEqual([]);
    expect(room.client.allUsers.find((u) => u.uuid === 'b')?.canDj).toBe(false);
    room = live.addDj(room, 'c', song('c1'), false, 0).room;
    const shrunk = live.updateSettings(room, { slug: 'r', numberOfDjs: 1 }, { ...RULES, numberOfDjs: 1 }, 2);
    room = applyAndCheck(room, shrunk);
    // The playing DJ keeps the seat; the last to sit down leaves it.
    expect(room.client.djs.map((d) => d.uuid)).toEqual(['a']);
    expect(room.client.settings).toEqual({ slug: 'r', numberOfDjs: 1 });
  });
});

describe('the patch of a change', () => {
  it('removes one listener from the middle of a big room with a few operations', () => {
    const members = Array.from({ length: 2000 }, (_, i) => user(`u${i}`));
    let room = roomWith({}, ...members);
    const t = live.leave(room, 'u1000', 0)!;
    const patch = diffClientState(room.client as never, t.room.client as never);
    expect(patch.length).toBeLessThan(10);
    room = applyAndCheck(room, t);
    expect(room.client.allUsers).toHaveLength(1999);
  });

  it('patches any change of the lists correctly (rotations, moves, edits in place)', () => {
    const a = {
      djs: [
        { uuid: 'x', n: 1 },
        { uuid: 'y', n: 1 },
        { uuid: 'z', n: 1 },
      ],
      waitlist: ['p', 'q', 'r'],
      vibeMeter: 0.5,
      gone: 1,
    };
    const b = {
      djs: [
        { uuid: 'y', n: 2 },
        { uuid: 'z', n: 1 },
        { uuid: 'x', n: 1 },
      ],
      waitlist: ['q', 'p', 'r', 's'],
      vibeMeter: 1,
      fresh: { k: [1] },
    };
    const patched = jsonpatch.applyPatch(structuredClone(a), diffClientState(a, b), true, false).newDocument;
    expect(patched).toEqual(b);
    const edited = {
      ...a,
      djs: [
        { uuid: 'x', n: 1 },
        { uuid: 'y', n: 5 },
        { uuid: 'z', n: 1 },
      ],
    };
    expect(diffClientState(a, edited)).toEqual([{ op: 'replace', path: '/djs/1/n', value: 5 }]);
  });
});

describe('feed messages of a change', () => {
  it('sends a change that stops the song as its own message, then playedSong', async () => {
    const { splitSongChange } = await import('../src/live-rooms/live-store.js');
    let room = roomWith({}, user('a'), user('b'));
    room = live.addDj(room, 'a', song('a1'), false, 0).room;
    room = live.advance(room, { now: 0, queues: { a: [song('a1')] } })!.room;
    room = live.voteOnSong(room, 'b', { like: true }, 1).room;
    const t = live.removeDj(room, 'a', 'a', 2);
    const messages = splitSongChange(t.name, diffClientState(room.client as never, t.room.client as never));
    expect(messages.map((m) => m.name)).toEqual(['removedDj', 'playedSong']);
    let state = structuredClone(room.client);
    for (const m of messages) state = jsonpatch.applyPatch(state, m.statePatch, true, false).newDocument;
    expect(state).toEqual(t.room.client);
    expect(splitSongChange('votedOnSong', [])).toEqual([]);
  });
});
