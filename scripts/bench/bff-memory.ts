// The BFF's resident memory at start (issue 19: <= 130 MiB from its bundle,
// telemetry on), measured as its image runs it: `node --enable-source-maps
// --import register.js main.js`, NODE_OPTIONS as the chart sets them
// (helm/spinroom/values.yaml), METRICS_PORT set (the chart sets it everywhere,
// so the Prometheus reader runs), nothing exported (no OTLP endpoint), the
// peer services unreachable (grpc-js connects lazily) and the dev profile's
// Redis. BENCHMARKS.md ("Room feed", the memory sections) records the runs.
//
// Each bundle is started BENCH_REPEATS times (3), in turn with the others, and
// read BENCH_SETTLE_S (12) seconds after it answers /healthz: VmRSS, and its
// anonymous (heap, stacks, malloc) and file-backed (the node binary's pages)
// parts. Beside it, in the same run, a `node` that only waits: the floor.
//
// Knobs (environment): BENCH_BFF_BUNDLES (comma-separated folders of bundles
// built by deploy/docker/build.mjs, e.g. one built from an older commit; by
// default the BFF is bundled from the tree into .local/bff-memory/tree),
// BENCH_BFF_NODE_OPTIONS (the chart's --max-semi-space-size=16 unless set),
// BENCH_METRICS (on; `off` leaves METRICS_PORT unset), BENCH_REPEATS,
// BENCH_SETTLE_S, BENCH_HEAP_SNAPSHOT=<dir> (a heap snapshot of each bundle's
// first run, written there: open it in Chrome's devtools).
//
// Run it as every benchmark here: `flock /tmp/bench.lock node --import tsx scripts/bench/bff-memory.ts`.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const repeats = Number(process.env.BENCH_REPEATS ?? 3);
const settleMs = 1000 * Number(process.env.BENCH_SETTLE_S ?? 12);
const nodeOptions = process.env.BENCH_BFF_NODE_OPTIONS ?? '--max-semi-space-size=16';
const withMetrics = process.env.BENCH_METRICS !== 'off';
const snapshotDir = process.env.BENCH_HEAP_SNAPSHOT ? resolve(process.env.BENCH_HEAP_SNAPSHOT) : undefined;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The dev profile's infrastructure addresses (.local/dev/infra.env), unless the environment has them. */
function infraEnv(): Record<string, string> {
  const file = join(repoRoot, '.local/dev/infra.env');
  if (!existsSync(file)) return {};
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => /^([A-Z_]+)=(.*)$/.exec(line.trim()))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1]!, m[2]!.replace(/^['"]|['"]$/g, '')]),
  );
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

interface Memory {
  rss: number;
  anon: number;
  file: number;
}

/** VmRSS, RssAnon and RssFile of a process, MiB. */
function memory(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kib('VmRSS') / 1024, anon: kib('RssAnon') / 1024, file: (kib('RssFile') + kib('RssShmem')) / 1024 };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(5_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** One start of a bundle: its memory `settleMs` after /healthz answers. */
async function measureBundle(dir: string, snapshot: string | undefined): Promise<Memory> {
  const port = await freePort();
  const unreachable = Object.fromEntries(
    ['USER', 'PLAYLIST', 'UPLOAD', 'ROOM', 'CHAT', 'POINTS', 'PAYMENT', 'SOCIAL', 'AUDIT'].map((n) => [`${n}_ADDR`, '127.0.0.1:1']),
  );
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    REDIS_URL: process.env.REDIS_URL ?? infraEnv().REDIS_URL,
    ...unreachable,
    NODE_ENV: 'production',
    PORT: String(port),
    HTTP_HOST: '127.0.0.1',
    SERVICE_CLIENT_SECRET: 'bff-memory-bench-secret-0123456789abcdef',
    OTEL_SERVICE_NAME: 'bff',
    LOG_LEVEL: 'warn',
    NODE_OPTIONS: `${nodeOptions}${snapshot ? ' --heapsnapshot-signal=SIGUSR2' : ''}`,
    ...(withMetrics ? { METRICS_PORT: String(await freePort()) } : {}),
  };
  const child = spawn(process.execPath, ['--enable-source-maps', '--import', join(dir, 'register.js'), join(dir, 'main.js')], {
    cwd: snapshot ?? repoRoot,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the BFF exited (${child.exitCode}): ${stderr}`);
      if (Date.now() > deadline) throw new Error(`the BFF did not answer /healthz in 30 s: ${stderr}`);
      if ((await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok) break;
      await sleep(100);
    }
    await sleep(settleMs);
    const measured = memory(child.pid!);
    if (snapshot) {
      const before = new Set(readdirSync(snapshot));
      child.kill('SIGUSR2');
      for (let i = 0; i < 120 && readdirSync(snapshot).every((f) => before.has(f)); i++) await sleep(500);
      await sleep(3_000); // written in one go; wait for it to finish
    }
    return measured;
  } finally {
    await stop(child);
  }
}

/** A `node` that only waits, measured the same way: the floor under any Node process. */
async function measureBareNode(): Promise<Memory> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', env: { PATH: process.env.PATH } });
  try {
    await sleep(Math.min(settleMs, 3_000));
    return memory(child.pid!);
  } finally {
    await stop(child);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (n: number) => n.toFixed(1);
const revision = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: repoRoot, encoding: 'utf8' }).trim() !== '';

let bundles = (process.env.BENCH_BFF_BUNDLES ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean)
  .map((d) => resolve(d));
if (bundles.length === 0) {
  const out = join(repoRoot, '.local/bff-memory/tree');
  mkdirSync(out, { recursive: true });
  execFileSync(process.execPath, [join(repoRoot, 'deploy/docker/build.mjs'), 'bff', out], { cwd: repoRoot, stdio: 'pipe' });
  bundles = [out];
}
if (snapshotDir) mkdirSync(snapshotDir, { recursive: true });

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(
  `${new Date().toISOString()} code at ${revision}${dirty ? ' (with uncommitted changes)' : ''}, ${process.version}, load average ${load()}; ` +
    `NODE_OPTIONS=${nodeOptions}; METRICS_PORT ${withMetrics ? 'set' : 'unset'}; ${repeats} starts each, read ${settleMs / 1000} s after /healthz`,
);
const results = new Map<string, Memory[]>(bundles.map((b) => [b, []]));
const bare: Memory[] = [];
for (let i = 0; i < repeats; i++) {
  bare.push(await measureBareNode());
  for (const bundle of bundles) {
    let snapshot: string | undefined;
    if (snapshotDir && i === 0) {
      snapshot = join(snapshotDir, `.${bundles.indexOf(bundle)}`);
      mkdirSync(snapshot, { recursive: true });
    }
    const m = await measureBundle(bundle, snapshot);
    results.get(bundle)!.push(m);
    if (snapshot) {
      for (const f of readdirSync(snapshot).filter((f) => f.endsWith('.heapsnapshot'))) {
        renameSync(join(snapshot, f), join(snapshotDir!, `bff-${bundles.indexOf(bundle)}-${f}`));
      }
    }
    console.log(`  ${bundle}: RSS ${fmt(m.rss)} MiB (anonymous ${fmt(m.anon)}, file ${fmt(m.file)})`);
  }
}
console.log(`load average after: ${load()}\n`);
console.log('| process | RSS at start, MiB (each start) | median | anonymous (median) | file-backed (median) |');
console.log('| --- | --- | ---: | ---: | ---: |');
const row = (name: string, ms: Memory[]) =>
  console.log(
    `| ${name} | ${ms.map((m) => fmt(m.rss)).join(' / ')} | ${fmt(median(ms.map((m) => m.rss)))} | ${fmt(median(ms.map((m) => m.anon)))} | ${fmt(median(ms.map((m) => m.file)))} |`,
  );
row('`node` waiting', bare);
for (const [bundle, ms] of results) row(`BFF ${bundle.replace(`${repoRoot}/`, '')}`, ms);
