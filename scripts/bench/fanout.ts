// Notification fan-out benchmark (`npm run bench:fanout`; issue 17, Figures):
// a DJ with BENCH_FANOUT_FANS (10,000) fans takes the stage, and the time until
// every fan's browser got its push through a Web Push service on this machine;
// then follow, unfollow and the fan count through the BFF at
// BENCH_FANOUT_CONNECTIONS (50) closed-loop connections, beside a bare
// PostgreSQL statement on the same rows at the same concurrency, in the same run.
//
// Starts its own user service (the public key), social service and BFF, as
// their images run them (bundled), on ports of their own (BENCH_FANOUT_PORT_BASE,
// 28750: user 28751, social 28758; the BFF on BENCH_FANOUT_BFF_PORT, 18510), on
// the dev profile's infrastructure with a database of their own
// (spinroom_social_bench_fanout, emptied of fans, devices and notifications at
// the start) and consumer groups of the run's own reading from the run's start.
// The Web Push service is web-push-testing (scripts/bench/push-stand-in.ts, a
// process of its own on BENCH_FANOUT_PUSH_PORT, 18511): it checks each push's
// VAPID signature, decrypts its aes128gcm payload and answers 201, as a browser
// vendor's push service does, and counts the pushes per DJ.
//
// A. Fan-out. The fans (fresh uuids) and one web device each, a subscription
//    the stand-in made with the social service's VAPID key, are written
//    straight into the social database (dj_fan, device: setup, not measured).
//    A warm-up DJ with BENCH_FANOUT_WARMUP_FANS (200) takes the stage first.
//    Then the measured DJ takes the stage: the load generator produces the
//    `room.stage-changed` record the room service writes (room-events, keyed by
//    the room, the DJ among the added), and measures from its send to the last
//    fan's push accepted by the stand-in: the fan-out row's creation and end
//    (the audience written to the outbox, 500 a transaction) read from
//    notification_fanout, the first and the last push, pushes per second, the
//    social service's resident memory sampled every 100 ms (its peak minus its
//    value before the event: flat when the audience is streamed), and CPU per
//    push (social service, PostgreSQL, Kafka, the stand-in, this process).
// B. Fans at BENCH_FANOUT_CONNECTIONS closed-loop HTTP connections, each a
//    signed-in user of its own, for BENCH_DURATION_S (10) after BENCH_WARMUP_S (3):
//    - fan count: GET /api/social-service/dj-fans/count/{dj} of the DJ of A
//      (10,000 fans and more); bare: the social store's own count statement
//      (fans and following of the DJ) on a pg pool of the same size;
//    - follow + unfollow: POST /api/social-service/dj-fans {djUuid} then
//      DELETE /api/social-service/dj-fans/{djUuid}, the same DJ, each call an
//      operation; bare: `insert into dj_fan ... on conflict do nothing` then
//      `delete from dj_fan where fan_uuid = $1 and dj_uuid = $2`, autocommit.
//    Bare runs bracket each BFF run (bare, BFF, bare again: the ratio is to
//    their mean). Operations per second, p50/p99, CPU per operation (social
//    service, BFF, PostgreSQL, this process).
//
// Knobs: BENCH_FANOUT_FANS, BENCH_FANOUT_WARMUP_FANS, BENCH_FANOUT_CONNECTIONS,
// BENCH_DURATION_S, BENCH_WARMUP_S, BENCH_FANOUT_TIMEOUT_S (300: how long A
// waits for the last push), BENCH_FANOUT_SCENARIOS (fanout,fans: either or
// both), BENCH_FANOUT_PORT_BASE, BENCH_FANOUT_BFF_PORT, BENCH_FANOUT_PUSH_PORT,
// BENCH_CPU_PROF=<dir> (a V8 CPU profile of the social service under
// <dir>/social; summarise it with scripts/bench/profile-summary.ts).
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { StageChanged } from '@spinroom/contracts/events/v1/room_events';
import { TokenIssuer } from '@spinroom/platform';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import pg from 'pg';
import { databaseUrl, ensureSigningKey, infraUp, localDir, repoRoot } from '../lib/infra.js';
import { managed, startServiceProcess, waitForHttp, type ServiceProcess } from '../lib/processes.js';
import { bffEnvironment, serviceEnvironment, servicePorts, startLocalService, type LocalServices } from '../lib/services.js';
import { closedLoop as runClosedLoop, timed, type ClosedLoopResult, type ClosedLoopStep } from './closed-loop.js';
import { postgresPids, startCpuWindow, type CpuGroup, type CpuReport } from './cpu.js';
import { percentile } from './open-loop.js';
import type { StandInCommand, StandInReply } from './push-stand-in.js';
import { BENCH_LIMIT_ENV, assertPortFree, benchProcesses, gitRevision } from './run.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const fanCount = num('BENCH_FANOUT_FANS', 10_000);
const warmupFans = num('BENCH_FANOUT_WARMUP_FANS', 200);
const connections = num('BENCH_FANOUT_CONNECTIONS', 50);
const durationSeconds = num('BENCH_DURATION_S', 10);
const warmupSeconds = num('BENCH_WARMUP_S', 3);
const timeoutSeconds = num('BENCH_FANOUT_TIMEOUT_S', 300);
const scenarios = new Set((process.env.BENCH_FANOUT_SCENARIOS ?? 'fanout,fans').split(',').map((s) => s.trim()));
const cpuProfileDir = process.env.BENCH_CPU_PROF;
const ports = { ...servicePorts(num('BENCH_FANOUT_PORT_BASE', 28750)), bff: num('BENCH_FANOUT_BFF_PORT', 18510) };
const pushPort = num('BENCH_FANOUT_PUSH_PORT', 18511);
const TARGET = { seconds: 60 };
const SUFFIX = '_bench_fanout';
const processes = benchProcesses<ServiceProcess>();
const { children, stopAll } = processes;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Resident memory of a process, MiB (VmRSS). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}

/** A process's pid from its pid file (PostgreSQL's postmaster.pid, Kafka's kafka.pid), if it is there. */
function pidFrom(path: string): number | undefined {
  if (!existsSync(path)) return undefined;
  const pid = Number(readFileSync(path, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** The Web Push stand-in, a child process answering one command at a time. */
class PushStandIn {
  private readonly waiting: Array<(reply: StandInReply) => void> = [];
  readonly process: ServiceProcess;
  readonly ready: Promise<string>;

  constructor(port: number) {
    const child = fork(join(repoRoot, 'scripts/bench/push-stand-in.ts'), [], {
      cwd: repoRoot,
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.process = managed('push stand-in', child);
    this.ready = new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the push stand-in exited (code ${code})`)));
      child.on('message', (reply: StandInReply) => {
        if (reply.type === 'ready') resolve(reply.base);
        else this.waiting.shift()?.(reply);
      });
    });
    child.once('exit', (code) => {
      if (!processes.stopping) console.error(`the push stand-in exited (code ${code})`);
    });
  }

  send<T extends StandInReply['type']>(command: StandInCommand): Promise<Extract<StandInReply, { type: T }>> {
    return new Promise((resolve) => {
      this.waiting.push(resolve as (reply: StandInReply) => void);
      this.process.child.send(command);
    });
  }
}

/** The closed loop at BENCH_FANOUT_CONNECTIONS connections and this run's timing. */
const closedLoop = (label: string, cpuGroups: CpuGroup[], step: ClosedLoopStep) =>
  runClosedLoop({ label, workers: connections, warmupSeconds, durationSeconds, cpuGroups, step });

async function main() {
  for (const port of [ports.user, ports.social, ports.bff, pushPort]) await assertPortFree(port);
  const infra = infraUp('dev');
  const local: LocalServices = { infra, ports, suffix: SUFFIX, common: { LOG_LEVEL: 'warn', ...BENCH_LIMIT_ENV } };

  const standIn = new PushStandIn(pushPort);
  children.push(standIn.process);
  const pushBase = await standIn.ready;

  const socialEnv: Record<string, string> = {
    ...serviceEnvironment('social', local),
    // Groups of the run's own, from the run's start: the dev profile's topics are shared.
    KAFKA_CONSUMER_GROUP: `social-bench-fanout-${randomUUID()}`,
    KAFKA_CONSUMER_FROM: 'latest',
    WEB_PUSH_PLAIN_HTTP_ORIGINS: new URL(pushBase).origin,
  };
  const social = startServiceProcess('social', 'services/social/src/main.ts', socialEnv, {
    bundled: true,
    nodeArgs: cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(cpuProfileDir, 'social')}`] : [],
  });
  children.push(
    startLocalService('user', local, { bundled: true }),
    social,
    startServiceProcess('bff', 'bff/src/main.ts', bffEnvironment(local, ports.bff), { bundled: true }),
  );
  const bff = `http://127.0.0.1:${ports.bff}`;
  const exited = () => children.map((c) => (c.child.exitCode !== null ? `${c.name} exited` : '')).find(Boolean);
  await waitForHttp(`${bff}/healthz`, 120_000, exited);
  const issuer = await TokenIssuer.fromPem(ensureSigningKey('dev').pem, { issuer: 'spinroom', ttlSeconds: 3600 });
  const signIn = async () => {
    const userUuid = randomUUID();
    return { userUuid, authorization: `Bearer ${await issuer.sign({ sub: userUuid, role: 'user', capabilities: [] })}` };
  };
  const call = async (method: string, path: string, authorization: string, body?: unknown) => {
    const res = await fetch(`${bff}/api/social-service${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
    return text;
  };
  // Up: the BFF holds the key and the social service answers (it starts after its consumers joined their groups).
  const probe = await signIn();
  for (let i = 0; ; i += 1) {
    try {
      await call('GET', `/dj-fans/count/${probe.userUuid}`, probe.authorization);
      break;
    } catch (error) {
      if (i > 240 || exited()) throw new Error(`the social service did not come up (${exited() ?? String(error)})`);
      await sleep(500);
    }
  }

  const db = new pg.Pool({ connectionString: databaseUrl(infra, `spinroom_social${SUFFIX}`), max: connections });
  await db.query(
    `truncate "dj_fan", "device", "notification_fanout", "dj_stage_digest", "notification_preference", "room_seat_watch", "processed_event"`,
  );
  await db.query(`delete from "outbox_message" where "published_at" is not null`);

  const postgresPid = pidFrom(join(localDir, 'dev/postgres/data/postmaster.pid'));
  const kafkaPid = pidFrom(join(localDir, 'dev/kafka/kafka.pid'));
  const groups = {
    social: { name: 'social service', pids: () => [social.child.pid!] },
    bff: { name: 'BFF', pids: () => [children.find((c) => c.name === 'bff')!.child.pid!] },
    postgres: postgresPid ? [{ name: 'PostgreSQL', pids: () => postgresPids(postgresPid) }] : [],
    kafka: kafkaPid ? [{ name: 'Kafka', pids: () => [kafkaPid] }] : [],
    standIn: { name: 'push stand-in', pids: () => [standIn.process.child.pid!] },
    load: { name: 'load generator', pids: () => [process.pid] },
  };

  const vapidKey = socialEnv.VAPID_PUBLIC_KEY!;
  const djUuid = randomUUID();
  let fanOut: FanOutResult | undefined;
  let fansResults: FansResults | undefined;

  // --- A. Fan-out ---
  if (scenarios.has('fanout')) {
    const kafka = new Kafka({ clientId: 'fanout-bench', brokers: infra.KAFKA_BROKERS.split(','), logLevel: logLevel.NOTHING });
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    /** The DJ's fans, each with one web device subscribed at the stand-in. */
    const seed = async (dj: string, count: number) => {
      const { subscriptions } = await standIn.send<'subscribed'>({ type: 'subscribe', count, applicationServerKey: vapidKey });
      const fans = subscriptions.map(() => randomUUID());
      const now = new Date();
      await db.query(
        `insert into "dj_fan" ("id", "fan_uuid", "dj_uuid", "created_at") select gen_random_uuid(), unnest($1::uuid[]), $2, $3`,
        [fans, dj, now],
      );
      await db.query(
        `insert into "device" ("id", "user_uuid", "token", "type", "web_push_p256dh", "web_push_auth", "created_at", "updated_at")
         select gen_random_uuid(), unnest($1::uuid[]), unnest($2::text[]), 'web', unnest($3::text[]), unnest($4::text[]), $5, $5`,
        [fans, subscriptions.map((s) => s.endpoint), subscriptions.map((s) => s.p256dh), subscriptions.map((s) => s.auth), now],
      );
    };
    const takeStage = async (dj: string) => {
      const roomUuid = randomUUID();
      const metadata = { eventId: randomUUID(), eventType: 'room.stage-changed', occurredAt: new Date() };
      const value = StageChanged.encode({
        metadata,
        roomUuid,
        roomSlug: 'fanout-bench',
        roomName: 'Fan-out bench',
        addedDjUuids: [dj],
        removedDjUuids: [],
        djUuids: [dj],
        numberOfDjs: 5,
      }).finish();
      await producer.send({
        topic: 'room-events',
        acks: -1,
        messages: [
          { key: roomUuid, value: Buffer.from(value), headers: { 'event-id': metadata.eventId, 'event-type': metadata.eventType } },
        ],
      });
    };
    const untilTold = async (dj: string, count: number, sentAt: number, onTick?: () => void) => {
      for (;;) {
        const stats = await standIn.send<'stats'>({ type: 'stats', djUuid: dj });
        if (stats.delivered >= count || Date.now() - sentAt > timeoutSeconds * 1000 || exited()) return stats;
        onTick?.();
        await sleep(100);
      }
    };

    const warmDj = randomUUID();
    await seed(warmDj, warmupFans);
    await seed(djUuid, fanCount);
    await db.query(`vacuum analyze "dj_fan"`);
    await db.query(`vacuum analyze "device"`);
    const warmSent = Date.now();
    await takeStage(warmDj);
    const warm = await untilTold(warmDj, warmupFans, warmSent);
    if (warm.delivered < warmupFans)
      throw new Error(`warm-up: ${warm.delivered} of ${warmupFans} pushes arrived (${exited() ?? 'timeout'})`);
    await sleep(2000); // the warm-up's consumer commits and relay settle

    const rssBefore = rssMb(social.child.pid!);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, rssMb(social.child.pid!));
    }, 100);
    const cpuGroups: CpuGroup[] = [groups.social, ...groups.postgres, ...groups.kafka, groups.standIn, groups.load];
    const endCpu = startCpuWindow(cpuGroups);
    const sentAt = Date.now();
    await takeStage(djUuid);
    const stats = await untilTold(djUuid, fanCount, sentAt);
    const cpu = endCpu();
    clearInterval(sampler);
    const rssAfter = rssMb(social.child.pid!);
    await sleep(1000);
    const late = await standIn.send<'stats'>({ type: 'stats', djUuid });
    const [row] = (
      await db.query<{ created_at: Date; finished_at: Date | null; sent: number }>(
        `select "created_at", "finished_at", "sent" from "notification_fanout" where "subject_uuid" = $1`,
        [djUuid],
      )
    ).rows;
    await producer.disconnect();
    fanOut = {
      sentAt,
      stats: late,
      doneAt: stats.lastAt,
      fanOutCreatedAt: row?.created_at.getTime() ?? null,
      fanOutFinishedAt: row?.finished_at?.getTime() ?? null,
      written: row?.sent ?? 0,
      rss: { before: rssBefore, peak: rssPeak, after: rssAfter },
      cpu,
      cpuGroups,
    };
  } else {
    // B's DJ has the fans all the same.
    const fans = Array.from({ length: fanCount }, () => randomUUID());
    await db.query(
      `insert into "dj_fan" ("id", "fan_uuid", "dj_uuid", "created_at") select gen_random_uuid(), unnest($1::uuid[]), $2, now()`,
      [fans, djUuid],
    );
    await db.query(`vacuum analyze "dj_fan"`);
  }

  // --- B. Follow, unfollow and the fan count at `connections` connections ---
  if (scenarios.has('fans')) {
    const cpuGroups: CpuGroup[] = [groups.social, groups.bff, ...groups.postgres, groups.load];
    const users = await Promise.all(Array.from({ length: connections }, signIn));
    const bareFans = Array.from({ length: connections }, () => randomUUID());
    const results: ClosedLoopResult[] = [];
    const pair = async (what: string, bare: ClosedLoopStep, service: ClosedLoopStep) => {
      const before = await closedLoop(`bare, ${what}`, cpuGroups, bare);
      const measured = await closedLoop(`BFF, ${what}`, cpuGroups, service);
      const after = await closedLoop(`bare again, ${what}`, cpuGroups, bare);
      results.push(before, measured, after);
      return { measured, bareMean: (before.ops / before.seconds + after.ops / after.seconds) / 2 };
    };
    const count = await pair(
      'fan count',
      (record) =>
        timed(record, async () => {
          const { rows } = await db.query<{ fans: string }>(
            `select (select count(*) from "dj_fan" where "dj_uuid" = $1) as "fans", (select count(*) from "dj_fan" where "fan_uuid" = $1) as "following"`,
            [djUuid],
          );
          if (Number(rows[0]?.fans) < fanCount) throw new Error(`bare count ${rows[0]?.fans}`);
        }),
      (record, worker) =>
        timed(record, async () => {
          const body = JSON.parse(await call('GET', `/dj-fans/count/${djUuid}`, users[worker]!.authorization)) as { count: number };
          if (body.count < fanCount) throw new Error(`count ${body.count}`);
        }),
    );
    const follow = await pair(
      'follow + unfollow',
      async (record, worker) => {
        const fan = bareFans[worker]!;
        await timed(record, () =>
          db.query(
            `insert into "dj_fan" ("id", "fan_uuid", "dj_uuid", "created_at") values (gen_random_uuid(), $1, $2, now()) on conflict ("dj_uuid", "fan_uuid") do nothing`,
            [fan, djUuid],
          ),
        );
        await timed(record, async () => {
          const { rowCount } = await db.query(`delete from "dj_fan" where "fan_uuid" = $1 and "dj_uuid" = $2`, [fan, djUuid]);
          if (rowCount !== 1) throw new Error('bare unfollow deleted nothing');
        });
      },
      async (record, worker) => {
        const { authorization } = users[worker]!;
        await timed(record, () => call('POST', '/dj-fans', authorization, { djUuid }));
        await timed(record, () => call('DELETE', `/dj-fans/${djUuid}`, authorization));
      },
    );
    fansResults = { results, count, follow, cpuGroups };
  }

  const load = loadavg();
  await db.end();
  await stopAll();
  report(fanOut, fansResults, load);
}

interface FanOutResult {
  sentAt: number;
  stats: Extract<StandInReply, { type: 'stats' }>;
  doneAt: number | null;
  fanOutCreatedAt: number | null;
  fanOutFinishedAt: number | null;
  written: number;
  rss: { before: number; peak: number; after: number };
  cpu: CpuReport;
  cpuGroups: CpuGroup[];
}

interface FansResults {
  results: ClosedLoopResult[];
  count: { measured: ClosedLoopResult; bareMean: number };
  follow: { measured: ClosedLoopResult; bareMean: number };
  cpuGroups: CpuGroup[];
}

function report(fanOut: FanOutResult | undefined, fans: FansResults | undefined, load: number[]) {
  const lines = [
    '',
    `Run ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} at ${gitRevision()}, \`npm run bench:fanout\` (scripts/bench/fanout.ts), Node ${process.version}, ${cpus().length} cores, load average at the end ${load.map((l) => l.toFixed(2)).join(' ')}.`,
  ];
  if (fanOut) {
    const since = (at: number | null) => (at === null ? 'never' : `${fmt((at - fanOut.sentAt) / 1000, 2)} s`);
    const { stats } = fanOut;
    const all = stats.delivered >= fanCount;
    const seconds = fanOut.doneAt === null ? Number.NaN : (fanOut.doneAt - fanOut.sentAt) / 1000;
    const elapsed = ((fanOut.doneAt ?? Date.now()) - fanOut.sentAt) / 1000;
    const cpuPerPush = fanOut.cpuGroups
      .map((g) => `${g.name} ${fmt(((fanOut.cpu.cores[g.name] ?? 0) * elapsed * 1000) / Math.max(1, stats.delivered), 2)}`)
      .join(', ');
    const cores = fanOut.cpuGroups.map((g) => `${g.name} ${fmt(fanOut.cpu.cores[g.name] ?? 0, 2)}`).join(', ');
    lines.push(
      '',
      `A. Fan-out: a DJ with ${fmt(fanCount)} fans (one web device each) takes the stage.`,
      '',
      `| from the room.stage-changed send to | |`,
      `|---|--:|`,
      `| the fan-out row (the digest claimed, in the event's transaction) | ${since(fanOut.fanOutCreatedAt)} |`,
      `| the fan-out written (${fmt(fanOut.written)} notifications in the outbox, 500 a transaction) | ${since(fanOut.fanOutFinishedAt)} |`,
      `| the first push accepted by the push service | ${since(stats.firstAt)} |`,
      `| the last fan's push accepted | ${since(fanOut.doneAt)} |`,
      '',
      `- ${fmt(stats.delivered)} of ${fmt(fanCount)} fans got their push${all ? '' : ` (${timeoutSeconds} s timeout)`}, ${stats.again} twice, ${stats.refused} refused by the push service; ${fmt(stats.delivered / elapsed)} pushes/s from the event, ${stats.firstAt !== null && fanOut.doneAt !== null && fanOut.doneAt > stats.firstAt ? fmt(stats.delivered / ((fanOut.doneAt - stats.firstAt) / 1000)) : '-'} pushes/s from the first push.`,
      `- Social service resident memory: ${fmt(fanOut.rss.before, 1)} MiB before the event, peak ${fmt(fanOut.rss.peak, 1)} MiB (+${fmt(fanOut.rss.peak - fanOut.rss.before, 1)} MiB), ${fmt(fanOut.rss.after, 1)} MiB at the end.`,
      `- CPU ms per push: ${cpuPerPush}; cores busy on average: ${cores}; machine ${fmt(fanOut.cpu.machineBusyPercent)}% busy (user ${fmt(fanOut.cpu.machine.user)}%, system ${fmt(fanOut.cpu.machine.system)}%, softirq ${fmt(fanOut.cpu.machine.softirq)}%, steal ${fmt(fanOut.cpu.machine.steal)}%).`,
      `- Against the target (every fan's push within ${TARGET.seconds} s): ${all && seconds <= TARGET.seconds ? 'met' : 'not met'} (${all ? `${fmt(seconds, 1)} s` : `${fmt(stats.delivered)} of ${fmt(fanCount)}`}).`,
    );
  }
  if (fans) {
    const rate = (r: ClosedLoopResult) => r.ops / r.seconds;
    const line = (r: ClosedLoopResult) =>
      `| ${r.label} | ${fmt(rate(r))} | ${fmt(percentile(r.latencies, 50), 1)} | ${fmt(percentile(r.latencies, 99), 1)} | ${r.errors} | ${fans.cpuGroups
        .map((g) => fmt(r.cpuMsPerOp[g.name] ?? 0, 3))
        .join(' | ')} | ${fmt(r.machineBusy)}% |`;
    const ratio = (p: { measured: ClosedLoopResult; bareMean: number }) =>
      `${fmt(100 * (rate(p.measured) / p.bareMean))}% of bare (mean of the bare runs around it: ${fmt(p.bareMean)} ops/s), p99 ${fmt(percentile(p.measured.latencies, 99), 1)} ms`;
    lines.push(
      '',
      `B. Fans at ${connections} closed-loop connections, ${warmupSeconds} s warm-up, ${durationSeconds} s measured per run; an operation is one HTTP call through the BFF (follow and unfollow count one each) or one bare statement.`,
      '',
      `| scenario | ops/s | p50 ms | p99 ms | errors | ${fans.cpuGroups.map((g) => `CPU ms/op ${g.name}`).join(' | ')} | machine busy |`,
      `|---|--:|--:|--:|--:|${fans.cpuGroups.map(() => '--:').join('|')}|--:|`,
      ...fans.results.map(line),
      '',
      `- fan count: ${ratio(fans.count)}`,
      `- follow + unfollow: ${ratio(fans.follow)}`,
    );
  }
  console.log(lines.join('\n'));
}

main()
  .then(() => process.exit(0))
  .catch(async (error: unknown) => {
    console.error(error);
    await stopAll();
    process.exit(1);
  });
