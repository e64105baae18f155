import jsonpatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { admit, arrival, arrivalBatch, departures, release } from '../src/domain/live/members.js';
import { diffClientState } from '../src/domain/live/patch.js';
import { emptyLiveRoom, type LiveRoom, type Member } from '../src/domain/live/state.js';
import { clientStateJson } from '../src/domain/live/state-json.js';
import * as live from '../src/domain/live/transitions.js';
import { RULES } from './stage-rules.js';

const member = (uuid: string, extra: Partial<Member> = {}): Member => ({
  uuid,
  tokenRole: 'user',
  highestRole: undefined,
  canDj: true,
  ...extra,
});
const input = (m: Member, now: number) => ({
  member: m,
  profile: { uuid: m.uuid, nickname: `N ${m.uuid}` },
  position: { x: 0.5, y: 0.25 },
  now,
});

/** A deterministic pseudo-random sequence (the test reads the same every run). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('joins and leaves by the user alone (members.ts)', () => {
  it('make the same room and the same patch as the rules, one by one and in batches', () => {
    const next = random(7);
    let ruled: LiveRoom = emptyLiveRoom('room-1', { slug: 'r' }, RULES);
    // The quick path changes its room in place: it starts from a copy.
    const quick: LiveRoom = structuredClone(ruled);
    let clientSeen = structuredClone(quick.client);
    const present: string[] = [];
    let counter = 0;
    // A DJ and someone in line: they leave through the rules, the others by themselves.
    for (let step = 0; step < 300; step += 1) {
      const now = 1_000 + step;
      if (present.length < 3 || next() < 0.6) {
        const size = 1 + Math.floor(next() * 4);
        const batch = arrivalBatch(quick);
        const entries = [];
        for (let k = 0; k < size; k += 1) {
          counter += 1;
          const m = member(`u${counter}`, {
            tokenRole: next() < 0.3 ? 'guest' : 'user',
            highestRole: next() < 0.1 ? 'moderator' : undefined,
          });
          const entry = arrival(quick, input(m, now), batch)!;
          expect(entry).not.toBeNull();
          entries.push(entry);
          const t = live.join(ruled, input(m, now))!;
          expect(t.name).toBe('userJoined');
          ruled = t.room;
          present.push(m.uuid);
        }
        // The same user again in the batch waits for the rules.
        expect(arrival(quick, input(entries[0]!.member, now), batch)).toBeNull();
        for (const entry of entries) admit(quick, entry);
        clientSeen = jsonpatch.applyPatch(
          clientSeen,
          entries.flatMap((e) => e.patch),
          true,
          false,
        ).newDocument;
      } else {
        const size = 1 + Math.floor(next() * 3);
        const leaving = Array.from({ length: size }, () => present[Math.floor(next() * present.length)]!);
        const { quick: gone, ruled: others } = departures(quick, leaving);
        expect(others).toEqual([]);
        for (const d of gone) {
          release(quick, d);
          ruled = live.leave(ruled, d.userUuid, now)!.room;
          present.splice(present.indexOf(d.userUuid), 1);
        }
        clientSeen = jsonpatch.applyPatch(
          clientSeen,
          gone.flatMap((d) => d.patch),
          true,
          false,
        ).newDocument;
      }
      expect(plain(quick)).toEqual(plain(ruled));
      expect(plain(clientSeen)).toEqual(plain(ruled.client));
    }
    expect(present.length).toBeGreaterThan(20);
    // The patch of one join is the rules' own diff.
    const m = member('last');
    const entry = arrival(quick, input(m, 9_999))!;
    expect(entry.patch).toEqual(diffClientState(ruled.client as never, live.join(ruled, input(m, 9_999))!.room.client as never));
  });

  it('leave DJs, those in line and voters to the rules', () => {
    let room = emptyLiveRoom('room-1', { slug: 'r' }, { ...RULES, numberOfDjs: 1 });
    for (const uuid of ['dj', 'waiting', 'voter', 'quiet']) room = live.join(room, input(member(uuid), 1))!.room;
    const song = {
      artistName: 'A',
      trackName: 'T',
      genre: null,
      duration: 60,
      isrc: null,
      musicProviders: { uploadService: 's' },
      playbackToken: null,
      thumbnails: {},
    };
    room = live.addDj(room, 'dj', song, true, 2).room;
    room = live.advance(room, { now: 3, queues: {} })!.room;
    room = live.joinWaitlist(room, 'waiting').room;
    room = live.voteOnSong(room, 'voter', { like: true }, 4).room;
    const { quick, ruled } = departures(room, ['dj', 'waiting', 'voter', 'quiet', 'nobody']);
    expect(ruled).toEqual(['dj', 'waiting', 'voter']);
    expect(quick.map((d) => d.userUuid)).toEqual(['quiet']);
  });

  it('refuses a join past the room size, but not a moderator', () => {
    let room = emptyLiveRoom('room-1', { slug: 'r' }, { ...RULES, roomSize: 2 });
    const batch = arrivalBatch(room);
    for (const uuid of ['a', 'b']) admit(room, arrival(room, input(member(uuid), 1), batch)!);
    room = structuredClone(room);
    expect(() => arrival(room, input(member('c'), 1))).toThrow(live.ROOM_FULL);
    expect(arrival(room, input(member('m', { highestRole: 'moderator' }), 1))).not.toBeNull();
  });

  it('answers the state as JSON.stringify would, with allUserData apart', () => {
    let room = emptyLiveRoom('room-1', { slug: 'r' }, RULES);
    for (const uuid of ['a', 'b', 'c'])
      room = live.join(room, input(member(uuid, { tokenRole: uuid === 'b' ? 'guest' : 'user' }), 1))!.room;
    const { stateJson, allUserDataJson } = clientStateJson(room.client);
    expect(stateJson).toBe(JSON.stringify({ ...room.client, allUserData: {} }));
    expect(allUserDataJson).toBe(JSON.stringify(room.client.allUserData));
    // Again, from the pieces kept: the same text.
    expect(clientStateJson(room.client).stateJson).toBe(stateJson);
  });
});
