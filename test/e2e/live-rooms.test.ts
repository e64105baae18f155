import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '@spinroom/platform/testing';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';

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

// Two room-service replicas run their clocks against the same rooms: each song change must happen once.
describe('live rooms over the room feed, driven by the published ttfm-socket client', () => {
  const { call, platform } = usePlatform({ room: { LIVE_MAX_PLAY_MS: PLAY_MS }, bffReplicas: 2, extraRoomReplicas: 1 });
  const open: FeedListener[] = [];
  afterEach(() => {
    for (const listener of open.splice(0)) listener.close();
  });

  const person = async (nickname?: string) => {
    const body = (
      await call('POST', '/api/user-service/users/sign-up', {
        body: { email: freshEmail(), password: 'correct horse battery', ...(nickname ? { nickname } : {}) },
      })
    ).body;
    return { token: body.accessToken as string, uuid: body.userUuid as string };
  };
  const queue = async (token: string, ...names: string[]) => {
    const added = await call('POST', QUEUE, { token, body: { songs: names.map(song), append: true } });
    expect(added.status).toBe(201);
  };
  const room = async (token: string, body: Record<string, unknown> = {}) => {
    const created = await call('POST', `${ROOMS}/rooms/infrastructure`, {
      token,
      body: { name: `Live ${Math.random().toString(36).slice(2, 8)}`, ...body },
    });
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
    const { uuid, slug } = await room(owner.token, { numberOfDjs: 2 });
    await queue(alice.token, 'A1', 'A2');
    await queue(bob.token, 'B1');

    const a = await join(alice, uuid);
    const b = await join(bob, uuid, { bff: 1 });
    const o = await join(owner, uuid, { bff: 1 });
    // The joiner's own profile arrives as updatedUserData; others' as userJoined patches.
    await a.until((s) => s.allUserData[bob.uuid]?.userProfile?.nickname === 'Bob' && s.allUserData[owner.uuid]);
    expect(a.state.allUserData[alice.uuid].userProfile).toMatchObject({ uuid: alice.uuid, nickname: 'Alice' });
    expect(a.state.allUsers.map((u: Json) => u.uuid)).toEqual([alice.uuid, bob.uuid, owner.uuid]);
    expect(a.state.allUsers.find((u: Json) => u.uuid === owner.uuid)).toMatchObject({
      highestRole: 'owner',
      canDj: true,
      tokenRole: 'user',
    });

    await a.action('addDj');
    await b.action('addDj');
    // Bob's addedDj may reach the owner's replica just after A1 starts: wait for both.
    await o.until((s) => playing(s) === 'A1' && s.djs.length === 2, 'A1 playing with both DJs on stage');
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

    // Each play is recorded: recent songs (through room-events), played time, and the live state over REST.
    const recent = await eventually(async () => {
      const answer = await call('GET', `/api/playlist-service/rooms/${slug}/recent-songs`, { token: bob.token });
      return answer.body.songPlays?.length >= 3 ? answer.body : undefined;
    });
    const firstPlay = recent.songPlays.at(-1);
    expect(firstPlay).toMatchObject({ djUuid: alice.uuid, voteCounts: { likes: 1, dislikes: 0, stars: 0 }, song: { trackName: 'A1' } });
    expect(recent.songPlays.slice(-3).map((p: Json) => p.song.trackName)).toEqual(['A2', 'B1', 'A1']);
    expect((await call('GET', `${ROOMS}/rooms/room-played-time/${slug}`, { token: bob.token })).body.playedSeconds).toBeGreaterThanOrEqual(
      3,
    );
    const live = await call('GET', `${ROOMS}/rooms/room-state/${slug}`, { token: bob.token });
    expect(live.body.djs.map((d: Json) => d.uuid).sort()).toEqual([alice.uuid, bob.uuid].sort());
    expect((await call('GET', `${ROOMS}/rooms/${slug}`, { token: bob.token })).body.usersInRoomUuids.sort()).toEqual(
      [alice.uuid, bob.uuid, owner.uuid].sort(),
    );
    expect(
      (
        await call('POST', `/api/playlist-service/rooms/${slug}/recent-songs`, {
          token: bob.token,
          body: { playId: firstPlay.playId, djUuid: bob.uuid, song: firstPlay.song },
        })
      ).status,
    ).toBe(403);
    // Operators see the service's figures; others do not. Seconds played are the audit service's count of the
    // listeners' play-tracking records: Bob reports listening to the first play for 3 s.
    const admin = await signedToken('admin', randomUUID());
    const listened = { event: 'totalPlayed', playId: firstPlay.playId, userUuid: bob.uuid, roomSlug: slug, djUuid: alice.uuid };
    const record = {
      ...listened,
      songInfo: { songId: 'A1' },
      startedDate: Date.now() - 3000,
      updatedDate: Date.now(),
      device: { platform: 'web' },
    };
    expect((await call('POST', '/api/audit-service/kinesis', { token: bob.token, body: { topic: 'play-tracking', record } })).status).toBe(
      201,
    );
    await eventually(async () => {
      const { body } = await call('GET', `${ROOMS}/info-admin/played-seconds`, { token: admin });
      return body.playedSeconds >= 3 ? true : undefined;
    });
    expect((await call('GET', `${ROOMS}/info-admin/room-service-status`, { token: admin })).body).toMatchObject({
      status: 'ok',
      version: '1.4.2',
      liveRooms: expect.any(Number),
    });
    expect((await call('GET', `${ROOMS}/info-admin/room-service-status`, { token: bob.token })).status).toBe(403);
    expect(
      (await call('GET', `${ROOMS}/rooms/rockset/recently-visited-rooms`, { token: bob.token })).body.map((r: Json) => r.uuid),
    ).toContain(uuid);

    // Each replica delivered the same versions, in the same order, with no gaps.
    await eventually(async () => (a.version === o.version && b.version === o.version ? true : undefined));
    const tail = (l: FeedListener) => l.versions.filter((v) => v > o.versions[0]!);
    expect(tail(a)).toEqual(tail(o));
    expect(tail(b)).toEqual(tail(o));
    for (const listener of [a, b, o]) {
      expect(listener.versions).toEqual(listener.versions.map((_, i) => listener.versions[0]! + i));
    }
  });

  it("puts each stateful message's version inside the message, where the published client's listeners see it", async () => {
    const owner = await person();
    const dj = await person();
    const { uuid } = await room(owner.token);
    await queue(dj.token, 'V1', 'V2');
    const d = await join(dj, uuid);
    const o = await join(owner, uuid, { bff: 1 });
    const joinedAt = o.version;
    await d.action('addDj');
    await o.until((s) => playing(s) === 'V1', 'V1 playing');
    await o.action('voteOnSong', { songVotes: { like: true } });
    await o.until(() => o.plays.includes('V2'), 'V2 playing');
    await d.action('removeDj');
    await o.until((s) => s.nowPlaying === null && s.djs.length === 0, 'silence');
    await d.until((s) => s.nowPlaying === null && s.djs.length === 0, 'silence');

    for (const listener of [d, o]) {
      // ttfm-socket's statefulMessage listeners get only the envelope's message: the version is there.
      const versions = listener.stateful.map((m: Json) => m.version);
      expect(versions.every((v) => Number.isSafeInteger(v))).toBe(true);
      expect(versions).toEqual(versions.map((_, i) => versions[0]! + i));
      expect(versions.at(-1)).toBe(listener.version);
      // The joiner's own updatedUserData first, at the version of the state the join answered.
      expect(listener.stateful[0].name).toBe('updatedUserData');
      // Inside and on the envelope alike.
      const envelopes = listener.messages.filter((m: Json) => m.message.statePatch);
      expect(envelopes.every((m: Json) => m.message.version === m.version)).toBe(true);
    }
    expect(o.stateful[0].version).toBe(joinedAt);
    expect(d.stateful.map((m: Json) => m.name)).toEqual(
      expect.arrayContaining(['updatedUserData', 'userJoined', 'addedDj', 'playedSong', 'votedOnSong', 'removedDj']),
    );
    // Stateless messages carry none.
    await o.action('playOneTimeAnimation', { animation: 'jump' });
    await eventually(async () => (d.named('playedOneTimeAnimation').length > 0 ? true : undefined));
    expect(d.named('playedOneTimeAnimation')[0].message.version).toBeUndefined();
  });

  it('answers the song playing and the DJs in the REST views of the room while it plays, and none once the stage is empty', async () => {
    const owner = await person();
    const dj = await person();
    const stranger = await person();
    const { uuid, slug } = await room(owner.token, { type: 'PRIVATE', password: 'sing along' });
    await queue(dj.token, 'R1');
    const views = async (token: string) =>
      Promise.all([call('GET', `${ROOMS}/rooms/uuid/${uuid}`, { token }), call('GET', `${ROOMS}/rooms/${slug}`, { token })]);
    for (const answer of await views(owner.token))
      expect(answer).toMatchObject({ status: 200, body: { uuid, song: null, djUuids: [], numberOfActiveDjs: 0 } });

    const d = await join(dj, uuid, { password: 'sing along' });
    await d.action('addDj');
    const live = await d.until((s) => playing(s) === 'R1', 'R1 playing');
    const { song } = live.nowPlaying;
    expect(song.crateSongUuid).toEqual(expect.any(String));
    // The live state's song as the feed carries it, but for the optional maps an answer leaves out when empty
    // (contracts/songs' songToJson). R1 is the queue's only song: it plays again and again, the same.
    const optionalMaps = new Set(['links', 'previews', 'streamUrls']);
    const expected = Object.fromEntries(
      Object.entries(song as Record<string, unknown>).filter(([k, v]) => !(optionalMaps.has(k) && Object.keys(v as object).length === 0)),
    );
    for (const answer of await views(owner.token)) {
      expect(answer.status).toBe(200);
      expect(answer.body.song).toEqual(expected);
      expect(answer.body).toMatchObject({ djUuids: [dj.uuid], numberOfActiveDjs: 1 });
    }
    // Who may not see inside a private room learns no more of what plays than of who is there.
    for (const answer of await views(stranger.token))
      expect(answer).toMatchObject({ status: 200, body: { usersInRoomUuids: [], song: null, djUuids: [] } });
    // The feed's settings leave them to nowPlaying and djs.
    expect(d.state.settings).toMatchObject({ song: null, djUuids: [] });

    await d.action('removeDj');
    await d.until((s) => s.nowPlaying === null && s.djs.length === 0, 'silence');
    for (const answer of await views(owner.token)) expect(answer).toMatchObject({ status: 200, body: { uuid, song: null, djUuids: [] } });
  });

  it('skips on the DJ or a moderator, refuses others, and stops the song when the playing DJ leaves', async () => {
    const owner = await person();
    const dj = await person();
    const fan = await person();
    const { uuid } = await room(owner.token, { numberOfDjs: 2 });
    await queue(dj.token, 'S1', 'S2', 'S3');
    const d = await join(dj, uuid);
    const f = await join(fan, uuid);
    const o = await join(owner, uuid);
    await expect(f.action('skipSong')).rejects.toBe('Nothing is playing right now.');
    await d.action('addDj');
    await f.until((s) => playing(s) === 'S1');
    await expect(f.action('skipSong')).rejects.toBe('You are not allowed to do that in this room.');
    await d.action('skipSong');
    await f.until((s) => playing(s) === 'S2', 'S2 after the DJ skipped');
    await o.action('skipSong');
    await f.until((s) => playing(s) === 'S3', 'S3 after the owner skipped');
    // The DJ steps down mid-song: the song stops and, with nobody left on stage, the room is silent.
    await d.action('removeDj');
    await f.until((s) => s.nowPlaying === null && s.djs.length === 0, 'silence');
    expect(f.plays.at(-1)).toBeNull();
    // Unknown actions and bad params are refused with a reason.
    await expect(f.action('fly')).rejects.toBe('Unknown action: fly');
    await expect(f.action('voteOnSong', { songVotes: { like: 'yes' } })).rejects.toMatch(/songVotes.like/);
  });

  it('seats the waitlist when the stage frees up and lets a DJ leave after their next song', async () => {
    const owner = await person();
    const [x, y] = [await person(), await person()];
    const { uuid } = await room(owner.token, { numberOfDjs: 1 });
    await queue(x.token, 'X1', 'X2');
    await queue(y.token, 'Y1');
    const lx = await join(x, uuid);
    const ly = await join(y, uuid);
    await lx.action('addDj');
    await expect(ly.action('addDj')).rejects.toBe('The stage is full. Join the waitlist to take the next free seat.');
    await ly.action('joinWaitlist');
    await lx.until((s) => s.waitlist?.[0] === y.uuid, 'waitlist');
    await lx.action('leaveAfterSong', { enabled: true });
    await ly.until((s) => playing(s) === 'Y1' && s.djs.map((d: Json) => d.uuid).join() === y.uuid, 'Y on stage after X stepped down');
    expect(ly.state.waitlist).toEqual([]);
  });

  it('takes a kicked listener and a banned DJ out of the room mid-song, and keeps the banned one out', async () => {
    const owner = await person();
    const dj = await person();
    const fan = await person();
    const { uuid, slug } = await room(owner.token);
    await queue(dj.token, 'K1', 'K2');
    const d = await join(dj, uuid);
    const f = await join(fan, uuid);
    const o = await join(owner, uuid, { bff: 1 });
    await d.action('addDj');
    await o.until((s) => playing(s) === 'K1');

    const kicked = await call('POST', `${ROOMS}/roomUserRoles/kick-user-from-room`, {
      token: owner.token,
      body: { userUuid: fan.uuid, slug },
    });
    expect(kicked.status).toBe(201);
    await eventually(async () => (f.kicked ? true : undefined));
    expect(f.named('kickedFromRoom')[0].message.params).toEqual({ reason: 'kicked' });
    await o.until((s) => !s.allUserData[fan.uuid] && !s.allUsers.some((u: Json) => u.uuid === fan.uuid), 'the kicked fan gone');
    await expect(FeedListener.join(platform().baseUrl, fan.token, fan.uuid, uuid)).rejects.toBe(
      'You were removed from this room, please try again later',
    );

    const banned = await call('POST', `${ROOMS}/roomUserRoles/${slug}`, {
      token: owner.token,
      body: { userUuid: dj.uuid, role: 'banned' },
    });
    expect(banned.status).toBe(201);
    await o.until((s) => s.djs.length === 0 && s.nowPlaying === null && !s.allUserData[dj.uuid], 'the banned DJ gone and the song stopped');
    expect(d.kicked).toBe(true);
    expect(d.named('kickedFromRoom')[0].message.params).toEqual({ reason: 'banned' });
    await expect(FeedListener.join(platform().baseUrl, dj.token, dj.uuid, uuid)).rejects.toMatch(/banned/i);
  });

  it('asks for the password of a password room', async () => {
    const owner = await person();
    const guest = await person();
    const { uuid } = await room(owner.token, { type: 'PRIVATE', password: 'open sesame' });
    await expect(FeedListener.join(platform().baseUrl, guest.token, guest.uuid, uuid)).rejects.toBe('This room requires a password');
    await expect(FeedListener.join(platform().baseUrl, guest.token, guest.uuid, uuid, 'wrong')).rejects.toBe('Wrong room password');
    const inside = await join(guest, uuid, { password: 'open sesame' });
    expect(inside.state.settings).toMatchObject({ uuid, isPasswordProtected: true });
    expect(inside.state.settings.password).toBeUndefined();
  });

  it('carries the room and the profiles in the shapes the REST paths answer (one mapping each)', async () => {
    const owner = await person('Shaper');
    const { uuid, slug } = await room(owner.token, { discordGuildId: '1234' });
    const listener = await join(owner, uuid);
    await listener.until((s) => s.allUserData[owner.uuid]?.userProfile);
    const rest = (await call('GET', `${ROOMS}/rooms/${slug}`, { token: owner.token })).body;
    // The settings are the room as the joiner entered it: who was in the room then (the live users are allUsers).
    const entered = {
      ...rest,
      usersInRoomUuids: listener.state.settings.usersInRoomUuids,
      numberOfUsersInRoom: listener.state.settings.usersInRoomUuids.length,
    };
    expect(listener.state.settings).toEqual(entered);
    expect(Object.keys(listener.state.settings).sort()).toEqual(Object.keys(rest).sort());
    const profile = (await call('GET', `/api/user-service/profile/${owner.uuid}`, { token: owner.token })).body;
    expect(listener.state.allUserData[owner.uuid].userProfile).toEqual(profile);
    expect(profile.firstName).toBeNull();
  });

  it('keeps a user while any connection of theirs is open, and lets them go when the last closes', async () => {
    const owner = await person();
    const walker = await person();
    const { uuid } = await room(owner.token);
    const o = await join(owner, uuid);
    const w1 = await join(walker, uuid);
    const w2 = await join(walker, uuid, { bff: 1 });
    w1.close();
    // Another connection of theirs is still open: they stay.
    await new Promise((r) => setTimeout(r, 900));
    expect(o.state.allUserData[walker.uuid]).toBeDefined();
    w2.close();
    await o.until((s) => !s.allUserData[walker.uuid], 'userLeft once the last connection closed');
    expect(o.named('userLeft')).toHaveLength(1);
  });

  it('resets a connection that misses a patch; the client rejoins and carries on', async () => {
    const owner = await person();
    const { uuid } = await room(owner.token);
    const first = await join(owner, uuid);
    // A frame from the future: this connection missed versions, so its state cannot be trusted.
    const { createRedis, encodeFeedFrame, feedChannel, roomMessageJson } = await import('@spinroom/platform');
    const redis = createRedis(process.env.REDIS_URL!);
    const future = first.version + 5;
    await redis.publish(
      feedChannel(uuid),
      encodeFeedFrame({
        kind: 's',
        version: future,
        userUuid: '',
        json: roomMessageJson({ roomUuid: uuid, sentAt: Date.now(), message: { name: 'votedOnSong', statePatch: [] }, version: future }),
      }),
    );
    redis.disconnect();
    await eventually(async () => (first.reset ? true : undefined));
    const again = await join(owner, uuid);
    expect(again.state.allUsers.map((u: Json) => u.uuid)).toEqual([owner.uuid]);
  });

  it('loses nothing when the room service restarts mid-song', async () => {
    const owner = await person();
    const dj = await person();
    const { uuid } = await room(owner.token);
    await queue(dj.token, 'R1', 'R2');
    const d = await join(dj, uuid);
    const o = await join(owner, uuid);
    await d.action('addDj');
    await o.until((s) => playing(s) === 'R1');
    await platform().restartRoomService();
    await o.until((s) => playing(s) === 'R2', 'the clock advanced after the restart');
    await o.action('voteOnSong', { songVotes: { like: true } });
    await o.until((s) => s.voteCounts.likes === 1);
    expect(o.versions).toEqual(o.versions.map((_, i) => o.versions[0]! + i));
  });

  it('lets only invited users DJ in an INVITE_ONLY room, follows a granted role live, and keeps guests off the signed-in lists', async () => {
    const owner = await person();
    const member = await person();
    const { uuid, slug } = await room(owner.token, { djType: 'INVITE_ONLY' });
    await queue(member.token, 'I1');
    const m = await join(member, uuid);
    const guestGrant = (await call('GET', '/api/user-service/auth/guest')).body;
    const g = await join({ token: guestGrant.accessToken, uuid: guestGrant.userUuid }, uuid, { bff: 1 });
    await m.until((s) => s.allUserData[guestGrant.userUuid], 'the guest');
    expect(m.state.allUserData[guestGrant.userUuid].userProfile).toMatchObject({ avatarId: 'ghost', color: '#FFFFFF' });
    expect(m.state.allUsers.map((u: Json) => u.uuid)).toEqual([member.uuid]);
    expect(m.state.floorUsers.map((u: Json) => u.uuid)).toEqual([member.uuid]);
    expect(m.state.audienceUsers.map((u: Json) => u.uuid)).toEqual([member.uuid, guestGrant.userUuid]);
    await expect(g.action('addDj')).rejects.toBe('You are not allowed to DJ in this room.');

    expect(m.state.allUsers[0].canDj).toBe(false);
    await expect(m.action('addDj')).rejects.toBe('You are not allowed to DJ in this room.');
    expect(
      (await call('POST', `${ROOMS}/roomUserRoles/${slug}`, { token: owner.token, body: { userUuid: member.uuid, role: 'dj' } })).status,
    ).toBe(201);
    await m.until((s) => s.allUsers[0].canDj === true && s.allUsers[0].highestRole === 'dj', 'the dj role, live');
    await m.action('addDj');
    await g.until((s) => playing(s) === 'I1');
    // Two clocks race for this room: the single song plays again and again, once per turn.
    await g.until(() => g.plays.length >= 3, 'three plays');
    const recent = await eventually(async () => {
      const body = (await call('GET', `/api/playlist-service/rooms/${slug}/recent-songs`, { token: owner.token })).body;
      return body.total >= 2 ? body : undefined;
    });
    const starts = g.messages.filter((x: Json) => x.message.name === 'playedSong').length;
    expect(recent.total).toBeLessThanOrEqual(starts);
    expect(new Set(recent.songPlays.map((p: Json) => p.playId)).size).toBe(recent.songPlays.length);
    const times = recent.songPlays.map((p: Json) => Date.parse(p.playedAt)).sort();
    for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(PLAY_MS - 50);
  });

  it('takes a djDisabled DJ off the stage at once, and lets them back when the role expires', async () => {
    const owner = await person();
    const dj = await person();
    const { uuid, slug } = await room(owner.token);
    await queue(dj.token, 'D1', 'D2');
    const d = await join(dj, uuid);
    await d.action('addDj');
    await d.until((s) => playing(s) === 'D1');
    const until = new Date(Date.now() + 2500).toISOString();
    expect(
      (
        await call('POST', `${ROOMS}/roomUserRoles/${slug}`, {
          token: owner.token,
          body: { userUuid: dj.uuid, role: 'djDisabled', expirationTime: until },
        })
      ).status,
    ).toBe(201);
    await d.until((s) => s.djs.length === 0 && s.nowPlaying === null && s.allUsers[0].canDj === false, 'off the stage');
    await expect(d.action('addDj')).rejects.toBe('You are not allowed to DJ in this room.');
    await eventually(
      async () => {
        await d.action('addDj');
        return true;
      },
      10_000,
      500,
    );
    await d.until((s) => s.djs[0]?.uuid === dj.uuid && s.allUsers[0].canDj === true, 'back on stage after the role expired');
  });

  it('records a play a Spinroom service reports, with its song as a typed message, and lists it back as the feed carried it', async () => {
    const owner = await person();
    const { slug } = await room(owner.token);
    const played = {
      artistName: 'Kraftwerk',
      trackName: 'Computer Love',
      genre: null,
      duration: 435,
      isrc: 'DEA168100010',
      musicProviders: { spotify: '6Wd2' },
      thumbnails: { small: 'https://img.example/k1.jpg' },
      playbackToken: null,
      songShortId: 'K1',
      position: 3,
    };
    const playId = randomUUID();
    const service = await signedToken('service', 'room');
    expect(
      await call('POST', `/api/playlist-service/rooms/${slug}/recent-songs`, {
        token: service,
        body: { playId, djUuid: owner.uuid, song: { ...played, unknownField: 'dropped' }, voteCounts: { likes: 1, dislikes: 0, stars: 2 } },
      }),
    ).toMatchObject({ status: 201 });
    const { songPlays } = (await call('GET', `/api/playlist-service/rooms/${slug}/recent-songs`, { token: owner.token })).body;
    expect(songPlays).toEqual([
      { playId, djUuid: owner.uuid, voteCounts: { likes: 1, dislikes: 0, stars: 2 }, playedAt: expect.any(String), song: played },
    ]);
    expect(
      (
        await call('POST', `/api/playlist-service/rooms/${slug}/recent-songs`, {
          token: service,
          body: { playId: randomUUID(), djUuid: owner.uuid, song: { trackName: 'no artist' } },
        })
      ).status,
    ).toBe(400);
  });
});
