// Token ledger benchmark (`npm run bench` runs it after the others; issue 16,
// Tests and figures): holds plus commits per second through the points
// service's gRPC API, as the BFF and the services call it, beside a bare
// PostgreSQL conditional debit of the same rows in the same run.
//
// Starts its own user service (the public key, service tokens) and points
// service, as their images run them (bundled), on ports of their own, on the
// dev profile's infrastructure with databases of their own
// (spinroom_user_bench_ledger, spinroom_points_bench_ledger). Makes 1,001 fresh
// token accounts (one hot, 1,000 others), each credited far more than the run
// spends, and a bare table (ledger_bench_bare: id, balance) holding the same
// ids and balances in the same database. Then, at BENCH_LEDGER_WRITERS (32)
// closed-loop writers each, for BENCH_DURATION_S (10) after BENCH_WARMUP_S (3):
//
// - ledger, hot account: each writer holds 1 token and commits the hold, again
//   and again, all on one account, with its owner's access token (what the BFF
//   forwards); an operation is one gRPC write (a hold or a commit);
// - ledger, 1,000 accounts: the same on an account drawn at random per hold,
//   with the service token the user service issues, through the client the room
//   service's entry fees use (the platform's TokenWriter): the writes the 32
//   writers ask for within one turn of the event loop go in one WriteTokens call
//   (each writer still awaits its own answer), as a room's concurrent paid joins do;
// - with BENCH_LEDGER_UNARY=1, also ledger, 1,000 accounts, unary: the same writes
//   as one HoldTokens or CommitHold call each (the calls before WriteTokens), between
//   the same bare runs;
// - bare, hot row / 1,000 rows: `update ledger_bench_bare set balance = balance - $1
//   where id = $2 and balance >= $1`, autocommit, on a pg pool of the same size.
//
// Each scenario reports operations per second, p50/p99 latency and CPU per
// operation (points service process, PostgreSQL, this load generator), and the
// ledger's ratio to the bare figure of the same rows, and how many writes a batch
// (group commit) took on average in each ledger window, and the writes a WriteTokens
// call carried. Bare runs bracket the
// ledger runs (bare, ledger, bare again: the ratio is to their mean).
// Knobs: BENCH_LEDGER_UNARY, BENCH_LEDGER_WRITERS, BENCH_DURATION_S, BENCH_WARMUP_S,
// BENCH_LEDGER_ACCOUNTS (1000), BENCH_LEDGER_USER_PORT (28551), BENCH_LEDGER_POINTS_PORT (28556),
// BENCH_CPU_PROF=<dir> (a V8 CPU profile of the points service under <dir>/points;
// summarise it with scripts/bench/profile-summary.ts), BENCH_LEDGER_PG_SOCKET=1 (the
// points service and the bare debit reach PostgreSQL over its Unix socket, the dev
// profile's .local/dev/postgres/run, instead of loopback TCP), BENCH_LEDGER_POINTS_NODE_OPTIONS
// (the points service's NODE_OPTIONS instead of the chart's --max-semi-space-size=8; empty: V8's
// defaults), BENCH_LEDGER_POINTS_NODE_ARGS (more node flags for it, as --trace-gc).
//
// The points service reads the dev profile's Kafka topics, where other runs on the
// machine write: it starts in a consumer group of its own at the topics' end (no
// backlog), and the events it still handled during each ledger window are reported.
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { TokenServiceClient, type WriteTokensRequest } from '@spinroom/contracts/points/v1/tokens';
import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { createGrpcClient, TokenIssuer, TokenWriter, type CallSettings } from '@spinroom/platform';
import { SERVICE_NAMES, type ServiceName } from '@spinroom/platform/core';
import pg from 'pg';
import { databaseUrl, ensureSecret, ensureSigningKey, infraUp, localDir } from '../lib/infra.js';
import { serviceEnvironment, startLocalService, type LocalServices } from '../lib/services.js';
import { startServiceProcess, type ServiceProcess } from '../lib/processes.js';
import { closedLoop as runClosedLoop, timed, type ClosedLoopResult, type ClosedLoopStep } from './closed-loop.js';
import { postgresPids, type CpuGroup } from './cpu.js';
import { percentile } from './open-loop.js';
import { BENCH_LIMIT_ENV, benchProcesses, gitRevision } from './run.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const writers = num('BENCH_LEDGER_WRITERS', 32);
const durationSeconds = num('BENCH_DURATION_S', 10);
const warmupSeconds = num('BENCH_WARMUP_S', 3);
const accountCount = num('BENCH_LEDGER_ACCOUNTS', 1000);
const cpuProfileDir = process.env.BENCH_CPU_PROF;
const withUnary = Boolean(process.env.BENCH_LEDGER_UNARY);
/** The points service's NODE_OPTIONS instead of the chart's (npm start's, scripts/lib/services.ts); empty: V8's defaults. */
const pointsNodeOptions = process.env.BENCH_LEDGER_POINTS_NODE_OPTIONS;
const TARGET = { ratio: 0.5, p99Ms: 15 };
const SUFFIX = '_bench_ledger';
const ports = Object.fromEntries(SERVICE_NAMES.map((name, i) => [name, 28550 + i])) as Record<ServiceName, number>;
ports.user = num('BENCH_LEDGER_USER_PORT', 28551);
ports.points = num('BENCH_LEDGER_POINTS_PORT', 28556);

const { children, stopAll } = benchProcesses<ServiceProcess>();

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The database URL as the run reaches it: over the dev profile's Unix socket when BENCH_LEDGER_PG_SOCKET is set (the host, percent-encoded, is its directory). */
function pgUrl(url: string): string {
  if (!process.env.BENCH_LEDGER_PG_SOCKET) return url;
  const socketDir = join(localDir, 'dev/postgres/run');
  if (!existsSync(socketDir)) throw new Error(`BENCH_LEDGER_PG_SOCKET: no socket directory at ${socketDir}`);
  return url.replace(/@[^/]+:(\d+)\//, (_, port: string) => `@${encodeURIComponent(socketDir)}:${port}/`);
}

/** The closed loop at BENCH_LEDGER_WRITERS writers and this run's timing. */
const closedLoop = (label: string, cpuGroups: CpuGroup[], step: ClosedLoopStep) =>
  runClosedLoop({ label, workers: writers, warmupSeconds, durationSeconds, cpuGroups, step });

async function main() {
  const infra = infraUp('dev');
  const local: LocalServices = { infra, ports, suffix: SUFFIX, common: { LOG_LEVEL: 'warn', ...BENCH_LIMIT_ENV } };
  const user = startLocalService('user', local, { bundled: true });
  const pointsDatabaseUrl = pgUrl(databaseUrl(infra, `spinroom_points${SUFFIX}`));
  const pointsEnv = {
    ...serviceEnvironment('points', local),
    DATABASE_URL: pointsDatabaseUrl,
    KAFKA_CONSUMER_GROUP: `points-bench-ledger-${Date.now()}`,
    KAFKA_CONSUMER_FROM: 'latest',
    ...(pointsNodeOptions === undefined ? {} : { NODE_OPTIONS: pointsNodeOptions }),
  };
  const points = startServiceProcess('points', 'services/points/src/main.ts', pointsEnv, {
    bundled: true,
    nodeArgs: [
      ...(cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(cpuProfileDir, 'points')}`] : []),
      ...(process.env.BENCH_LEDGER_POINTS_NODE_ARGS ?? '').split(' ').filter(Boolean),
    ],
  });
  children.push(user, points);
  const exited = () => children.find((c) => c.child.exitCode !== null);

  const users = createGrpcClient(UserServiceClient, `127.0.0.1:${ports.user}`);
  const tokens = createGrpcClient(TokenServiceClient, `127.0.0.1:${ports.points}`, { deadlineMs: 10_000 });
  const clientSecret = ensureSecret('dev', 'service-client-secret');
  const service = await untilUp(async () => (await users.issueServiceToken({ serviceName: 'room', clientSecret })).accessToken, exited);
  // Users' access tokens, signed with the user service's key as its login does.
  const issuer = await TokenIssuer.fromPem(ensureSigningKey('dev').pem, { issuer: 'spinroom', ttlSeconds: 3600 });
  await untilUp(
    () =>
      tokens.getTokenAccount({ accountId: randomUUID() }, { token: service }).catch((error: { status?: number }) => {
        if (error.status !== 404) throw error;
      }),
    exited,
  );

  // Fresh accounts, credited far beyond what the run spends.
  const make = async (credit: number) => {
    const userUuid = randomUUID();
    const { account } = await tokens.createTokenAccount({ userUuid }, { token: service });
    await tokens.creditTokens(
      { accountId: account!.id, userUuid: '', amount: credit, reason: 'bench', reference: '', idempotencyKey: randomUUID() },
      { token: service },
    );
    return { id: account!.id, token: await issuer.sign({ sub: userUuid, role: 'user', capabilities: [] }) };
  };
  const hot = await make(1_000_000_000);
  const many: Array<{ id: string }> = [];
  for (let i = 0; i < accountCount; i += 50)
    many.push(...(await Promise.all(Array.from({ length: Math.min(50, accountCount - i) }, () => make(10_000_000)))));

  // The bare table: the same ids and balances, in the same database.
  const pool = new pg.Pool({ connectionString: pointsDatabaseUrl, max: writers });
  await pool.query(
    `create table if not exists "ledger_bench_bare" ("id" uuid primary key, "balance" bigint not null check ("balance" >= 0))`,
  );
  await pool.query(`truncate "ledger_bench_bare"`);
  await pool.query(`insert into "ledger_bench_bare" ("id", "balance") select unnest($1::uuid[]), unnest($2::bigint[])`, [
    [hot.id, ...many.map((a) => a.id)],
    [1_000_000_000, ...many.map(() => 10_000_000)],
  ]);
  await pool.query(`vacuum analyze "ledger_bench_bare"`);

  const postmasterPidFile = join(localDir, 'dev/postgres/data/postmaster.pid');
  const postmasterPid = existsSync(postmasterPidFile) ? Number(readFileSync(postmasterPidFile, 'utf8').split('\n')[0]) : undefined;
  const cpuGroups: CpuGroup[] = [
    { name: 'points service', pids: () => [points.child.pid!] },
    ...(postmasterPid ? [{ name: 'PostgreSQL', pids: () => postgresPids(postmasterPid) }] : []),
    { name: 'load generator', pids: () => [process.pid] },
  ];
  const pick = () => many[Math.floor(Math.random() * many.length)]!;

  const bare = (label: string, row: () => string) =>
    closedLoop(label, cpuGroups, (record) =>
      timed(record, async () => {
        const { rowCount } = await pool.query(
          `update "ledger_bench_bare" set "balance" = "balance" - $1 where "id" = $2 and "balance" >= $1`,
          [1, row()],
        );
        if (rowCount !== 1) throw new Error('bare debit refused');
      }),
    );
  // The room service's client: one per process, the service's token, the writes of a turn in one call (counted here).
  const calls = { count: 0, writes: 0 };
  const writer = new TokenWriter(
    {
      writeTokens: (request: WriteTokensRequest, settings?: CallSettings) => {
        calls.count += 1;
        calls.writes += request.writes.length;
        return tokens.writeTokens(request, settings);
      },
    },
    () => service,
  );
  const batched = (label: string) =>
    closedLoop(label, cpuGroups, async (record) => {
      const { id } = pick();
      let holdId = '';
      await timed(record, async () => {
        const { transaction } = await writer.hold({
          accountId: id,
          userUuid: '',
          amount: 1,
          ttlSeconds: 600,
          reference: '',
          idempotencyKey: randomUUID(),
        });
        holdId = transaction.id;
      });
      await timed(record, () => writer.commit({ holdId, amount: 0, idempotencyKey: randomUUID() }));
    });
  const ledger = (label: string, account: () => { id: string; token: string }) =>
    closedLoop(label, cpuGroups, async (record) => {
      const { id, token } = account();
      let holdId = '';
      await timed(record, async () => {
        const { transaction } = await tokens.holdTokens(
          { accountId: id, userUuid: '', amount: 1, ttlSeconds: 600, reference: '', idempotencyKey: randomUUID() },
          { token },
        );
        holdId = transaction!.id;
      });
      await timed(record, () => tokens.commitHold({ holdId, amount: 0, idempotencyKey: randomUUID() }, { token }));
    });

  const results: ClosedLoopResult[] = [];
  const consumed = async () => Number((await pool.query<{ n: string }>(`select count(*) as "n" from "processed_event"`)).rows[0]!.n);
  const events: string[] = [];
  // Writes a batch: the ledger rows a window appended per database transaction that appended them (their distinct xmin),
  // warm-up included.
  const lastSeq = async () =>
    Number((await pool.query<{ seq: string | null }>(`select max("seq") as "seq" from "token_transaction"`)).rows[0]!.seq ?? 0);
  const perBatch = async (after: number) => {
    const { rows } = await pool.query<{ rows: string; batches: string }>(
      `select count(*) as "rows", count(distinct xmin::text) as "batches" from "token_transaction" where "seq" > $1`,
      [after],
    );
    return Number(rows[0]!.rows) / Math.max(1, Number(rows[0]!.batches));
  };
  const batches: string[] = [];
  const perCall: string[] = [];
  /** Bare, the ledger runs (each with its label and loop), bare again: each ledger run against the mean of the two bare runs. */
  type LedgerRun = [label: string, run: (label: string) => Promise<ClosedLoopResult>];
  const pair = async (what: string, row: () => string, runs: LedgerRun[]) => {
    const before = await bare(`bare, ${what}`, row);
    const measured: ClosedLoopResult[] = [];
    for (const [label, run] of runs) {
      const eventsBefore = await consumed();
      const seqBefore = await lastSeq();
      const callsBefore = { ...calls };
      measured.push(await run(label));
      batches.push(`${label}: ${fmt(await perBatch(seqBefore), 1)}`);
      events.push(`${label}: ${fmt((await consumed()) - eventsBefore)}`);
      if (calls.count > callsBefore.count) {
        perCall.push(`${label}: ${fmt((calls.writes - callsBefore.writes) / (calls.count - callsBefore.count), 1)}`);
      }
    }
    const after = await bare(`bare again, ${what}`, row);
    results.push(before, ...measured, after);
    const bareMean = (before.ops / before.seconds + after.ops / after.seconds) / 2;
    return measured.map((result) => ({ measured: result, bareMean }));
  };
  const hotPair = await pair('one hot account', () => hot.id, [['ledger, one hot account', (label) => ledger(label, () => hot)]]);
  const spread = `${accountCount.toLocaleString('en-US')} accounts`;
  const manyPair = await pair(spread, () => pick().id, [
    [`ledger, ${spread}`, batched],
    ...(withUnary
      ? [[`ledger, ${spread}, unary`, (label) => ledger(label, () => ({ id: pick().id, token: service }))] satisfies LedgerRun]
      : []),
  ]);

  await pool.end();
  tokens.close();
  users.close();
  await stopAll();

  const rate = (r: ClosedLoopResult) => r.ops / r.seconds;
  const line = (r: ClosedLoopResult) =>
    `| ${r.label} | ${fmt(rate(r))} | ${fmt(percentile(r.latencies, 50), 1)} | ${fmt(percentile(r.latencies, 99), 1)} | ${r.errors} | ${cpuGroups
      .map((g) => fmt(r.cpuMsPerOp[g.name] ?? 0, 3))
      .join(' | ')} | ${fmt(r.machineBusy)}% |`;
  const verdict = (p: { measured: ClosedLoopResult; bareMean: number }) => {
    const ratio = rate(p.measured) / p.bareMean;
    const p99 = percentile(p.measured.latencies, 99);
    const met = ratio >= TARGET.ratio && p99 < TARGET.p99Ms;
    return `${fmt(100 * ratio)}% of bare (mean of the bare runs around it: ${fmt(p.bareMean)} ops/s), p99 ${fmt(p99, 1)} ms: ${met ? 'met' : 'not met'}`;
  };
  console.log(`
Run ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} at ${gitRevision()}, \`npm run bench\` (scripts/bench/ledger.ts), Node ${process.version}, ${cpus().length} cores;
${writers} writers, ${warmupSeconds} s warm-up, ${durationSeconds} s measured per scenario, PostgreSQL over ${process.env.BENCH_LEDGER_PG_SOCKET ? 'its Unix socket' : 'loopback TCP'}, the points service's NODE_OPTIONS \`${pointsEnv.NODE_OPTIONS ?? ''}\`. An operation: one hold or one commit (gRPC), or one bare debit.

| scenario | ops/s | p50 ms | p99 ms | errors | ${cpuGroups.map((g) => `CPU ms/op ${g.name}`).join(' | ')} | machine busy |
|---|--:|--:|--:|--:|${cpuGroups.map(() => '--:').join('|')}|--:|
${results.map(line).join('\n')}

Against the target (>= ${100 * TARGET.ratio}% of bare, p99 < ${TARGET.p99Ms} ms at ${writers} writers):
${[...hotPair, ...manyPair].map((p) => `- ${p.measured.label.replace(/^ledger, /, '')}: ${verdict(p)}`).join('\n')}

Kafka events the points service handled during the ledger windows (other runs' room and play events): ${events.join(', ')}.
Writes a batch (ledger rows appended per database transaction that appended them, warm-up included): ${batches.join(', ')}.
Writes a WriteTokens call (the TokenWriter's calls, warm-up included): ${perCall.join(', ')}.
`);
}

/** Retries `step` until the services answer (they start, migrate and fetch keys), or fails when one exits. */
async function untilUp<T>(step: () => Promise<T>, exited: () => ServiceProcess | undefined): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const gone = exited();
    if (gone) throw new Error(`${gone.name} exited (code ${gone.child.exitCode})`);
    try {
      return await step();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
