// /kinesis benchmark (`npm run bench:kinesis`; issue 18, Tests and figures): play-tracking records per
// second end to end (HTTP POST /api/audit-service/kinesis through the BFF, which
// coalesces concurrent requests into RecordAnalyticsBatch calls, the audit
// service's send acknowledged by Kafka, its consumer's transaction) into the
// play-tracking aggregates, and the time from a request to its record in the
// aggregates at half that rate, beside a bare kafkajs producer and consumer
// moving messages of the same size in the same run.
//
// Starts its own user service (the public key), audit service and BFF, as
// their images run them (bundled), on ports of their own (BENCH_KINESIS_PORT_BASE,
// 28850: user 28851, audit 28859; the BFF on BENCH_KINESIS_BFF_PORT, 18470), on
// the dev profile's infrastructure with databases of their own (*_bench_kinesis)
// and a consumer group of the run's own reading from the run's start.
//
// Phases (BENCH_KINESIS_PHASES, a comma-separated subset of
// `saturation,half,direct,bare`, all by default, run in that order):
// 1. saturation: BENCH_KINESIS_CLIENTS (64) closed-loop HTTP clients post
//    totalPlayed records (each a new play id, one song of the run's) for
//    BENCH_DURATION_S (10); records per second is what the aggregates counted
//    over the time from the first request to the last record counted.
// 2. half: an open loop at half the saturation figure (or BENCH_KINESIS_HALF_RATE)
//    for the same time; one record in 20 names a song of its own, and a poller
//    reading `play_total` every 10 ms times it from its request to its row.
// 3. direct: one audit process fed without the BFF or HTTP, as the BFF feeds
//    it: BENCH_KINESIS_DIRECT_CALLS (4) closed-loop RecordAnalyticsBatch calls
//    of BENCH_KINESIS_DIRECT_BATCH (500) records, each with its user's token;
//    records per second end to end into the aggregates, what one audit process
//    sustains when its callers are not on the same two cores' critical path.
// 4. bare: a kafkajs producer (acks all, idempotent, the same concurrency, one
//    message per send) and a consumer in a group of its own on a topic of the
//    run's own; messages per second from the first send to the last consumed.
//
// BENCH_KINESIS_PROFILE_DIR: the audit process writes a V8 CPU profile there when it stops.
//
// Before the phases, BENCH_KINESIS_IDLE_S (5) seconds without load: each process's CPU a
// second at rest, so the phases' CPU per record is also shown net of it.
//
// CPU per record from /proc for the BFF, the audit service, the Kafka broker,
// PostgreSQL (every backend, the dev profile's: shared with whatever else runs)
// and the load generator; and the rate one core of the audit process would
// carry at its CPU per record (1000 / ms a record).
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuditServiceClient, type AnalyticsRecordInput } from '@spinroom/contracts/audit/v1/audit';
import { createGrpcClient, TokenIssuer } from '@spinroom/platform';
import { Kafka, logLevel } from 'kafkajs';
import pg from 'pg';
import { databaseUrl, ensureSigningKey, infraUp, localDir } from '../lib/infra.js';
import { startServiceProcess, waitForHttp, type ServiceProcess } from '../lib/processes.js';
import { bffEnvironment, serviceEnvironment, servicePorts, startLocalService, type LocalServices } from '../lib/services.js';
import { postgresPids, startCpuWindow, type CpuGroup, type CpuReport } from './cpu.js';
import { percentile } from './open-loop.js';
import { BENCH_LIMIT_ENV, benchProcesses, gitRevision } from './run.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const clients = num('BENCH_KINESIS_CLIENTS', 64);
const durationSeconds = num('BENCH_DURATION_S', 10);
const ports = { ...servicePorts(num('BENCH_KINESIS_PORT_BASE', 28850)), bff: num('BENCH_KINESIS_BFF_PORT', 18470) };
const idleSeconds = num('BENCH_KINESIS_IDLE_S', 5);
const directCalls = num('BENCH_KINESIS_DIRECT_CALLS', 4);
const directBatch = num('BENCH_KINESIS_DIRECT_BATCH', 500);
const profileDir = process.env.BENCH_KINESIS_PROFILE_DIR;
const phases = new Set((process.env.BENCH_KINESIS_PHASES ?? 'saturation,half,direct,bare').split(',').map((p) => p.trim()));
const TARGET = { perSecond: 20_000, p99Ms: 200 };
const SUFFIX = '_bench_kinesis';
const { children, stopAll } = benchProcesses<ServiceProcess>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function record(userUuid: string, songId: string) {
  const now = Date.now();
  return {
    topic: 'play-tracking',
    record: {
      event: 'totalPlayed',
      playId: randomUUID(),
      userUuid,
      roomSlug: 'bench-room',
      djUuid: '00000000-0000-4000-8000-000000000001',
      songInfo: { songId, duration: 180 },
      startedDate: now - 60_000,
      updatedDate: now,
      device: { platform: 'web', userAgent: 'kinesis-bench' },
    },
  };
}

async function main() {
  const infra = infraUp('dev');
  const local: LocalServices = { infra, ports, suffix: SUFFIX, common: { LOG_LEVEL: 'warn', ...BENCH_LIMIT_ENV } };
  const group = `audit-bench-${randomUUID()}`;
  children.push(
    startLocalService('user', local, { bundled: true }),
    startServiceProcess(
      'audit',
      'services/audit/src/main.ts',
      { ...serviceEnvironment('audit', local), KAFKA_CONSUMER_GROUP: group, KAFKA_CONSUMER_FROM: 'latest' },
      { bundled: true, nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [] },
    ),
    startServiceProcess('bff', 'bff/src/main.ts', bffEnvironment(local, ports.bff), { bundled: true }),
  );
  const bff = `http://127.0.0.1:${ports.bff}`;
  const exited = () => children.map((c) => (c.child.exitCode !== null ? `${c.name} exited` : '')).find(Boolean);
  await waitForHttp(`${bff}/healthz`, 120_000, exited);
  const issuer = await TokenIssuer.fromPem(ensureSigningKey('dev').pem, { issuer: 'spinroom', ttlSeconds: 3600 });
  const users = await Promise.all(
    Array.from({ length: 200 }, async () => {
      const userUuid = randomUUID();
      return { userUuid, authorization: `Bearer ${await issuer.sign({ sub: userUuid, role: 'user', capabilities: [] })}` };
    }),
  );
  const post = async (body: unknown, authorization: string) => {
    const res = await fetch(`${bff}/api/audit-service/kinesis`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    return res.status;
  };
  const db = new pg.Pool({ connectionString: databaseUrl(infra, `spinroom_audit${SUFFIX}`), max: 2 });
  const counted = async (songId: string) =>
    Number(
      (await db.query(`select "total_played" from "play_total" where "scope" = 'song' and "key" = $1`, [songId])).rows[0]?.total_played ??
        0,
    );
  // Up: the BFF holds the key and the audit service takes records.
  const warm = `warm-${randomUUID()}`;
  for (let i = 0; ; i += 1) {
    if ((await post(record(users[0]!.userUuid, warm), users[0]!.authorization).catch(() => 0)) === 201) break;
    if (i > 240 || exited()) throw new Error(`the BFF or the audit service did not come up (${exited() ?? 'timeout'})`);
    await sleep(500);
  }
  while ((await counted(warm)) < 1) await sleep(100);

  const byName = (name: string) => children.find((c) => c.name === name)?.child.pid;
  const pidFrom = (path: string) => {
    if (!existsSync(path)) return undefined;
    const pid = Number(readFileSync(path, 'utf8').split('\n')[0]!.trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  };
  // The dev profile's broker and database (deploy/local): their pid files.
  const kafkaPid = pidFrom(join(localDir, 'dev/kafka/kafka.pid'));
  const postgresPid = pidFrom(join(localDir, 'dev/postgres/data/postmaster.pid'));
  const cpuGroups: CpuGroup[] = [
    { name: 'BFF', pids: () => [byName('bff')].filter((pid): pid is number => pid !== undefined) },
    { name: 'audit service', pids: () => [byName('audit')].filter((pid): pid is number => pid !== undefined) },
    { name: 'Kafka', pids: () => (kafkaPid ? [kafkaPid] : []) },
    { name: 'PostgreSQL', pids: () => (postgresPid ? postgresPids(postgresPid) : []) },
    { name: 'load generator', pids: () => [process.pid] },
  ];
  const msPerRecord = (report: CpuReport, name: string, perSecond: number) => (1000 * (report.cores[name] ?? 0)) / Math.max(perSecond, 1);
  const cpuLine = (report: CpuReport, perSecond: number) =>
    `machine ${report.machineBusyPercent.toFixed(0)}% busy; CPU per record: ${Object.keys(report.cores)
      .map((name) => `${name} ${msPerRecord(report, name, perSecond).toFixed(3)} ms`)
      .join(', ')}`;
  /**
   * The audit process's CPU per record, and the records a second one core of it would carry at
   * that cost (1000 / ms a record); the same net of its CPU at rest (a core less what it burns idle).
   */
  const auditLine = (report: CpuReport, perSecond: number) => {
    const used = report.cores['audit service'] ?? 0;
    const rest = idle.cores['audit service'] ?? 0;
    const ms = msPerRecord(report, 'audit service', perSecond);
    const net = (1000 * Math.max(used - rest, 0)) / Math.max(perSecond, 1);
    return `audit process: ${(100 * used).toFixed(0)}% of a core (${(100 * rest).toFixed(0)}% at rest), ${ms.toFixed(3)} ms a record: one core of it carries ${round(1000 / Math.max(ms, 1e-6))}/s; net of rest ${net.toFixed(3)} ms a record, ${round((1000 * (1 - rest)) / Math.max(net, 1e-6))}/s`;
  };
  const round = (n: number) => Math.round(n).toLocaleString('en-US');
  const lines: string[] = [];

  // 0. Idle: what each process burns with nothing to do (consumers polling, heartbeats), so a
  // phase's CPU per record can be read net of it; at a few hundred records a second it is most of it.
  const idleCpu = startCpuWindow(cpuGroups);
  await sleep(idleSeconds * 1000);
  const idle = idleCpu();
  lines.push(
    `idle (${idleSeconds} s, no load): machine ${idle.machineBusyPercent.toFixed(0)}% busy; ms of CPU a second: ${Object.entries(idle.cores)
      .map(([name, cores]) => `${name} ${(1000 * cores).toFixed(0)}`)
      .join(', ')}`,
  );
  /** A phase's CPU per record over its idle CPU: what a record adds. */
  const netLine = (report: CpuReport, perSecond: number) =>
    `net of idle, CPU per record: ${Object.keys(report.cores)
      .filter((name) => name !== 'load generator')
      .map(
        (name) =>
          `${name} ${((1000 * Math.max(0, (report.cores[name] ?? 0) - (idle.cores[name] ?? 0))) / Math.max(perSecond, 1)).toFixed(3)} ms`,
      )
      .join(', ')}`;

  // 1. Saturation.
  let saturationRate = 0;
  if (phases.has('saturation')) {
    const song = `bench-${randomUUID()}`;
    const saturationCpu = startCpuWindow(cpuGroups);
    let acked = 0;
    let refused = 0;
    const started = performance.now();
    const deadline = started + durationSeconds * 1000;
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        for (let i = 0; performance.now() < deadline; i += 1) {
          const user = users[(c * 7 + i) % users.length]!;
          if ((await post(record(user.userUuid, song), user.authorization).catch(() => 0)) === 201) acked += 1;
          else refused += 1;
        }
      }),
    );
    const sentFor = (performance.now() - started) / 1000;
    while ((await counted(song)) < acked) await sleep(20);
    const endToEnd = (performance.now() - started) / 1000;
    const report = saturationCpu();
    saturationRate = acked / endToEnd;
    lines.push(
      `saturation: ${round(acked)} records acknowledged (${round(acked / sentFor)}/s), ${round(saturationRate)}/s end to end into the aggregates (target ${round(TARGET.perSecond)}/s), the consumer ${(endToEnd - sentFor).toFixed(1)} s behind at the end, ${refused} refused`,
      `  ${cpuLine(report, saturationRate)}`,
      `  ${netLine(report, saturationRate)}`,
      `  ${auditLine(report, saturationRate)}`,
    );
  }

  // 2. Half rate, open loop: request to aggregate for one record in 20.
  if (phases.has('half')) {
    const rate = num('BENCH_KINESIS_HALF_RATE', 0) || Math.max(1, Math.floor(saturationRate / 2));
    const sent = new Map<string, number>();
    const seen = new Map<string, number>();
    let poll = true;
    const poller = (async () => {
      while (poll) {
        const waiting = [...sent.keys()].filter((key) => !seen.has(key));
        if (waiting.length > 0) {
          const { rows } = await db.query(`select "key" from "play_total" where "scope" = 'song' and "key" = any($1)`, [waiting]);
          const now = performance.now();
          for (const row of rows as Array<{ key: string }>) seen.set(row.key, now);
        }
        await sleep(10);
      }
    })();
    const halfSong = `bench-half-${randomUUID()}`;
    const inFlight: Array<Promise<unknown>> = [];
    const halfCpu = startCpuWindow(cpuGroups);
    const halfStarted = performance.now();
    let halfRefused = 0;
    for (let i = 0; performance.now() < halfStarted + durationSeconds * 1000; i += 1) {
      const due = halfStarted + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      const user = users[i % users.length]!;
      const sampled = i % 20 === 0 ? `bench-sample-${randomUUID()}` : undefined;
      const at = performance.now();
      inFlight.push(
        post(record(user.userUuid, sampled ?? halfSong), user.authorization).then(
          (status) => {
            if (status !== 201) halfRefused += 1;
            else if (sampled) sent.set(sampled, at);
          },
          () => {
            halfRefused += 1;
          },
        ),
      );
    }
    await Promise.all(inFlight);
    const halfReport = halfCpu();
    const halfDeadline = performance.now() + 30_000;
    while (seen.size < sent.size && performance.now() < halfDeadline) await sleep(20);
    poll = false;
    await poller;
    const latencies = [...sent]
      .filter(([key]) => seen.has(key))
      .map(([key, at]) => seen.get(key)! - at)
      .sort((a, b) => a - b);
    lines.push(
      `half rate (${round(rate)}/s open loop): request to aggregate p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms (target < ${TARGET.p99Ms} ms) over ${sent.size} samples, ${sent.size - latencies.length} not seen in 30 s, ${halfRefused} refused`,
      `  ${cpuLine(halfReport, rate)}`,
      `  ${netLine(halfReport, rate)}`,
    );
  }

  // 3. One audit process fed directly: RecordAnalyticsBatch calls as the BFF makes them, without the BFF.
  if (phases.has('direct')) {
    const audit = createGrpcClient(AuditServiceClient, `127.0.0.1:${ports.audit}`, { deadlineMs: 30_000 });
    const tokens = users.map((user) => ({ userUuid: user.userUuid, token: user.authorization.slice('Bearer '.length) }));
    const song = `bench-direct-${randomUUID()}`;
    const batchOf = (c: number, i: number): AnalyticsRecordInput[] =>
      Array.from({ length: directBatch }, (_, j) => {
        const user = tokens[(c * 31 + i * 7 + j) % tokens.length]!;
        return { accessToken: user.token, topic: 'play-tracking', recordJson: JSON.stringify(record(user.userUuid, song).record) };
      });
    let acked = 0;
    let refused = 0;
    let calls = 0;
    const directCpu = startCpuWindow(cpuGroups);
    const started = performance.now();
    const deadline = started + durationSeconds * 1000;
    await Promise.all(
      Array.from({ length: directCalls }, async (_, c) => {
        for (let i = 0; performance.now() < deadline; i += 1) {
          const { results } = await audit.recordAnalyticsBatch({ records: batchOf(c, i) });
          calls += 1;
          for (const result of results) {
            if (result.error) refused += 1;
            else acked += 1;
          }
        }
      }),
    );
    const sentFor = (performance.now() - started) / 1000;
    while ((await counted(song)) < acked) await sleep(20);
    const endToEnd = (performance.now() - started) / 1000;
    const report = directCpu();
    audit.close();
    const rate = acked / endToEnd;
    lines.push(
      `direct to one audit process (${directCalls} x RecordAnalyticsBatch of ${directBatch}, ${calls} calls): ${round(acked)} records acknowledged (${round(acked / sentFor)}/s), ${round(rate)}/s end to end into the aggregates, the consumer ${(endToEnd - sentFor).toFixed(1)} s behind at the end, ${refused} refused`,
      `  ${cpuLine(report, rate)}`,
      `  ${netLine(report, rate)}`,
      `  ${auditLine(report, rate)}`,
    );
  }
  await db.end();

  // 4. Bare kafkajs producer and consumer, same concurrency, messages of a record's size.
  if (phases.has('bare')) {
    const kafka = new Kafka({ clientId: 'kinesis-bench-bare', brokers: infra.KAFKA_BROKERS.split(','), logLevel: logLevel.NOTHING });
    const topic = `kinesis-bench-bare-${randomUUID()}`;
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 3, replicationFactor: -1 }] });
    const consumer = kafka.consumer({ groupId: `kinesis-bench-bare-${randomUUID()}` });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    let consumed = 0;
    await consumer.run({
      eachBatch: async ({ batch }) => {
        consumed += batch.messages.length;
      },
    });
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const value = Buffer.from(JSON.stringify(record(users[0]!.userUuid, 'bare')).padEnd(400, ' '));
    let produced = 0;
    const bareCpu = startCpuWindow(cpuGroups);
    const bareStarted = performance.now();
    const bareDeadline = bareStarted + durationSeconds * 1000;
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        while (performance.now() < bareDeadline) {
          await producer.send({ topic, acks: -1, messages: [{ key: users[c % users.length]!.userUuid, value }] });
          produced += 1;
        }
      }),
    );
    const bareSent = (performance.now() - bareStarted) / 1000;
    while (consumed < produced) await sleep(20);
    const bareEnd = (performance.now() - bareStarted) / 1000;
    const bareReport = bareCpu();
    await producer.disconnect();
    await consumer.disconnect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
    const bareRate = produced / bareEnd;
    lines.push(
      `bare kafkajs: ${round(produced / bareSent)} messages/s acknowledged, ${round(bareRate)}/s produced and consumed${saturationRate > 0 ? `; /kinesis end to end is ${((100 * saturationRate) / bareRate).toFixed(1)}% of it` : ''}`,
      `  ${cpuLine(bareReport, bareRate)}`,
    );
  }

  console.log(
    `\n/kinesis benchmark at ${gitRevision()}, ${new Date().toISOString()}, ${clients} clients, ${durationSeconds} s per phase, phases ${[...phases].join(',')}`,
  );
  for (const line of lines) console.log(line);
}

main()
  .then(() => stopAll())
  .catch(async (error: unknown) => {
    console.error(error);
    await stopAll();
    process.exitCode = 1;
  });
