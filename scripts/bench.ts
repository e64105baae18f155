// `npm run bench`: throughput and latency of the user REST paths (session and
// profile reads, logins) against a bare baseline, in one run on this machine,
// with revocable sessions on and exercised (endSessionsThenLogIn).
// BENCHMARKS.md records the runs and explains the numbers.
//
// Starts the dev profile's PostgreSQL/Redis/Kafka (shared; left running), then
// its own user service (gRPC :50151) and BFF (:8180) as their images run them
// (esbuild bundles, NODE_ENV=production, telemetry preload, no exporter,
// metrics served on :8183/:8184 as the chart serves them; LOG_LEVEL=warn) on a database of their own (spinroom_user_bench), and the baseline
// (scripts/bench/baseline-server.ts: fastify + pg, :8181) and the two-hop floor
// (scripts/bench/two-hop-floor.ts: fastify :8182 -> grpc-js :50152 -> pg). Other upstreams of
// the BFF are not started, as the measured paths only reach the user service.
// Each read first runs BENCH_PREWARM_S (8) unmeasured, so every server is
// measured warm. Each scenario gets a warm-up, then a measured window: closed loop with
// autocannon, or a fixed rate with scripts/bench/open-loop.ts. Prints a
// markdown table to paste into BENCHMARKS.md and stops every process it started.
//
// Knobs (environment): BENCH_CONNECTIONS (50), BENCH_WARMUP_S (5),
// BENCH_DURATION_S (12), BENCH_BFF_PORT (8180), BENCH_USER_GRPC_PORT (50151),
// BENCH_BASELINE_PORT (8181), BENCH_FIXED_RATE (200: req/s offered in the
// session@rate and profile@rate scenarios), BENCH_QUIET_WAIT_S (30: how long a run may wait
// for other work on the machine to finish), BENCH_ONLY (scenario ids in the order to run,
// repeats allowed; by default DEFAULT_ORDER: every closed-loop read is bracketed by baseline
// runs and compared with the mean of the one before it and the one after it),
// BENCH_CPU_PROF=<dir> (V8 CPU profiles of the BFF and user service under <dir>/bff,
// <dir>/user; summarise with scripts/bench/profile-summary.ts), BENCH_NODE_ARGS (Node/V8
// flags for the BFF, the user service and the floor), BENCH_TRACE_SAMPLE=0.1 (export
// traces as the chart does: parentbased_traceidratio at that ratio, over OTLP to a
// stand-in collector on BENCH_OTLP_PORT, 8185; scripts/bench/otlp-sink.ts).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { openLoop, percentile } from './bench/open-loop.js';
import { startOtlpSink, type OtlpSink } from './bench/otlp-sink.js';
import { assertPortFree, BENCH_LIMIT_ENV, benchProcesses, gitRevision } from './bench/run.js';
import { machineBusyOver, postgresPids, startCpuWindow, type CpuGroup, type CpuReport } from './bench/cpu.js';
import { bffConfig } from '../bff/src/config.js';
import { SERVICE_NAMES, SERVICES, type ServiceName } from '@spinroom/platform/core';
import { databaseUrl, ensureSecret, infraUp, localDir, repoRoot } from './lib/infra.js';
import { managed, startServiceProcess, waitForHttp, type ServiceProcess } from './lib/processes.js';
import { serviceEnvironment } from './lib/services.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const connections = num('BENCH_CONNECTIONS', 50);
const warmupSeconds = num('BENCH_WARMUP_S', 5);
const durationSeconds = num('BENCH_DURATION_S', 12);
const prewarmSeconds = num('BENCH_PREWARM_S', 8);
const ports = {
  bff: num('BENCH_BFF_PORT', 8180),
  userGrpc: num('BENCH_USER_GRPC_PORT', 50151),
  baseline: num('BENCH_BASELINE_PORT', 8181),
  floor: num('BENCH_FLOOR_PORT', 8182),
  // Metrics on, as the chart runs every process (Prometheus scrapes them there).
  userMetrics: num('BENCH_USER_METRICS_PORT', 8183),
  bffMetrics: num('BENCH_BFF_METRICS_PORT', 8184),
  floorGrpc: num('BENCH_FLOOR_GRPC_PORT', 50152),
  otlp: num('BENCH_OTLP_PORT', 8185),
  unusedGrpc: num('BENCH_UNUSED_GRPC_PORT', 50159),
};
const fixedRate = num('BENCH_FIXED_RATE', 200);
const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
const cpuProfileDir = process.env.BENCH_CPU_PROF;
const traceSample = process.env.BENCH_TRACE_SAMPLE;
const LOAD_GENERATOR = 'load generator';
const TARGET = { percentOfBaseline: 40, p99Ms: 50 };
/** Every closed-loop read sits between two baseline runs. */
const DEFAULT_ORDER = [
  'baseline',
  'floor',
  'session',
  'baseline-again',
  'profile',
  'baseline-again',
  'session@rate',
  'profile@rate',
  'login',
];
const benchUser = { email: 'bench@spinroom.local', password: 'bench-password-7f3a', nickname: 'Bench' };

// Telemetry as production has it: the preload runs, nothing is exported.
for (const key of Object.keys(process.env)) {
  if (key.startsWith('OTEL_EXPORTER_OTLP_')) delete process.env[key];
}

const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

const { children, stopAll } = benchProcesses<Pick<ServiceProcess, 'name' | 'stop'> & { pid: number | undefined }>();

/** The baseline server, without the telemetry preload: the bare single hop. */
function startBaseline(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/baseline-server.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return { ...managed('baseline', child), pid: child.pid };
}

/** One half of the two-hop floor (scripts/bench/two-hop-floor.ts), also without telemetry. */
function startFloor(role: 'service' | 'front', env: Record<string, string>) {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'scripts/bench/two-hop-floor.ts', role], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return { ...managed(`floor ${role}`, child), pid: child.pid };
}

async function json(res: Response): Promise<any> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function waitForUserPaths(bff: string, timeoutMs: number, exitedEarly: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const early = exitedEarly();
    if (early) throw new Error(early);
    const res = await fetch(`${bff}/api/user-service/auth/session`, { headers: { authorization: 'Bearer not-a-token' } }).catch(
      () => undefined,
    );
    await res?.arrayBuffer();
    if (res?.status === 401) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the BFF's user paths did not become ready within ${timeoutMs / 1000}s`);
}

/** One account, made through the REST sign-up path (or logged into on a re-run). */
async function benchAccount(bff: string): Promise<{ accessToken: string; userUuid: string }> {
  const post = (path: string, body: object) =>
    fetch(`${bff}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  let res = await post('/api/user-service/users/sign-up', benchUser);
  if (res.status === 403) res = await post('/api/user-service/auth/login', { email: benchUser.email, password: benchUser.password });
  const body = await json(res);
  if (!res.ok || typeof body.accessToken !== 'string') throw new Error(`sign-up/login failed: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * Revocation on, and exercised: the bench user's sessions are ended once
 * (logout), so every session check below compares its token with a "valid
 * after" Redis holds; the ended token must be refused, or the run stops. The
 * fresh login after it is the token measured.
 */
async function endSessionsThenLogIn(bff: string, ended: { accessToken: string }): Promise<{ accessToken: string; userUuid: string }> {
  const out = await fetch(`${bff}/api/user-service/auth/logout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ended.accessToken}` },
  });
  if (!out.ok) throw new Error(`logout failed: ${out.status} ${JSON.stringify(await json(out))}`);
  const login = await fetch(`${bff}/api/user-service/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: benchUser.email, password: benchUser.password }),
  });
  const fresh = await json(login);
  if (!login.ok) throw new Error(`login after logout failed: ${login.status} ${JSON.stringify(fresh)}`);
  const refused = await fetch(`${bff}/api/user-service/auth/session`, { headers: { authorization: `Bearer ${ended.accessToken}` } });
  await refused.arrayBuffer();
  if (refused.status !== 401) throw new Error(`revocation is off: an ended token got ${refused.status} on /auth/session`);
  return fresh;
}

interface Scenario {
  id: string;
  label: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Compared against the baseline's throughput. */
  restRead?: boolean;
  /** A reference row (the two-hop floor): shown against the baseline, judged by no target. */
  reference?: boolean;
  /** A fixed offered rate in req/s (scripts/bench/open-loop.ts); unset = closed loop, as fast as answered. */
  rate?: number;
}

interface Outcome {
  scenario: Scenario;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  cpu: CpuReport;
}

type Measured = Omit<Outcome, 'scenario' | 'cpu'>;

/** Closed loop (autocannon: each connection sends its next request when answered), or a fixed rate. */
async function load(s: Scenario, seconds: number): Promise<Measured> {
  if (s.rate) {
    const r = await openLoop({ url: s.url, method: s.method, headers: s.headers, body: s.body, rate: s.rate, seconds, connections });
    return {
      rps: r.ok / r.durationSeconds,
      p50: percentile(r.latencies, 50),
      p99: percentile(r.latencies, 99),
      max: r.latencies.at(-1) ?? 0,
      ok: r.ok,
      non2xx: r.non2xx,
      errors: r.errors,
      timeouts: r.timeouts,
    };
  }
  const r = await autocannon({
    url: s.url,
    method: s.method ?? 'GET',
    headers: s.headers,
    body: s.body,
    connections,
    duration: seconds,
    timeout: 10,
  });
  return {
    rps: r['2xx'] / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

// The machine is shared: before each scenario, wait (within a budget for the
// whole run) until other work leaves it mostly idle. Our idle servers use ~1%.
let quietBudgetMs = num('BENCH_QUIET_WAIT_S', 30) * 1000;
async function waitForQuietMachine(): Promise<void> {
  const maxBusyPercent = 15;
  let busy = await machineBusyOver(1000);
  if (busy <= maxBusyPercent) return;
  process.stdout.write(`(machine ${Math.round(busy)}% busy with other work; waiting up to ${Math.round(quietBudgetMs / 1000)}s) `);
  while (busy > maxBusyPercent && quietBudgetMs > 0) {
    quietBudgetMs -= 1000;
    busy = await machineBusyOver(1000);
  }
  if (busy > maxBusyPercent) process.stdout.write(`(still ${Math.round(busy)}% busy; measuring anyway) `);
}

async function run(s: Scenario, cpuGroups: CpuGroup[]): Promise<Outcome> {
  // One request first: a scenario that answers errors would measure nothing.
  const probe = await fetch(s.url, { method: s.method ?? 'GET', headers: s.headers, body: s.body });
  if (!probe.ok) throw new Error(`${s.label}: ${probe.status} ${JSON.stringify(await json(probe))}`);
  await probe.arrayBuffer().catch(() => undefined);

  await waitForQuietMachine();
  process.stdout.write(`${s.label}: warm-up ${warmupSeconds}s, `);
  await load(s, warmupSeconds);
  process.stdout.write(
    `measuring ${durationSeconds}s ${s.rate ? `at a fixed ${s.rate} req/s (up to ${connections} connections)` : `at ${connections} connections`}... `,
  );
  const endCpu = startCpuWindow(cpuGroups);
  const measured = await load(s, durationSeconds);
  const outcome: Outcome = { scenario: s, ...measured, cpu: endCpu() };
  console.log(`${fmt(outcome.rps)} req/s, p50 ${ms(outcome.p50)} ms, p99 ${ms(outcome.p99)} ms`);
  return outcome;
}

const fail = (message: string): never => {
  throw new Error(message);
};
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ms = (n: number) => fmt(n, n < 10 ? 1 : 0);

/** Cores busy with anything but our processes: kernel networking, Kafka, Redis, other people's work. */
function otherCores(o: Outcome, cpuNames: string[]): number {
  const ours = cpuNames.reduce((sum, n) => sum + (o.cpu.cores[n] ?? 0), 0);
  return Math.max(0, (o.cpu.machineBusyPercent / 100) * availableParallelism() - ours);
}

const isBaseline = (o: Outcome) => o.scenario.id === 'baseline' || o.scenario.id === 'baseline-again';

/**
 * The host's speed drifts by up to a fifth between minutes, so each read is
 * compared with the baseline as it ran around it: the mean of the nearest
 * baseline run before it and the nearest after it (either alone at an end).
 */
function bracketingBaseline(outcomes: Outcome[], index: number): number | undefined {
  const before = outcomes.slice(0, index).reverse().find(isBaseline);
  const after = outcomes.slice(index + 1).find(isBaseline);
  const around = [before, after].filter((o): o is Outcome => o !== undefined);
  return around.length > 0 ? around.reduce((sum, o) => sum + o.rps, 0) / around.length : undefined;
}

function markdown(outcomes: Outcome[], started: Date, cpuNames: string[], revision: string): string {
  const lines: string[] = [];
  lines.push(
    `Run ${started.toISOString().replace(/\.\d+Z$/, 'Z')}, \`npm run bench\`, ${connections} connections, ` +
      `${warmupSeconds}s warm-up + ${durationSeconds}s measured per scenario, Node ${process.version}, ` +
      `${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB, ` +
      `code at ${revision}; PASSWORD_HASH_CONCURRENCY ${process.env.PASSWORD_HASH_CONCURRENCY ?? `unset (= ${availableParallelism()})`}` +
      `${process.env.OTEL_SDK_DISABLED === 'true' ? '; **telemetry disabled (OTEL_SDK_DISABLED=true), a diagnostic run**' : ''}` +
      `${traceSample ? `; traces exported over OTLP to a stand-in collector, sampled at ${traceSample} (BENCH_TRACE_SAMPLE)` : ''}` +
      `${nodeArgs.length > 0 ? `; services started with ${nodeArgs.join(' ')} (BENCH_NODE_ARGS)` : ''}` +
      '; revocable sessions on (the bench user ended their sessions once, so each check compares with a "valid after" in Redis: ' +
      'one GET per user and process at most every 500 ms).',
    '',
    '| scenario | req/s (2xx) | % of baseline (the runs before and after it) | p50 ms | p99 ms | max ms | 2xx | non-2xx | errors | timeouts | target | other work on the machine (cores) |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|',
  );
  for (const [index, o] of outcomes.entries()) {
    const baselineRps = (o.scenario.restRead || o.scenario.reference) && !o.scenario.rate ? bracketingBaseline(outcomes, index) : undefined;
    const pct = baselineRps ? (100 * o.rps) / baselineRps : undefined;
    const target = o.scenario.rate
      ? o.p99 < TARGET.p99Ms
        ? `p99 < ${TARGET.p99Ms} ms met`
        : `**p99 >= ${TARGET.p99Ms} ms**`
      : o.scenario.restRead
        ? pct !== undefined && pct >= TARGET.percentOfBaseline && o.p99 < TARGET.p99Ms
          ? 'met'
          : `**missed** (${[
              pct === undefined || pct < TARGET.percentOfBaseline ? `< ${TARGET.percentOfBaseline}%` : '',
              o.p99 >= TARGET.p99Ms ? `p99 >= ${TARGET.p99Ms} ms` : '',
            ]
              .filter(Boolean)
              .join(', ')})`
        : isBaseline(o) || o.scenario.reference
          ? '(reference)'
          : 'n/a';
    lines.push(
      `| ${o.scenario.label} | ${fmt(o.rps)} | ${pct === undefined ? '' : `${fmt(pct)}%`} | ${ms(o.p50)} | ${ms(o.p99)} | ${ms(o.max)} | ` +
        `${o.ok} | ${o.non2xx} | ${o.errors} | ${o.timeouts} | ${target} | ${fmt(otherCores(o, cpuNames), 2)} |`,
    );
  }
  lines.push(
    '',
    `CPU during each measured window (cores kept busy; the machine has ${availableParallelism()}):`,
    '',
    `| scenario | CPU ms per request (server side) | machine busy (user/sys/irq/steal %) | ${cpuNames.join(' | ')} | everything else |`,
    `|---|--:|--:|${cpuNames.map(() => '--:').join('|')}|--:|`,
  );
  for (const o of outcomes) {
    const m = o.cpu.machine;
    // Kernel networking, Kafka, Redis, and whatever else runs on the machine meanwhile.
    const other = otherCores(o, cpuNames);
    // CPU time the servers (BFF, service, baseline, PostgreSQL) spent per answered request.
    const serverCores = cpuNames.filter((n) => n !== LOAD_GENERATOR).reduce((sum, n) => sum + (o.cpu.cores[n] ?? 0), 0);
    const msPerRequest = o.rps > 0 ? (1000 * serverCores) / o.rps : 0;
    lines.push(
      `| ${o.scenario.label} | ${fmt(msPerRequest, 2)} | ${fmt(o.cpu.machineBusyPercent)}% (${[m.user, m.system, m.softirq, m.steal].map((v) => fmt(v)).join('/')}) | ${cpuNames.map((n) => fmt(o.cpu.cores[n] ?? 0, 2)).join(' | ')} | ${fmt(other, 2)} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const started = new Date();
  const infra = infraUp('dev');
  await Promise.all(Object.values(ports).map(assertPortFree));
  const revision = gitRevision();

  // REDIS_URL: the BFF's room feed subscribes there (no room is joined here).
  const common: Record<string, string> = {
    KAFKA_BROKERS: infra.KAFKA_BROKERS,
    REDIS_URL: infra.REDIS_URL,
    LOG_LEVEL: 'warn',
    ...BENCH_LIMIT_ENV,
  };
  let otlpSink: OtlpSink | undefined;
  if (traceSample) {
    // As the chart configures a service when otel.endpoint is set.
    otlpSink = await startOtlpSink(ports.otlp);
    children.push({ name: 'otlp sink', pid: process.pid, stop: otlpSink.close });
    Object.assign(common, {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlpSink.url,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: traceSample,
    });
  }
  // The BFF trades it with the user service for its own token; both must have the same one.
  const serviceSecret = { SERVICE_CLIENT_SECRET: ensureSecret('dev', 'service-client-secret') };
  const profiling = (name: string): Record<string, string> =>
    cpuProfileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${join(cpuProfileDir, name)}` } : {}; // one file per thread

  // Measured as the images run them: bundled by esbuild, NODE_ENV=production.
  // The user database the baseline and the floor read too.
  const dbUrl = databaseUrl(infra, `${SERVICES.user.database}_bench`);
  const others = Object.fromEntries(SERVICE_NAMES.map((name) => [name, ports.unusedGrpc])) as Record<ServiceName, number>;
  const user = startServiceProcess(
    'user',
    'services/user/src/main.ts',
    {
      ...serviceEnvironment('user', { infra, ports: { ...others, user: ports.userGrpc }, suffix: '_bench', common }),
      ...profiling('user'),
      METRICS_PORT: String(ports.userMetrics),
    },
    { bundled: true, nodeArgs },
  );
  children.push({ name: user.name, pid: user.child.pid, stop: user.stop });
  const bff = startServiceProcess(
    'bff',
    'bff/src/main.ts',
    {
      ...common,
      ...serviceSecret,
      ...profiling('bff'),
      PORT: String(ports.bff),
      HTTP_HOST: '127.0.0.1',
      // The other upstreams the BFF's config requires (PLAYLIST_ADDR, ROOM_ADDR, ...)
      // are not started: no benchmarked path calls them, and grpc-js connects lazily.
      ...Object.fromEntries(
        Object.keys(bffConfig)
          .filter((key) => key.endsWith('_ADDR'))
          .map((key) => [key, `127.0.0.1:${ports.unusedGrpc}`]),
      ),
      USER_ADDR: `127.0.0.1:${ports.userGrpc}`,
      METRICS_PORT: String(ports.bffMetrics),
    },
    { bundled: true, nodeArgs },
  );
  children.push({ name: bff.name, pid: bff.child.pid, stop: bff.stop });
  const exitedEarly = () =>
    [user, bff].map((s) => (s.child.exitCode !== null ? `${s.name} exited (code ${s.child.exitCode})` : '')).find(Boolean);

  const bffUrl = `http://127.0.0.1:${ports.bff}`;
  // Not /readyz: it waits for every upstream (playlist, upload, ...), and only the
  // user service is started. Ready for us = the BFF verifies tokens with the user
  // service's key (a bad token gets 401, not 503). The user service creates and
  // migrates its database before it listens.
  await waitForHttp(`${bffUrl}/healthz`, 60_000, exitedEarly);
  await waitForUserPaths(bffUrl, 120_000, exitedEarly);
  const account = await endSessionsThenLogIn(bffUrl, await benchAccount(bffUrl));

  const baseline = startBaseline({ DATABASE_URL: dbUrl, PORT: String(ports.baseline) });
  children.push(baseline);
  const baselineUrl = `http://127.0.0.1:${ports.baseline}`;
  await waitForHttp(`${baselineUrl}/healthz`, 30_000, () =>
    baseline.child.exitCode !== null ? `baseline exited (code ${baseline.child.exitCode})` : undefined,
  );

  const floorEnv = { GRPC_PORT: String(ports.floorGrpc) };
  const floorService = startFloor('service', { ...floorEnv, DATABASE_URL: dbUrl });
  const floorFront = startFloor('front', { ...floorEnv, PORT: String(ports.floor) });
  children.push(floorService, floorFront);
  const floorUrl = `http://127.0.0.1:${ports.floor}`;
  await waitForHttp(`${floorUrl}/healthz`, 30_000, () =>
    [floorService, floorFront].map((f) => (f.child.exitCode !== null ? `${f.name} exited (code ${f.child.exitCode})` : '')).find(Boolean),
  );

  const postmasterPidFile = join(localDir, 'dev/postgres/data/postmaster.pid');
  const postmasterPid = existsSync(postmasterPidFile) ? Number(readFileSync(postmasterPidFile, 'utf8').split('\n')[0]) : undefined;
  const cpuGroups: CpuGroup[] = [
    { name: LOAD_GENERATOR, pids: () => [process.pid] },
    { name: 'BFF', pids: () => [bff.child.pid!] },
    { name: 'user service', pids: () => [user.child.pid!] },
    { name: 'baseline', pids: () => [baseline.pid!] },
    { name: 'two-hop floor', pids: () => [floorFront.pid!, floorService.pid!] },
    ...(postmasterPid ? [{ name: 'PostgreSQL', pids: () => postgresPids(postmasterPid) }] : []),
  ];

  const bearer = { authorization: `Bearer ${account.accessToken}` };
  const scenarios: Scenario[] = [
    { id: 'baseline', label: 'baseline: fastify + pg, same row', url: `${baselineUrl}/user/${account.userUuid}` },
    {
      id: 'floor',
      label: 'two-hop floor: fastify -> grpc-js -> pg, session columns (no token, telemetry, Express or ORM)',
      url: `${floorUrl}/session/${account.userUuid}`,
      reference: true,
    },
    {
      id: 'session',
      label: 'GET /api/user-service/auth/session',
      url: `${bffUrl}/api/user-service/auth/session`,
      headers: bearer,
      restRead: true,
    },
    {
      id: 'profile',
      label: 'GET /api/user-service/users/profile',
      url: `${bffUrl}/api/user-service/users/profile`,
      headers: bearer,
      restRead: true,
    },
    { id: 'baseline-again', label: 'baseline again', url: `${baselineUrl}/user/${account.userUuid}` },
    // Latency below saturation: the same reads at a fixed rate, evenly spaced.
    ...(['session', 'profile'] as const).map((id) => ({
      id: `${id}@rate`,
      label: `GET /api/user-service/${id === 'session' ? 'auth/session' : 'users/profile'} at ${fixedRate} req/s`,
      url: `${bffUrl}/api/user-service/${id === 'session' ? 'auth/session' : 'users/profile'}`,
      headers: bearer,
      rate: fixedRate,
    })),
    {
      id: 'login',
      label: 'POST /api/user-service/auth/login (correct password)',
      url: `${bffUrl}/api/user-service/auth/login`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: benchUser.email, password: benchUser.password }),
    },
  ] as Scenario[];
  const chosen = (only ?? DEFAULT_ORDER).map((id) => scenarios.find((s) => s.id === id) ?? fail(`unknown scenario ${id}`));

  console.log(`\nBenchmarking as ${account.userUuid} (${benchUser.email}).`);
  // Long-running services are measured warm: a few seconds per scenario left
  // the first REST scenario measured 15-20% below a second pass of itself
  // (V8 still optimising, heaps still growing).
  const reads = [...new Set(chosen.filter((s) => s.id === 'baseline' || s.reference || (s.restRead && !s.rate)))];
  if (prewarmSeconds > 0 && reads.length > 0) {
    process.stdout.write(`warming up: ${prewarmSeconds}s of each read, unmeasured... `);
    for (const scenario of reads) await load(scenario, prewarmSeconds);
    console.log('done');
  }
  const outcomes: Outcome[] = [];
  for (const scenario of chosen) outcomes.push(await run(scenario, cpuGroups));
  if (otlpSink) {
    const { exports, bytes } = otlpSink.received();
    console.log(`\ntraces exported to the stand-in collector: ${exports} requests, ${(bytes / 2 ** 20).toFixed(1)} MiB`);
  }

  const table = markdown(
    outcomes,
    started,
    cpuGroups.map((g) => g.name),
    revision,
  );
  console.log(`\n${table}\n`);
}

try {
  await main();
  await stopAll();
  process.exit(0);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await stopAll();
  process.exit(1);
}
