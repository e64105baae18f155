// Nothing lost to a crash (issue 19): the room-service replica that stores a
// song's advance is SIGKILLed before it could run the advance's effects (its
// PostgreSQL connections are held up by a proxy from just before the song's
// end, so the play record cannot be written). The advance is in Redis with
// its effects pending; a room service started afterwards runs them: the play
// is recorded once, `room.song-played` is published once and the DJ's song
// goes to the end of their queue, once. The same for a stage change the
// crashed replica stored (its last song played, the DJ steps down):
// `room.stage-changed` is published once, under the change's own id.
import { randomUUID } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SongPlayed, StageChanged } from '@spinroom/contracts/events/v1/room_events';
import { createRedis, GrpcHealthChecker, peerAddressVariable, SERVICE_NAMES, type Redis } from '@spinroom/platform';
import { eventually, freePort, testInfra } from '@spinroom/platform/testing';
import { startServiceProcess, type ServiceProcess } from '../../scripts/lib/processes.js';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, TEST_SERVICE_SECRET, usePlatform, useTopic } from '../support/platform.js';

type Json = any;

/** A TCP proxy that can hold every byte both ways (a database that stopped answering), and be cut. */
class HoldingProxy {
  private readonly sockets = new Set<Socket>();
  private held = false;
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<HoldingProxy> {
    let proxy!: HoldingProxy;
    const server = createServer((client) => {
      const upstream = connect(target.port, target.host);
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        proxy.sockets.add(from);
        from.on('data', (chunk) => {
          if (!proxy.held) to.write(chunk);
        });
        from.on('error', () => to.destroy());
        from.on('close', () => {
          proxy.sockets.delete(from);
          to.destroy();
        });
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new HoldingProxy(server, (server.address() as { port: number }).port);
    return proxy;
  }

  /** From now on nothing gets through: queries wait for answers that never come. */
  hold(): void {
    this.held = true;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('a room-service replica killed between storing a song’s advance and running its effects', () => {
  // The platform's own room service serves the BFF but its clock never beats: the replicas started here advance songs.
  const { call, platform } = usePlatform({ room: { LIVE_CLOCK_POLL_MS: 3_600_000 } });
  const roomEvents = useTopic('room-events');
  const processes: ServiceProcess[] = [];
  const open: FeedListener[] = [];
  let proxy: HoldingProxy | undefined;
  let stageProxy: HoldingProxy | undefined;
  let redis: Redis;

  const startReplica = async (databaseUrl: string): Promise<ServiceProcess> => {
    const port = await freePort();
    const replica = startServiceProcess('room', 'services/room/src/main.ts', {
      ...Object.fromEntries(SERVICE_NAMES.map((name) => [peerAddressVariable(name), platform().grpc[name]])),
      GRPC_PORT: String(port),
      DATABASE_URL: databaseUrl,
      REDIS_URL: platform().chat.redisUrl,
      KAFKA_BROKERS: testInfra().kafkaBrokers.join(','),
      KAFKA_CONSUMER_GROUP: `room-${randomUUID()}`,
      KAFKA_CONSUMER_FROM: 'latest',
      SERVICE_CLIENT_SECRET: TEST_SERVICE_SECRET,
      LIVE_CLOCK_POLL_MS: '50',
      LIVE_EFFECTS_RETRY_MS: '1000',
      OTEL_SDK_DISABLED: 'true',
      LOG_LEVEL: 'silent',
    });
    processes.push(replica);
    const health = new GrpcHealthChecker();
    try {
      await eventually(async () => ((await health.allServing([`127.0.0.1:${port}`])) ? true : undefined), 90_000, 250);
    } finally {
      health.close();
    }
    return replica;
  };

  beforeAll(() => {
    redis = createRedis(platform().chat.redisUrl);
  });
  afterAll(async () => {
    for (const listener of open) listener.close();
    for (const replica of processes) await replica.stop();
    await proxy?.close();
    await stageProxy?.close();
    redis?.disconnect();
  });

  it('records the play once, publishes room.song-played once and requeues the song once, after a restart; snags once a play', {
    timeout: 240_000,
  }, async () => {
    const database = new URL(platform().room.databaseUrl);
    proxy = await HoldingProxy.start({ host: database.hostname, port: Number(database.port || 5432) });
    const proxied = new URL(database);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const doomed = await startReplica(proxied.toString());

    const owner = (
      await call('POST', '/api/user-service/users/sign-up', {
        body: { email: freshEmail(), password: 'correct horse battery', nickname: 'DJ' },
      })
    ).body;
    const created = await call('POST', '/api/room-service/rooms/infrastructure', {
      token: owner.accessToken,
      body: { name: `Crash ${Date.now()}` },
    });
    expect(created.status).toBe(201);
    const roomUuid = created.body.uuid as string;
    // C1 ends in 8 s; C2, played next, lasts long enough not to end during the test.
    const songs = [
      ['C1', 8],
      ['C2', 900],
      ['C3', 900],
    ].map(([trackName, duration]) => ({
      musicProvider: 'spotify',
      songId: `crash-${trackName}-${randomUUID()}`,
      trackName,
      artistName: 'Crash',
      duration,
    }));
    const queued = await call('POST', '/api/playlist-service/crate/special/queue/songs', {
      token: owner.accessToken,
      body: { songs, append: true },
    });
    expect(queued.status).toBe(201);
    const queue = async () =>
      (await call('GET', '/api/playlist-service/crate/special/queue/songs', { token: owner.accessToken })).body.songs.map(
        (s: Json) => s.trackName as string,
      );

    const dj = await FeedListener.join(platform().baseUrl, owner.accessToken, owner.userUuid, roomUuid);
    open.push(dj);
    await dj.action('addDj');
    await dj.until((s) => s.nowPlaying?.song?.trackName === 'C1', 'C1 playing');
    const endTime: number = dj.state.nowPlaying.endTime;
    const state = JSON.parse((await redis.hget(`room:live:${roomUuid}`, 'state'))!);
    const playId: string = state.server.play.playId;

    // Just before C1 ends, the doomed replica's database stops answering; its clock stores the advance all the same.
    await new Promise((r) => setTimeout(r, Math.max(0, endTime - Date.now() - 1_500)));
    proxy.hold();
    await dj.until((s) => s.nowPlaying?.song?.trackName === 'C2', 'C2 playing');
    const pending = await redis.hgetall(`room:effects:${roomUuid}`);
    expect(Object.keys(pending)).toEqual(expect.arrayContaining([`played:${playId}`, `requeue:${playId}`]));
    doomed.child.kill('SIGKILL');
    await new Promise((resolve) => doomed.child.once('exit', resolve));
    await proxy.close();

    const db = new pg.Client({ connectionString: platform().room.databaseUrl });
    await db.connect();
    const plays = async () =>
      Number((await db.query(`select count(*)::int as n from "room_play" where "play_id" = $1`, [playId])).rows[0].n);
    const announced = () =>
      roomEvents.filter((m) => m.headers['event-type'] === 'room.song-played' && SongPlayed.decode(m.value).playId === playId).length;
    try {
      // Nothing ran: no play recorded, nothing announced, the song where it was.
      expect(await plays()).toBe(0);
      expect(announced()).toBe(0);
      expect(await queue()).toEqual(['C1', 'C2', 'C3']);

      // The room service starts again: the pending effects run, once.
      await startReplica(platform().room.databaseUrl);
      await eventually(async () => ((await plays()) === 1 ? true : undefined), 30_000, 200);
      await eventually(async () => (announced() === 1 ? true : undefined), 30_000, 200);
      await eventually(async () => ((await queue()).join() === 'C2,C3,C1' ? true : undefined), 30_000, 200);
      await eventually(async () => ((await redis.hlen(`room:effects:${roomUuid}`)) === 0 ? true : undefined), 10_000, 200);
      expect(await redis.zscore('room:effects-due', roomUuid)).toBeNull();

      // And nothing runs again: a few sweeps later, still one play, one event, the same queue.
      await new Promise((r) => setTimeout(r, 3_000));
      expect(await plays()).toBe(1);
      expect(announced()).toBe(1);
      expect(await queue()).toEqual(['C2', 'C3', 'C1']);
      expect(dj.state.nowPlaying.song.trackName).toBe('C2');
      expect(dj.state.djs[0].nextSong?.trackName).toBe('C3');

      // A star's snag, the other effect keyed by the play: into the voter's likes once, starred twice or not.
      const fan = (
        await call('POST', '/api/user-service/users/sign-up', {
          body: { email: freshEmail(), password: 'correct horse battery', nickname: 'Fan' },
        })
      ).body;
      const listener = await FeedListener.join(platform().baseUrl, fan.accessToken, fan.userUuid, roomUuid);
      open.push(listener);
      await listener.action('voteOnSong', { songVotes: { star: true } });
      await listener.action('voteOnSong', { songVotes: { star: false } });
      await listener.action('voteOnSong', { songVotes: { star: true } });
      const likes = async () =>
        (await call('GET', '/api/playlist-service/crate/special/likes/songs', { token: fan.accessToken })).body.songs.map(
          (s: Json) => s.trackName as string,
        );
      await eventually(async () => ((await likes()).length > 0 ? true : undefined), 10_000, 200);
      await eventually(async () => ((await redis.hlen(`room:effects:${roomUuid}`)) === 0 ? true : undefined), 10_000, 200);
      expect(await likes()).toEqual(['C2']);
    } finally {
      await db.end();
    }
  });

  it('publishes room.stage-changed once for a stage change the killed replica stored (its DJ stepping down after their last song)', {
    timeout: 240_000,
  }, async () => {
    // Only the doomed replica's clock beats until it dies (the survivors of the test before stop first).
    for (const replica of processes.splice(0)) await replica.stop();
    const database = new URL(platform().room.databaseUrl);
    stageProxy = await HoldingProxy.start({ host: database.hostname, port: Number(database.port || 5432) });
    const proxied = new URL(database);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(stageProxy.port);
    const doomed = await startReplica(proxied.toString());

    const owner = (
      await call('POST', '/api/user-service/users/sign-up', {
        body: { email: freshEmail(), password: 'correct horse battery', nickname: 'One Song DJ' },
      })
    ).body;
    const created = await call('POST', '/api/room-service/rooms/infrastructure', {
      token: owner.accessToken,
      body: { name: `Crash stage ${Date.now()}`, songsPerDj: 1 },
    });
    expect(created.status).toBe(201);
    const roomUuid = created.body.uuid as string;
    const queued = await call('POST', '/api/playlist-service/crate/special/queue/songs', {
      token: owner.accessToken,
      body: {
        songs: [{ musicProvider: 'spotify', songId: `crash-S1-${randomUUID()}`, trackName: 'S1', artistName: 'Crash', duration: 8 }],
        append: true,
      },
    });
    expect(queued.status).toBe(201);
    const stages = () =>
      roomEvents
        .filter((m) => m.headers['event-type'] === 'room.stage-changed')
        .map((m) => ({ id: m.headers['event-id'], change: StageChanged.decode(m.value) }))
        .filter((e) => e.change.roomUuid === roomUuid);
    const stepDowns = () => stages().filter((e) => e.change.removedDjUuids.includes(owner.userUuid));

    const dj = await FeedListener.join(platform().baseUrl, owner.accessToken, owner.userUuid, roomUuid);
    open.push(dj);
    await dj.action('addDj');
    await dj.until((s) => s.nowPlaying?.song?.trackName === 'S1', 'S1 playing');
    // Taking the stage is announced once, under the change's id (the platform's own room service stored it).
    await eventually(async () => (stages().length === 1 ? true : undefined), 30_000, 200);
    expect(stages()[0]!.change).toMatchObject({ addedDjUuids: [owner.userUuid], removedDjUuids: [] });
    expect(stages()[0]!.change.metadata?.eventId).toBe(stages()[0]!.id);

    // Just before S1 ends the doomed replica's database stops answering; its clock ends the song, and the DJ, who
    // played their one song, steps down: that change is stored with its announcement pending, then the replica dies.
    const endTime: number = dj.state.nowPlaying.endTime;
    await new Promise((r) => setTimeout(r, Math.max(0, endTime - Date.now() - 1_500)));
    stageProxy.hold();
    await dj.until((s) => s.djs.length === 0, 'the DJ off stage');
    const pending = Object.keys(await redis.hgetall(`room:effects:${roomUuid}`)).filter((key) => key.startsWith('stage:'));
    expect(pending).toHaveLength(1);
    doomed.child.kill('SIGKILL');
    await new Promise((resolve) => doomed.child.once('exit', resolve));
    await stageProxy.close();
    expect(stepDowns()).toHaveLength(0);

    // The room service starts again: the step-down is announced once, under the id the change was stored with.
    await startReplica(platform().room.databaseUrl);
    await eventually(async () => (stepDowns().length === 1 ? true : undefined), 30_000, 200);
    await eventually(async () => ((await redis.hlen(`room:effects:${roomUuid}`)) === 0 ? true : undefined), 10_000, 200);
    const [stepDown] = stepDowns();
    expect(stepDown!.id).toBe(pending[0]!.slice('stage:'.length));
    expect(stepDown!.change).toMatchObject({
      addedDjUuids: [],
      removedDjUuids: [owner.userUuid],
      djUuids: [],
      numberOfDjs: expect.any(Number),
    });

    // And never again: a few sweeps later, still the two changes, each announced once.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(stages()).toHaveLength(2);
  });
});
