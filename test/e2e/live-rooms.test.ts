import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '@spinroom/platform/testing';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, usePlatform } from '../support/platform.js';

type Json = any;
const ROOMS = '/api/room-service';
const QUEUE = '/api/playlist-service/crate/special/queue/songs';
/** Every play lasts this long here (the room service's LIVE_MAX_PLAY_MS): no sleeping on real song lengths. */
const PLAY_MS = 1500;

const song = (name: string) => ({
  musicProvider: 'spotify',
  songId: `live-${name}-${Math.random().toString(36).slice(2, 8)}`,
  trackName: name,
  artistName: `Artist ${Math.random().toString(36).slice(2, 8)}`,
  duration: 200,
});

describe('live rooms over the room feed, driven by the published ttfm-socket client', () => {
  const { call, platform } = usePlatform({ room: { LIVE_MAX_PLAY_MS: PLAY_MS }, bffReplicas: 2 });
  const open: FeedListener[] = [];
  afterEach(() => {
    for (const listener of open.splice(0)) listener.close();
  });

  const person = async (nickname?: string) => {
    const body = (await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery', ...(nickname ? { nickname } : {}) } })).body;
    return { token: body.accessToken as string, uuid: body.userUuid as string };
  };
  const queue = async (token: string, ...names: string[]) => {
    const added = await call('POST', QUEUE, { token, body: { songs: names.map(song), append: true } });
    expect(added.status).toBe(201);
  };
  const room = async (token: string, body: Record<string, unknown> = {}) => {
    const created = await call('POST', `${ROOMS}/rooms/infrastructure`, { token, body: { name: `Live ${Math.random().toString(36).slice(2, 8)}`, ...body } });
    expect(created.status).toBe(201);
    return created.body as { uuid: string; slug: string };
  };
  const join = async (who: { token: string; uuid: string }, roomUuid: string, options: { bff?: number; password?: string } = {}) => {
    const listener = await FeedListener.join(platform().bffUrls[options.bff ?? 0]!, who.token, who.uuid, roomUuid, options.password);
    open.push(listener);
    return listener;
  };
  const playing = (state: Json) => state.nowPlaying?.song?.trackName as string | undefined;

  it('rotates two DJs through their queues on the server clock, with votes, and every replica sees the same versions', async () => {
    const owner = await person('Owner');
    const alice = await person('Alice');
    const bob = await person('Bob');
    const { uuid } = await room(owner.token, { numberOfDjs: 2 });
    await queue(alice.token, 'A1', 'A2');
    await queue(bob.token, 'B1');

    const a = await join(alice, uuid);
    const b = await join(bob, uuid, { bff: 1 });
    const o = await join(owner, uuid, { bff: 1 });
    // The joiner's own profile arrives as updatedUserData; others' as userJoined patches.
    await a.until((s) => s.allUserData[bob.uuid]?.userProfile?.nickname === 'Bob' && s.allUserData[owner.uuid]);
    expect(a.state.allUserData[alice.uuid].userProfile).toMatchObject({ uuid: alice.uuid, nickname: 'Alice' });
    expect(a.state.allUsers.map((u: Json) => u.uuid)).toEqual([alice.uuid, bob.uuid, owner.uuid]);
    expect(a.state.allUsers.find((u: Json) => u.uuid === owner.uuid)).toMatchObject({ highestRole: 'owner', canDj: true, tokenRole: 'user' });

    await a.action('addDj');
    await b.action('addDj');
    await o.until((s) => playing(s) === 'A1', 'A1 playing');
    expect(o.state.djs.map((d: Json) => d.uuid)).toEqual([alice.uuid, bob.uuid]);
    expect(o.state.nowPlaying.endTime - o.state.nowPlaying.startTime).toBe(PLAY_MS);

    // Votes: one per user, changeable; the DJ's own does not count.
    await o.action('voteOnSong', { songVotes: { like: false } });
    await o.action('voteOnSong', { songVotes: { like: true } });
    await a.action('voteOnSong', { songVotes: { like: true } });
    await b.until((s) => s.voteCounts.likes === 1 && s.allUserData[alice.uuid].songVotes.like === true, 'votes');
    expect(b.state.voteCounts).toEqual({ likes: 1, dislikes: 0, stars: 0 });
    expect(b.state.vibeMeter).toBe(1);

    await o.until(() => o.plays.length >= 4, 'four plays');
    expect(o.plays.slice(0, 4)).toEqual(['A1', 'B1', 'A2', 'B1']);
    // Each played song went to the end of its DJ's queue: Alice's has both, A1 behind A2 once A2 is next.
    const aliceQueue = await call('GET', QUEUE, { token: alice.token });
    expect(aliceQueue.body.songs.map((s: Json) => s.trackName).sort()).toEqual(['A1', 'A2']);

    // Each replica delivered the same versions, in the same order, with no gaps.
    await eventually(async () => (a.version === o.version && b.version === o.version ? true : undefined));
    const tail = (l: FeedListener) => l.versions.filter((v) => v > o.versions[0]!);
    expect(tail(a)).toEqual(tail(o));
    expect(tail(b)).toEqual(tail(o));
    for (const listener of [a, b, o]) {
      listener.versions.forEach((v, i) => i > 0 && expect(v).toBe(listener.versions[i - 1]! + 1));
    }
  });
});
