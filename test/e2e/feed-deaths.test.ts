// Replica deaths (issue 19, Storms and deaths survived): two BFFs and two
// room-service replicas, each replica's clock racing the other's for the room.
// One BFF and the room replica behind it run as their own processes and are
// killed together (SIGKILL) in the middle of a song, just after votes and chat
// messages were acknowledged through them. The listeners they held rejoin
// through the other BFF within 5 s (they rejoin at once here, not after
// noticing the drop) and find every acknowledged vote and message; the song
// then advances exactly once, as the survivor's listener sees it, and its
// play is recorded once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrpcHealthChecker, peerAddressVariable, SERVICE_NAMES } from '@spinroom/platform';
import { eventually, freePort, testInfra } from '@spinroom/platform/testing';
import { startServiceProcess, type ServiceProcess } from '../../scripts/lib/processes.js';
import { FeedListener } from '../support/feed-client.js';
import { api, freshEmail, startBffProcess, TEST_SERVICE_SECRET, usePlatform } from '../support/platform.js';

type Json = any;
const PLAY_MS = 8_000;
const VOTERS = 6;

describe('a BFF and a room-service replica killed mid-song', () => {
  const { call, platform } = usePlatform({ room: { LIVE_MAX_PLAY_MS: PLAY_MS } });
  let room: ServiceProcess;
  let bff: Awaited<ReturnType<typeof startBffProcess>>;
  const open: FeedListener[] = [];

  beforeAll(async () => {
    const port = await freePort();
    const address = `127.0.0.1:${port}`;
    room = startServiceProcess('room', 'services/room/src/main.ts', {
      ...Object.fromEntries(SERVICE_NAMES.map((name) => [peerAddressVariable(name), platform().grpc[name]])),
      GRPC_PORT: String(port),
      DATABASE_URL: platform().room.databaseUrl,
      REDIS_URL: platform().chat.redisUrl,
      KAFKA_BROKERS: testInfra().kafkaBrokers.join(','),
      KAFKA_CONSUMER_GROUP: `room-${randomUUID()}`,
      KAFKA_CONSUMER_FROM: 'latest',
      SERVICE_CLIENT_SECRET: TEST_SERVICE_SECRET,
      LIVE_MAX_PLAY_MS: String(PLAY_MS),
      LIVE_LEAVE_GRACE_MS: '500',
      LIVE_CLOCK_POLL_MS: '50',
      OTEL_SDK_DISABLED: 'true',
      LOG_LEVEL: 'silent',
    });
    const health = new GrpcHealthChecker();
    try {
      await eventually(async () => ((await health.allServing([address])) ? true : undefined), 90_000, 250);
    } finally {
      health.close();
    }
    bff = await startBffProcess(platform(), { env: { [peerAddressVariable('room')]: address } });
  }, 180_000);
  afterAll(async () => {
    for (const listener of open) listener.close();
    await bff?.stop();
    await room?.stop();
  });

  const person = async (nickname: string) => {
    const body = (
      await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery', nickname } })
    ).body;
    return { token: body.accessToken as string, uuid: body.userUuid as string };
  };
  const join = async (url: string, who: { token: string; uuid: string }, roomUuid: string) => {
    const listener = await FeedListener.join(url, who.token, who.uuid, roomUuid);
    open.push(listener);
    return listener;
  };
  const playing = (state: Json) => state.nowPlaying?.song?.trackName as string | undefined;

  it('keeps every acknowledged vote, resyncs within 5 s and advances the song once', { timeout: 120_000 }, async () => {
    const owner = await person('DJ');
    const watcher = await person('Watcher');
    const voters = await Promise.all(Array.from({ length: VOTERS }, (_, i) => person(`Voter ${i}`)));
    const created = await call('POST', '/api/room-service/rooms/infrastructure', {
      token: owner.token,
      body: { name: `Deaths ${Date.now()}` },
    });
    expect(created.status).toBe(201);
    const roomUuid = created.body.uuid as string;
    const songs = ['D1', 'D2', 'D3'].map((trackName) => ({
      musicProvider: 'spotify',
      songId: `deaths-${trackName}-${randomUUID()}`,
      trackName,
      artistName: 'Deaths',
      duration: 200,
    }));
    expect(
      (await call('POST', '/api/playlist-service/crate/special/queue/songs', { token: owner.token, body: { songs, append: true } })).status,
    ).toBe(201);

    // The DJ and the watcher on the surviving BFF (the platform's, in front of the surviving replica).
    const dj = await join(platform().baseUrl, owner, roomUuid);
    const watching = await join(platform().baseUrl, watcher, roomUuid);
    const doomed = await Promise.all(voters.map((voter) => join(bff.url, voter, roomUuid)));
    await dj.action('addDj');
    await watching.until((s) => playing(s) === 'D1', 'D1 playing');
    const startedAt: number = watching.state.nowPlaying.startTime;

    // Votes and chat messages acknowledged through the doomed BFF and replica, then both die mid-song.
    const chatTokens = await Promise.all(
      voters.map(
        async (voter) =>
          (await call('GET', '/api/user-service/comet-chat/user-token', { token: voter.token })).body.cometAuthToken as string,
      ),
    );
    const said = await Promise.all(
      chatTokens.map(async (chatToken, i) => {
        const headers = { appid: 'spinroom', authtoken: chatToken };
        expect((await api(bff.url, 'POST', `/chat/v3.0/groups/${roomUuid}/members`, { headers, body: {} })).status).toBe(200);
        const sent = await api(bff.url, 'POST', '/chat/v3.0/messages', {
          headers,
          body: {
            type: 'text',
            receiverType: 'group',
            category: 'message',
            receiver: roomUuid,
            data: { text: `before the kill ${i}`, metadata: { chatMessage: { message: `before the kill ${i}` } } },
          },
        });
        expect(sent.status).toBe(200);
        return sent.body.data.id as string | number;
      }),
    );
    await Promise.all(doomed.map((listener, i) => listener.action('voteOnSong', { songVotes: { like: i % 2 === 0 } })));
    expect(Date.now()).toBeLessThan(startedAt + PLAY_MS - 3_000);
    const killedAt = Date.now();
    bff.process.child.kill('SIGKILL');
    room.child.kill('SIGKILL');

    // Their listeners rejoin through the surviving BFF.
    const back = await Promise.all(voters.map((voter) => join(platform().baseUrl, voter, roomUuid)));
    const resyncMs = Date.now() - killedAt;
    console.log(`[feed-deaths] ${VOTERS} listeners resynced in ${resyncMs} ms after the kill`);
    expect(resyncMs).toBeLessThan(5_000);
    for (const [i, listener] of back.entries()) {
      await listener.until((s) => Object.keys(s.allUserData).length > 0, 'user data');
      expect(playing(listener.state)).toBe('D1');
      expect(listener.state.allUserData[voters[i]!.uuid].songVotes).toEqual({ like: i % 2 === 0 });
    }
    expect(back[0]!.state.voteCounts).toMatchObject({ likes: VOTERS / 2, dislikes: VOTERS / 2 });
    const history = await call('GET', `/chat/v3.0/groups/${roomUuid}/messages?per_page=50`, {
      headers: { appid: 'spinroom', authtoken: chatTokens[0]! },
    });
    expect(history.status).toBe(200);
    expect(history.body.data.map((m: Json) => m.id).sort()).toEqual([...said].sort());

    // The song advances once: D2 follows D1, and nothing plays twice.
    await watching.until((s) => playing(s) === 'D2', 'D2 playing');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(watching.plays).toEqual(['D1', 'D2']);
    expect(back[0]!.plays).toEqual(['D2']);
    expect(new Set(watching.versions).size).toBe(watching.versions.length);
    // And D1's play is recorded once.
    const recent = await eventually(async () => {
      const answer = await call('GET', `/api/playlist-service/rooms/${created.body.slug as string}/recent-songs`, { token: watcher.token });
      return answer.body.songPlays?.length >= 1 ? (answer.body.songPlays as Json[]) : undefined;
    });
    expect(recent.map((p) => p.song.trackName)).toEqual(['D1']);
  });
});
