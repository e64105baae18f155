// `npm run bench`: read and login throughput of the REST paths, against a bare
// baseline, in one run on this machine.
//
// Starts the dev profile's PostgreSQL/Redis/Kafka (shared; left running), then
// its own user service (gRPC :50151) and BFF (:8180) exactly as `npm start`
// does (telemetry preload, no exporter) but on a database of their own
// (spinroom_user_bench), and the baseline (scripts/bench/baseline-server.ts,
// fastify + pg, :8181). Drives each scenario with autocannon (warm-up, then a
// measured window), prints a markdown table for BENCHMARKS.md and stops every
// process it started.
//
// Knobs (environment): BENCH_CONNECTIONS (50), BENCH_WARMUP_S (3),
// BENCH_DURATION_S (12), BENCH_BFF_PORT (8180), BENCH_USER_GRPC_PORT (50151),
// BENCH_BASELINE_PORT (8181), BENCH_ONLY (comma-separated scenario ids),
// BENCH_CPU_PROF=<dir> (write V8 CPU profiles of the BFF and user service).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startCpuWindow, postgresPids, type CpuGroup, type CpuReport } from './bench/cpu.js';
import { databaseUrl, ensureSigningKey, infraUp, localDir, repoRoot } from './lib/infra.js';
import { startServiceProcess, waitForHttp, type ServiceProcess } from './lib/processes.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const connections = num('BENCH_CONNECTIONS', 50);
const warmupSeconds = num('BENCH_WARMUP_S', 3);
const durationSeconds = num('BENCH_DURATION_S', 12);
const ports = {
  bff: num('BENCH_BFF_PORT', 8180),
  userGrpc: num('BENCH_USER_GRPC_PORT', 50151),
  baseline: num('BENCH_BASELINE_PORT', 8181),
};
const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
const cpuProfileDir = process.env.BENCH_CPU_PROF;
const TARGET = { percentOfBaseline: 40, p99Ms: 50 };
const benchUser = { email: 'bench@spinroom.local', password: 'bench-password-7f3a', nickname: 'Bench' };

// Telemetry as production has it: the preload runs, nothing is exported.
for (const key of Object.keys(process.env)) {
  if (key.startsWith('OTEL_EXPORTER_OTLP_')) delete process.env[key];
}

const children: Array<Pick<ServiceProcess, 'name' | 'stop'> & { pid: number | undefined }> = [];
let stopping = false;
async function stopAll(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await Promise.all([...children].reverse().map((c) => c.stop().catch(() => undefined)));
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the benchmark's processes...`);
    void stopAll().finally(() => process.exit(130));
  });
}

async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () => reject(new Error(`port ${port} is in use; set BENCH_*_PORT to free ones`)));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

/** The baseline server, without the telemetry preload: the bare single hop. */
function startBaseline(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/baseline-server.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name: 'baseline',
    pid: child.pid,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function json(res: Response): Promise<any> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
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

interface Scenario {
  id: string;
  label: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Compared against the baseline's throughput. */
  restRead?: boolean;
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

function cannon(s: Scenario, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: s.url,
    method: s.method ?? 'GET',
    headers: s.headers,
    body: s.body,
    connections,
    duration: seconds,
    timeout: 10,
  });
}

async function run(s: Scenario, cpuGroups: CpuGroup[]): Promise<Outcome> {
  // One request first: a scenario that answers errors would measure nothing.
  const probe = await fetch(s.url, { method: s.method ?? 'GET', headers: s.headers, body: s.body });
  if (!probe.ok) throw new Error(`${s.label}: ${probe.status} ${JSON.stringify(await json(probe))}`);
  await probe.arrayBuffer().catch(() => undefined);

  process.stdout.write(`${s.label}: warm-up ${warmupSeconds}s, `);
  await cannon(s, warmupSeconds);
  process.stdout.write(`measuring ${durationSeconds}s at ${connections} connections... `);
  const endCpu = startCpuWindow(cpuGroups);
  const r = await cannon(s, durationSeconds);
  const cpu = endCpu();
  const outcome: Outcome = {
    scenario: s,
    rps: r['2xx'] / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    cpu,
  };
  console.log(`${fmt(outcome.rps)} req/s, p50 ${outcome.p50} ms, p99 ${outcome.p99} ms`);
  return outcome;
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function markdown(outcomes: Outcome[], baseline: Outcome | undefined, started: Date, cpuNames: string[]): string {
  const lines: string[] = [];
  lines.push(
    `Run ${started.toISOString().replace(/\.\d+Z$/, 'Z')}, \`npm run bench\`, ${connections} connections, ` +
      `${warmupSeconds}s warm-up + ${durationSeconds}s measured per scenario, Node ${process.version}, ` +
      `${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB.`,
    '',
    '| scenario | req/s (2xx) | % of baseline | p50 ms | p99 ms | max ms | 2xx | non-2xx | errors | timeouts | target |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|',
  );
  for (const o of outcomes) {
    const pct = baseline && o.scenario.restRead ? (100 * o.rps) / baseline.rps : undefined;
    const target = o.scenario.restRead
      ? pct !== undefined && pct >= TARGET.percentOfBaseline && o.p99 < TARGET.p99Ms
        ? 'met'
        : `**missed** (${[
            pct === undefined || pct < TARGET.percentOfBaseline ? `< ${TARGET.percentOfBaseline}%` : '',
            o.p99 >= TARGET.p99Ms ? `p99 >= ${TARGET.p99Ms} ms` : '',
          ]
            .filter(Boolean)
            .join(', ')})`
      : o === baseline
        ? '(reference)'
        : 'n/a';
    lines.push(
      `| ${o.scenario.label} | ${fmt(o.rps)} | ${pct === undefined ? '' : `${fmt(pct)}%`} | ${o.p50} | ${o.p99} | ${o.max} | ` +
        `${o.ok} | ${o.non2xx} | ${o.errors} | ${o.timeouts} | ${target} |`,
    );
  }
  lines.push(
    '',
    'CPU during each measured window (cores kept busy; the machine has ' + availableParallelism() + '):',
    '',
    `| scenario | machine busy | ${cpuNames.join(' | ')} |`,
    `|---|--:|${cpuNames.map(() => '--:').join('|')}|`,
  );
  for (const o of outcomes) {
    lines.push(
      `| ${o.scenario.label} | ${fmt(o.cpu.machineBusyPercent)}% | ${cpuNames.map((n) => fmt(o.cpu.cores[n] ?? 0, 2)).join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const started = new Date();
  const infra = infraUp('dev');
  const signingKey = ensureSigningKey('dev');
  await Promise.all(Object.values(ports).map(assertPortFree));

  const dbUrl = databaseUrl(infra, 'spinroom_user_bench');
  const common = { KAFKA_BROKERS: infra.KAFKA_BROKERS, REDIS_URL: infra.REDIS_URL, LOG_LEVEL: 'warn' };
  const profiling = (name: string): Record<string, string> =>
    cpuProfileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${cpuProfileDir} --cpu-prof-name=${name}.cpuprofile` } : {};

  const user = startServiceProcess('user', 'services/user/src/main.ts', {
    ...common,
    ...profiling('user'),
    DATABASE_URL: dbUrl,
    GRPC_PORT: String(ports.userGrpc),
    JWT_PRIVATE_KEY: signingKey.pem,
  });
  children.push({ name: user.name, pid: user.child.pid, stop: user.stop });
  const bff = startServiceProcess('bff', 'bff/src/main.ts', {
    ...common,
    ...profiling('bff'),
    PORT: String(ports.bff),
    HTTP_HOST: '127.0.0.1',
    USER_ADDR: `127.0.0.1:${ports.userGrpc}`,
  });
  children.push({ name: bff.name, pid: bff.child.pid, stop: bff.stop });
  const exitedEarly = () =>
    [user, bff].map((s) => (s.child.exitCode !== null ? `${s.name} exited (code ${s.child.exitCode})` : '')).find(Boolean);

  const bffUrl = `http://127.0.0.1:${ports.bff}`;
  // The user service creates and migrates its database before it listens.
  await waitForHttp(`${bffUrl}/readyz`, 120_000, exitedEarly);
  const account = await benchAccount(bffUrl);

  const baseline = startBaseline({ DATABASE_URL: dbUrl, PORT: String(ports.baseline) });
  children.push(baseline);
  const baselineUrl = `http://127.0.0.1:${ports.baseline}`;
  await waitForHttp(`${baselineUrl}/healthz`, 30_000, () =>
    baseline.child.exitCode !== null ? `baseline exited (code ${baseline.child.exitCode})` : undefined,
  );

  const postmasterPidFile = join(localDir, 'dev/postgres/data/postmaster.pid');
  const postmasterPid = existsSync(postmasterPidFile) ? Number(readFileSync(postmasterPidFile, 'utf8').split('\n')[0]) : undefined;
  const cpuGroups: CpuGroup[] = [
    { name: 'load generator', pids: () => [process.pid] },
    { name: 'BFF', pids: () => [bff.child.pid!] },
    { name: 'user service', pids: () => [user.child.pid!] },
    { name: 'baseline', pids: () => [baseline.pid!] },
    ...(postmasterPid ? [{ name: 'PostgreSQL', pids: () => postgresPids(postmasterPid) }] : []),
  ];

  const bearer = { authorization: `Bearer ${account.accessToken}` };
  const scenarios: Scenario[] = [
    { id: 'baseline', label: 'baseline: fastify + pg, same row', url: `${baselineUrl}/user/${account.userUuid}` },
    { id: 'session', label: 'GET /api/user-service/auth/session', url: `${bffUrl}/api/user-service/auth/session`, headers: bearer, restRead: true },
    { id: 'profile', label: 'GET /api/user-service/users/profile', url: `${bffUrl}/api/user-service/users/profile`, headers: bearer, restRead: true },
    {
      id: 'login',
      label: 'POST /api/user-service/auth/login',
      url: `${bffUrl}/api/user-service/auth/login`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: benchUser.email, password: benchUser.password }),
    },
  ].filter((s) => !only || only.includes(s.id)) as Scenario[];

  console.log(`\nBenchmarking as ${account.userUuid} (${benchUser.email}).`);
  const outcomes: Outcome[] = [];
  for (const scenario of scenarios) outcomes.push(await run(scenario, cpuGroups));

  const table = markdown(
    outcomes,
    outcomes.find((o) => o.scenario.id === 'baseline'),
    started,
    cpuGroups.map((g) => g.name),
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
