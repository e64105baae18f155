// /kinesis benchmark (`npm run bench:kinesis`; issue 18, Tests and figures): play-tracking records per
// second end to end (HTTP POST /api/audit-service/kinesis through the BFF, the
// audit service's send acknowledged by Kafka, its consumer's transaction) into
// the play-tracking aggregates, and the time from a request to its record in
// the aggregates at half that rate, beside a bare kafkajs producer and
// consumer moving messages of the same size in the same run.
//
// Starts its own user service (the public key), audit service and BFF, as
// their images run them (bundled), on ports of their own (BENCH_KINESIS_PORT_BASE,
// 50470: user 50471, audit 50479; the BFF on BENCH_KINESIS_BFF_PORT, 18470), on
// the dev profile's infrastructure with databases of their own (*_bench_kinesis)
// and a consumer group of the run's own reading from the run's start.
//
// 1. Saturation: BENCH_KINESIS_CLIENTS (64) closed-loop HTTP clients post
//    totalPlayed records (each a new play id, one song of the run's) for
//    BENCH_DURATION_S (10); records per second is what the aggregates counted
//    over the time from the first request to the last record counted.
// 2. Half rate: an open loop at half the saturation figure for the same time;
//    one record in 20 names a song of its own, and a poller reading
//    `play_total` every 10 ms times it from its request to its row.
// 3. Bare: a kafkajs producer (acks all, idempotent, the same concurrency, one
//    message per send) and a consumer in a group of its own on a topic of the
//    run's own; messages per second from the first send to the last consumed.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TokenIssuer } from '@spinroom/platform';
import { Kafka, logLevel } from 'kafkajs';
import pg from 'pg';
import { databaseUrl, ensureSigningKey, infraUp, localDir } from '../lib/infra.js';
import { startServiceProcess, waitForHttp, type ServiceProcess } from '../lib/processes.js';
import { bffEnvironment, servicePorts, startLocalService, type LocalServices } from '../lib/services.js';
import { startCpuWindow, type CpuGroup, type CpuReport } from './cpu.js';
import { percentile } from './open-loop.js';
import { BENCH_LIMIT_ENV, benchProcesses, gitRevision } from './run.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const clients = num('BENCH_KINESIS_CLIENTS', 64);
const durationSeconds = num('BENCH_DURATION_S', 10);
const ports = { ...servicePorts(num('BENCH_KINESIS_PORT_BASE', 50470)), bff: num('BENCH_KINESIS_BFF_PORT', 18470) };
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
    startLocalService('audit', local, { bundled: true, env: { KAFKA_CONSUMER_GROUP: group, KAFKA_CONSUMER_FROM: 'latest' } }),
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
  const kafkaPid = () => {
    // The broker of the dev profile (deploy/local): its JVM's pid file.
    try {
      return [Number(readFileSync(join(localDir, 'dev/kafka/kafka.pid'), 'utf8').trim())];
    } catch {
      return [];
    }
  };
  const cpuGroups: CpuGroup[] = [
    { name: 'BFF', pids: () => [byName('bff')].filter((pid): pid is number => pid !== undefined) },
    { name: 'audit service', pids: () => [byName('audit')].filter((pid): pid is number => pid !== undefined) },
    { name: 'Kafka', pids: kafkaPid },
    { name: 'load generator', pids: () => [process.pid] },
  ];
  const cpuLine = (report: CpuReport, perSecond: number) =>
    `machine ${report.machineBusyPercent.toFixed(0)}% busy; CPU per record: ${Object.entries(report.cores)
      .map(([name, cores]) => `${name} ${((1000 * cores) / Math.max(perSecond, 1)).toFixed(3)} ms`)
      .join(', ')}`;

  // 1. Saturation.
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
  const saturationReport = saturationCpu();
  const saturation = {
    acked,
    refused,
    ackedPerSecond: acked / sentFor,
    countedPerSecond: acked / endToEnd,
    drainSeconds: endToEnd - sentFor,
  };

  // 2. Half rate, open loop: request to aggregate for one record in 20.
  const rate = Math.max(1, Math.floor(saturation.countedPerSecond / 2));
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
  const halfDeadline = performance.now() + 30_000;
  while (seen.size < sent.size && performance.now() < halfDeadline) await sleep(20);
  poll = false;
  await poller;
  const latencies = [...sent]
    .filter(([key]) => seen.has(key))
    .map(([key, at]) => seen.get(key)! - at)
    .sort((a, b) => a - b);
  const half = {
    rate,
    samples: sent.size,
    unseen: sent.size - latencies.length,
    refused: halfRefused,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
  await db.end();

  // 3. Bare kafkajs producer and consumer, same concurrency, messages of a record's size.
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
  const value = Buffer.from(JSON.stringify(record(users[0]!.userUuid, song)).padEnd(400, ' '));
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
  const bare = { produced, producedPerSecond: produced / bareSent, consumedPerSecond: produced / bareEnd };
  await producer.disconnect();
  await consumer.disconnect();
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.disconnect();

  const round = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(`\n/kinesis benchmark at ${gitRevision()}, ${new Date().toISOString()}, ${clients} clients, ${durationSeconds} s per phase`);
  console.log(
    `saturation: ${round(saturation.acked)} records acknowledged (${round(saturation.ackedPerSecond)}/s), ${round(saturation.countedPerSecond)}/s end to end into the aggregates (target ${round(TARGET.perSecond)}/s), the consumer ${saturation.drainSeconds.toFixed(1)} s behind at the end, ${saturation.refused} refused`,
  );
  console.log(`  ${cpuLine(saturationReport, saturation.countedPerSecond)}`);
  console.log(
    `half rate (${round(half.rate)}/s open loop): request to aggregate p50 ${half.p50.toFixed(0)} ms, p99 ${half.p99.toFixed(0)} ms (target < ${TARGET.p99Ms} ms) over ${half.samples} samples, ${half.unseen} not seen in 30 s, ${half.refused} refused`,
  );
  console.log(
    `bare kafkajs: ${round(bare.producedPerSecond)} messages/s acknowledged, ${round(bare.consumedPerSecond)}/s produced and consumed; /kinesis end to end is ${((100 * saturation.countedPerSecond) / bare.consumedPerSecond).toFixed(1)}% of it`,
  );
  console.log(`  ${cpuLine(bareReport, bare.consumedPerSecond)}`);
}

main()
  .then(() => stopAll())
  .catch(async (error: unknown) => {
    console.error(error);
    await stopAll();
    process.exitCode = 1;
  });
