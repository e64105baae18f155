// The play-tracking aggregates when their consumer dies mid-stream (issue 18,
// Tests and figures): the audit service runs as its own process (src/main.ts,
// as in production); play records stream in through its RecordAnalytics call
// (what the BFF's /kinesis calls), each sent twice, and a caller whose call
// failed sends it again until it is answered, as a client would. While the
// consumer is counting, the process is killed with SIGKILL (no shutdown, no
// offsets committed for the batch at hand) and started again on the same
// database, consumer group and port. At the end every play counts exactly
// once per kind: the totals are those of the distinct plays sent, whatever
// Kafka redelivered after the kill and whatever the callers sent twice.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { AuditServiceClient } from '@spinroom/contracts/audit/v1/audit';
import { createGrpcClient, dropDatabase } from '@spinroom/platform';
import { eventually, freePort, testInfra, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeUserService, playRecord } from './support.js';

const PLAYS = 400;
const KINDS = ['played15Sec', 'played30Sec', 'totalPlayed'] as const;
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

describe('the play aggregates with their consumer killed mid-stream', () => {
  const databaseUrl = uniqueDatabaseUrl('audit_restart');
  const group = `audit-restart-${randomUUID()}`;
  let user: Awaited<ReturnType<typeof fakeUserService>>;
  let port: number;
  let child: ChildProcess | undefined;
  let client: ReturnType<typeof createGrpcClient<AuditServiceClient>>;
  let db: pg.Client;

  const start = async () => {
    const env = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS: testInfra().kafkaBrokers.join(','),
      KAFKA_CONSUMER_FROM: 'latest',
      KAFKA_CONSUMER_GROUP: group,
      REDIS_URL: testInfra().redisUrl,
      GRPC_PORT: String(port),
      USER_ADDR: user.address,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    };
    child = spawn(process.execPath, ['--import', 'tsx', 'services/audit/src/main.ts'], { cwd: repoRoot, env, stdio: 'inherit' });
    const admin = await user.token('admin');
    await eventually(
      async () => (await client.getSocketEventNames({}, { token: admin, deadlineMs: 2000 }).catch(() => undefined)) && true,
      90_000,
      250,
    );
  };
  const totals = async (songId: string) => {
    const { rows } = await db.query(
      `select "total_played", "played_seconds", "fifteen_second_plays", "thirty_second_plays" from "play_total" where "scope" = 'song' and "key" = $1`,
      [songId],
    );
    const row = rows[0] ?? { total_played: 0, played_seconds: 0, fifteen_second_plays: 0, thirty_second_plays: 0 };
    return {
      totalPlayed: Number(row.total_played),
      playedSeconds: Number(row.played_seconds),
      fifteenSecondPlays: Number(row.fifteen_second_plays),
      thirtySecondPlays: Number(row.thirty_second_plays),
    };
  };

  beforeAll(async () => {
    user = await fakeUserService();
    port = await freePort();
    client = createGrpcClient(AuditServiceClient, `127.0.0.1:${port}`);
    await start();
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    client?.close();
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await user?.stop();
    await dropDatabase(databaseUrl);
  });

  it('counts each play once per kind, whatever was redelivered or sent again', async () => {
    const songId = `song-${randomUUID()}`;
    const djUuid = randomUUID();
    const listeners = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const userUuid = randomUUID();
        return { userUuid, token: await user.token('user', userUuid) };
      }),
    );
    // Every play's three events, each twice, shuffled a little (a 15 s event may come after the 30 s one of another play).
    const records = Array.from({ length: PLAYS }, (_, i) => {
      const listener = listeners[i % listeners.length]!;
      const playId = randomUUID();
      return KINDS.map((event) => ({
        listener,
        record: playRecord(listener.userUuid, event, { playId, djUuid, songInfo: { songId, duration: 30 } }),
      }));
    }).flat();
    const queue = [...records, ...records];
    let sent = 0;
    let retried = 0;
    const send = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const body = { topic: 'play-tracking', recordJson: JSON.stringify(next.record) };
        for (;;) {
          try {
            await client.recordAnalytics(body, { token: next.listener.token, deadlineMs: 5000 });
            sent += 1;
            break;
          } catch {
            // The process is down (or restarting): the client sends it again.
            retried += 1;
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        }
      }
    };
    const senders = Array.from({ length: 16 }, () => send());

    // Kill once the consumer has counted a good part of the plays, and not all of them.
    const countedAtKill = await eventually(
      async () => {
        const now = await totals(songId);
        const counted = now.totalPlayed + now.fifteenSecondPlays + now.thirtySecondPlays;
        return counted >= PLAYS / 2 ? counted : undefined;
      },
      60_000,
      20,
    );
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child!.kill('SIGKILL');
    await exited;
    expect(countedAtKill).toBeLessThan(PLAYS * KINDS.length);
    await start();
    await Promise.all(senders);
    expect(sent).toBe(records.length * 2);

    const expected = { totalPlayed: PLAYS, playedSeconds: PLAYS * 35, fifteenSecondPlays: PLAYS, thirtySecondPlays: PLAYS };
    await eventually(async () => ((await totals(songId)).totalPlayed >= PLAYS ? true : undefined), 90_000, 250);
    // Whatever Kafka still redelivers comes in now: give it a moment, then the totals must be exact.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await totals(songId)).toEqual(expected);
    const { rows } = await db.query(`select count(*)::int as "n" from "play_event_seen"`);
    expect(rows[0].n).toBeGreaterThanOrEqual(PLAYS * KINDS.length);
    const perUser = await db.query(
      `select coalesce(sum("total_played"), 0)::int as "n" from "play_total" where "scope" = 'user' and "key" = any($1)`,
      [listeners.map((l) => l.userUuid)],
    );
    expect(perUser.rows[0].n).toBe(PLAYS);
    console.log(`restart test: counted ${countedAtKill} of ${PLAYS * KINDS.length} at the kill; ${retried} calls sent again`);
  }, 300_000);
});
