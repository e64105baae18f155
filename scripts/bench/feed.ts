// Room feed benchmark (`npm run bench` runs it after the user paths and the
// catalogue; issue 4): patch delivery latency and deliveries per second from ONE
// BFF process to many listeners in one room, beside a bare `ws` server
// (scripts/bench/bare-ws-server.ts) broadcasting the same frames to the same
// number of clients in the same run; then the BFF's resident memory with many
// idle sockets. BENCHMARKS.md ("Room feed") records the runs.
//
// Starts the dev profile's infrastructure (shared; left running) and, on ports
// and databases of its own, the user, playlist and room services and one BFF
// as their images run them (startServiceProcess, bundled), and the bare server. The
// listeners are raw `ws` clients in child processes of their own
// (scripts/bench/feed-clients.ts), so each server's CPU is measured apart.
//
// Two patch sources, each at BENCH_FEED_RATE patches/s (20):
// - `real`: 20 voters (one of them the playing DJ) toggle `voteOnSong` in turn,
//   each a real action: socket -> BFF -> room service (gRPC) -> Redis
//   compare-and-set + publish -> the BFF (and the bare server) -> listeners.
// - `redis`: frames published straight onto the room's Redis channel, as the
//   room service's save script does (the version bumped atomically in the
//   room's hash, so the room service stays consistent), made from a real
//   `votedOnSong` message: this isolates the BFF's fan-out.
// Latency = a client's receive time - the message's `sentAt` (same clock).
//
// On a machine of 2 cores or more, the listeners (and this harness) are pinned
// to one core and the servers (the BFF, the bare server, the services) to
// another (`taskset`), so the two sides do not take each other's CPU; Redis,
// shared infrastructure, is left where it runs. Each server's CPU per delivery
// (its CPU time over the window / the deliveries its listeners counted) is
// the comparison that holds even when the machine is saturated.
//
// The BFF runs as the chart runs it (helm/spinroom/values.yaml): NODE_OPTIONS
// --max-semi-space-size=16; the bare server with V8's defaults.
//
// Knobs (environment): BENCH_FEED_CLIENTS (1000,2500,5000), BENCH_FEED_IDLE
// (10000 idle sockets; 0 skips), BENCH_FEED_RATE (20), BENCH_FEED_SOURCES
// (redis,real), BENCH_FEED_SERVERS (bare,spinroom), BENCH_WARMUP_S (3),
// BENCH_DURATION_S (15), BENCH_FEED_CLIENT_PROCESSES (2),
// BENCH_FEED_JOIN_CONCURRENCY (10 per client process: more only queues at the room
// service, past the BFF's 5 s deadline), BENCH_QUIET_WAIT_S
// (120: how long the run may wait, in all, for other work on the machine to
// finish), BENCH_CPU_PROF=<dir> (V8 CPU profile of the BFF under <dir>/bff),
// BENCH_FEED_PIN (on; `off` leaves every process unpinned), BENCH_BFF_NODE_OPTIONS
// (the BFF's NODE_OPTIONS, the chart's unless set), BENCH_FEED_SETTLE_S (15: the
// idle sockets' RSS is read 5 s after they are in and again this much later; the
// fresh servers' after as long).
import { execFileSync, fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { createRedis, feedChannel, type Redis } from '@spinroom/platform';
import WebSocket from 'ws';
import { apiClient } from '../lib/http.js';
import { infraUp, localDir, repoRoot } from '../lib/infra.js';
import { managed, startServiceProcess, waitForHttp, type ServiceProcess } from '../lib/processes.js';
import { bffEnvironment, servicePorts, startLocalService, type LocalServices } from '../lib/services.js';
import { assertPortFree, BENCH_LIMIT_ENV, benchProcesses, gitRevision, retryingSetup } from './run.js';
import { machineBusyOver, startCpuWindow, type CpuGroup, type CpuReport } from './cpu.js';
import { HISTOGRAM_MS, type ClientCommand, type ClientReply } from './feed-clients.js';

// 10,000 sockets need as many descriptors in the server, and in the clients
// (split over BENCH_FEED_CLIENT_PROCESSES): run again with the soft limit raised
// if it can be (children inherit it); where the hard limit is lower (a
// container), its value is used and printed with the results.
const WANT_FDS = 65_536;
if (!process.env.BENCH_FEED_FDS_RAISED) {
  const soft = Number(execFileSync('bash', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
  if (soft < WANT_FDS) {
    const again = spawnSync(
      'bash',
      [
        '-c',
        `ulimit -n ${WANT_FDS} 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec "$@"`,
        'bash',
        process.execPath,
        ...process.execArgv,
        ...process.argv.slice(1),
      ],
      { stdio: 'inherit', env: { ...process.env, BENCH_FEED_FDS_RAISED: String(soft) } },
    );
    process.exit(again.status ?? 1);
  }
}

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const list = (name: string, fallback: string) =>
  (process.env[name] ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const clientCounts = list('BENCH_FEED_CLIENTS', '1000,2500,5000').map(Number);
const idleSockets = num('BENCH_FEED_IDLE', 10_000);
const rate = num('BENCH_FEED_RATE', 20);
const sources = list('BENCH_FEED_SOURCES', 'redis,real') as Source[];
const servers = list('BENCH_FEED_SERVERS', 'bare,spinroom') as ServerName[];
const warmupSeconds = num('BENCH_WARMUP_S', 3);
const durationSeconds = num('BENCH_DURATION_S', 15);
const clientProcesses = num('BENCH_FEED_CLIENT_PROCESSES', 2);
const joinConcurrency = num('BENCH_FEED_JOIN_CONCURRENCY', 10);
const cpuProfileDir = process.env.BENCH_CPU_PROF;
/** The idle sockets' RSS is read 5 s after they are in, and again this much later, the sockets still open and idle. */
const settleSeconds = num('BENCH_FEED_SETTLE_S', 15);
const VOTERS = 20;
// Below the ephemeral range (32768-60999 here): thousands of client sockets take
// ephemeral ports, and one could hold a service's port when the next run starts.
const ports = { bff: 8380, bare: 8381, ...servicePorts(28350) };
const TARGET = { listeners: 5000, rate: 20, p99Ms: 150, percentOfBare: 90, idleSockets: 10_000, freshRssMib: 130, joinedRssMib: 250 };
/** The BFF's Node options in its chart (helm/spinroom/values.yaml, bff.env.NODE_OPTIONS); BENCH_BFF_NODE_OPTIONS to compare others. */
const BFF_NODE_OPTIONS = process.env.BENCH_BFF_NODE_OPTIONS ?? '--max-semi-space-size=16';
/** Listeners and harness on one core, servers on another (see the header). */
const PIN = process.env.BENCH_FEED_PIN !== 'off' && availableParallelism() >= 2 ? { clients: '0', servers: '1' } : undefined;

/** Pins every thread of `pid` to `cpus` (threads it starts later inherit it). */
function pin(pid: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}

type Source = 'redis' | 'real';
type ServerName = 'spinroom' | 'bare';

for (const key of Object.keys(process.env)) {
  if (key.startsWith('OTEL_EXPORTER_OTLP_')) delete process.env[key]; // telemetry as production has it, nothing exported
}

const processes = benchProcesses<Pick<ServiceProcess, 'name' | 'stop'>>();
const { children, stopAll } = processes;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Resident memory of a process, MiB (VmRSS). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}

/** The bare server, without the telemetry preload (see its header). */
function startBare(env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/bare-ws-server.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return managed('bare-ws', child);
}

// --- client processes ---

class ClientProcess {
  private readonly child: ChildProcess;
  private waiting: Array<(reply: ClientReply) => void> = [];

  constructor(readonly index: number) {
    this.child = fork(join(repoRoot, 'scripts/bench/feed-clients.ts'), [], {
      cwd: repoRoot,
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (reply: ClientReply) => this.waiting.shift()?.(reply));
    this.child.once('exit', (code) => {
      if (!processes.stopping) console.error(`feed clients ${index} exited (code ${code})`);
    });
    children.push(managed(`clients ${index}`, this.child));
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Commands are answered in order, one reply each. */
  send<T extends ClientReply['type']>(command: ClientCommand): Promise<Extract<ClientReply, { type: T }>> {
    return new Promise((resolve) => {
      this.waiting.push(resolve as (reply: ClientReply) => void);
      this.child.send(command);
    });
  }
}

type Connected = Extract<ClientReply, { type: 'connected' }>;
type Stopped = Extract<ClientReply, { type: 'stopped' }>;

/** Splits `count` sockets over the client processes; answers the sum and the wall time. */
async function connectAll(procs: ClientProcess[], url: string, tokens: string[], count: number, roomUuid: string | undefined) {
  const share = (i: number) => Math.floor(count / procs.length) + (i < count % procs.length ? 1 : 0);
  const started = performance.now();
  const replies = await Promise.all(
    procs.map((p, i) => p.send<'connected'>({ type: 'connect', url, tokens, count: share(i), roomUuid, concurrency: joinConcurrency })),
  );
  return summed(replies, performance.now() - started);
}

function summed(replies: Connected[], ms: number) {
  const total = (key: 'open' | 'failed' | 'joined' | 'joinFailed') => replies.reduce((s, r) => s + r[key], 0);
  const errors = replies.flatMap((r) => r.errors);
  return { open: total('open'), failed: total('failed'), joined: total('joined'), joinFailed: total('joinFailed'), ms, errors };
}

async function closeAll(procs: ClientProcess[]): Promise<void> {
  await Promise.all(procs.map((p) => p.send<'closed'>({ type: 'close' })));
}

function merge(replies: Stopped[]) {
  const histogram = new Array<number>(HISTOGRAM_MS + 1).fill(0);
  for (const r of replies) {
    for (const [i, n] of r.histogram.entries()) histogram[i]! += n;
  }
  const deliveries = replies.reduce((s, r) => s + r.deliveries, 0);
  const over = replies.reduce((s, r) => s + r.over, 0);
  const percentile = (p: number): number => {
    const rank = Math.ceil((p / 100) * deliveries);
    let seen = 0;
    for (let ms = 0; ms <= HISTOGRAM_MS; ms += 1) {
      seen += histogram[ms]!;
      if (seen >= rank) return ms;
    }
    return Infinity; // beyond the histogram
  };
  const seconds = Math.max(...replies.map((r) => r.seconds));
  return {
    deliveries,
    perSecond: deliveries / seconds,
    p50: deliveries ? percentile(50) : NaN,
    p99: deliveries ? percentile(99) : NaN,
    max: Math.max(...replies.map((r) => r.max)),
    over,
    seconds,
    open: replies.reduce((s, r) => s + r.open, 0),
    closedDuring: replies.reduce((s, r) => s + r.closedDuring, 0),
    resets: replies.reduce((s, r) => s + r.resets, 0),
  };
}

// --- the feed protocol, for the voters (a handful of sockets in this process) ---

class FeedSocket {
  private nextId = 1;
  private readonly pending = new Map<number, (answer: any) => void>();
  readonly heard: string[] = [];
  keepHeard = false;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text.startsWith('"primus::ping::')) return ws.send(text.replace('ping', 'pong'));
      const message = JSON.parse(text);
      if (message.context === 'response') {
        this.pending.get(message.messageId)?.(message);
        this.pending.delete(message.messageId);
      } else if (this.keepHeard) this.heard.push(text);
    });
  }

  static open(url: string, token: string): Promise<FeedSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${url}?token=${encodeURIComponent(token)}`, { perMessageDeflate: false });
      ws.once('open', () => resolve(new FeedSocket(ws)));
      ws.once('error', reject);
    });
  }

  action(action: string, roomUuid: string, params: Record<string, unknown> = {}): Promise<any> {
    const messageId = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${action}: no answer in 10 s`)), 10_000);
      this.pending.set(messageId, (answer) => {
        clearTimeout(timer);
        if (answer.error) reject(new Error(`${action}: ${answer.error}`));
        else resolve(answer);
      });
      this.ws.send(JSON.stringify({ event: 'action', params: { action, roomUuid, ...params }, messageId }));
    });
  }

  close(): void {
    this.ws.close();
  }
}

// --- patch sources ---

/** Calls `tick(k)` at `perSecond`, on a schedule that does not drift; stop() ends it. */
function paced(perSecond: number, tick: (k: number) => void) {
  const started = performance.now();
  let k = 0;
  let timer: NodeJS.Timeout | undefined;
  let running = true;
  const step = () => {
    if (!running) return;
    const now = performance.now();
    while (started + (k * 1000) / perSecond <= now) tick(k++);
    timer = setTimeout(step, Math.max(0, started + (k * 1000) / perSecond - performance.now()));
  };
  step();
  return {
    get count() {
      return k;
    },
    stop() {
      running = false;
      clearTimeout(timer);
    },
  };
}

// The room service's save script, reduced to what a patch needs: bump the
// revision (so a concurrent save retries) and the version, and publish.
const PUBLISH_PATCH = `
local v = redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HINCRBY', KEYS[1], 'rev', 1)
local json = string.gsub(ARGV[1], '@V@', tostring(v))
redis.call('PUBLISH', KEYS[2], 's|' .. v .. '||' .. json)
return v
`;

interface PatchSource {
  start(): void;
  /** Patches sent (or actions acknowledged) since start; failures. */
  stop(): { sent: number; failed: number; errors: string[] };
}

function redisSource(redis: Redis, roomUuid: string, template: string): PatchSource {
  let run: ReturnType<typeof paced> | undefined;
  let failed = 0;
  const errors: string[] = [];
  return {
    start() {
      failed = 0;
      run = paced(rate, () => {
        const json = template.replace('@SENT_AT@', String(Date.now()));
        redis.eval(PUBLISH_PATCH, 2, `room:live:${roomUuid}`, feedChannel(roomUuid), json).catch((error: Error) => {
          failed += 1;
          if (errors.length < 3) errors.push(error.message);
        });
      });
    },
    stop() {
      run!.stop();
      return { sent: run!.count - failed, failed, errors };
    },
  };
}

function realSource(voters: FeedSocket[], roomUuid: string): PatchSource {
  let run: ReturnType<typeof paced> | undefined;
  let acked = 0;
  let failed = 0;
  const errors: string[] = [];
  const like = voters.map(() => true);
  return {
    start() {
      acked = failed = 0;
      run = paced(rate, (k) => {
        const i = k % voters.length;
        like[i] = !like[i];
        voters[i]!.action('voteOnSong', roomUuid, { songVotes: { like: like[i] } }).then(
          () => (acked += 1),
          (error: Error) => {
            failed += 1;
            if (errors.length < 3) errors.push(error.message);
          },
        );
      });
    },
    stop() {
      run!.stop();
      return { sent: acked, failed, errors };
    },
  };
}

// --- the quiet machine ---

let quietBudgetMs = num('BENCH_QUIET_WAIT_S', 120) * 1000;
/** Waits (within a budget for the whole run) until other work leaves the machine mostly idle; answers the load seen. */
async function waitForQuietMachine(maxBusyPercent: number): Promise<number> {
  let busy = await machineBusyOver(1000);
  if (busy <= maxBusyPercent) return busy;
  process.stdout.write(`(machine ${Math.round(busy)}% busy; waiting up to ${Math.round(quietBudgetMs / 1000)}s) `);
  while (busy > maxBusyPercent && quietBudgetMs > 0) {
    quietBudgetMs -= 1000;
    busy = await machineBusyOver(1000);
  }
  if (busy > maxBusyPercent) process.stdout.write(`(still ${Math.round(busy)}% busy; measuring anyway) `);
  return busy;
}

// --- the run ---

interface Row {
  listeners: number;
  source: Source;
  server: ServerName;
  joinsPerSecond: number;
  joinFailures: number;
  patchesPerSecond: number;
  sourceFailed: number;
  result: ReturnType<typeof merge>;
  cpu: CpuReport;
  busyBefore: number;
  rss: number;
}

/** Microseconds of the server's CPU per delivery its listeners counted. */
function cpuPerDeliveryUs(r: Row): number {
  const cores = r.cpu.cores[r.server === 'spinroom' ? 'BFF' : 'bare ws'] ?? 0;
  return r.result.perSecond > 0 ? (cores * 1e6) / r.result.perSecond : NaN;
}

interface IdleRow {
  server: ServerName;
  /** In the room (the later joins at `perSecond`), or connected and authenticated only. */
  joined: boolean;
  /** RSS (MiB) of the fresh server, and with the sockets. */
  before: number;
  after: number;
  /** RSS (MiB) `settleSeconds` after `after`, the sockets still open and idle. */
  settled: number;
  sockets: number;
  perSecond: number;
}

async function main(): Promise<void> {
  const started = new Date();
  const infra = infraUp('dev');
  await Promise.all(Object.values(ports).map(assertPortFree));
  const revision = gitRevision();
  const fdLimit = execFileSync('bash', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();

  const common = { LOG_LEVEL: 'warn', ...BENCH_LIMIT_ENV };
  const local: LocalServices = { infra, ports, suffix: '_bench_feed', common };
  const user = startLocalService('user', local, { bundled: true });
  const playlist = startLocalService('playlist', local, { bundled: true });
  const room = startLocalService('room', local, { bundled: true });
  // The upload and chat services are not started: no path here reaches them (grpc-js connects lazily).
  const bff = startServiceProcess(
    'bff',
    'bff/src/main.ts',
    {
      ...bffEnvironment(local, ports.bff),
      NODE_OPTIONS: `${BFF_NODE_OPTIONS}${cpuProfileDir ? ` --cpu-prof --cpu-prof-dir=${join(cpuProfileDir, 'bff')}` : ''}`,
    },
    { bundled: true },
  );
  children.push(user, playlist, room, bff);
  const bare = startBare({ PORT: String(ports.bare), REDIS_URL: infra.REDIS_URL });
  children.push(bare);
  const exitedEarly = () =>
    [user, playlist, room, bff, bare]
      .map((s) => (s.child.exitCode !== null ? `${s.name} exited (code ${s.child.exitCode})` : ''))
      .find(Boolean);

  const bffUrl = `http://127.0.0.1:${ports.bff}`;
  const feedUrls: Record<ServerName, string> = {
    spinroom: `ws://127.0.0.1:${ports.bff}/primus`,
    bare: `ws://127.0.0.1:${ports.bare}/primus`,
  };
  await waitForHttp(`${bffUrl}/healthz`, 120_000, exitedEarly);
  await waitForHttp(`http://127.0.0.1:${ports.bare}/healthz`, 60_000, exitedEarly);
  const call = apiClient(bffUrl);
  const retrying = <T>(task: () => Promise<T>) => retryingSetup(task, exitedEarly);

  // Accounts: the voters (voter 0 owns the room and DJs). Listeners share their
  // tokens: presence is per user, and one user on many sockets is allowed.
  const accounts: Array<{ accessToken: string; userUuid: string }> = [];
  for (let i = 0; i < VOTERS; i += 1) {
    const body = { email: `bench-feed-${i}@spinroom.local`, password: 'bench-password-7f3a', nickname: `Voter ${i}` };
    const signedUp = await retrying(() => call('POST', '/api/user-service/users/sign-up', undefined, body, [403]));
    accounts.push(
      signedUp.accessToken
        ? (signedUp as any)
        : await call('POST', '/api/user-service/auth/login', undefined, { email: body.email, password: body.password }),
    );
  }
  const tokens = accounts.map((a) => a.accessToken);
  const owner = accounts[0]!;

  // One room, big enough; the DJ's queue holds long songs (nothing ends mid-run).
  const { uuid: roomUuid } = await retrying(() =>
    call('POST', '/api/room-service/rooms/infrastructure', owner.accessToken, { name: `Feed bench ${Date.now()}`, roomSize: 10_000 }),
  );
  await retrying(() =>
    call('POST', '/api/playlist-service/crate/special/queue/songs', owner.accessToken, {
      append: true,
      songs: [1, 2, 3].map((n) => ({
        musicProvider: 'spotify',
        songId: `bench-feed-${Date.now()}-${n}`,
        trackName: `Long song ${n}`,
        artistName: 'Bench',
        duration: 3600,
      })),
    }),
  );

  // The voters join through the BFF; the owner takes the stage, and its song plays on the next beat.
  const voters: FeedSocket[] = [];
  for (const token of tokens) {
    const socket = await FeedSocket.open(feedUrls.spinroom, token);
    await socket.action('joinRoom', roomUuid);
    voters.push(socket);
  }
  await voters[0]!.action('addDj', roomUuid);
  voters[1]!.keepHeard = true;
  for (let attempt = 0; ; attempt += 1) {
    try {
      await voters[1]!.action('voteOnSong', roomUuid, { songVotes: { like: true } });
      break;
    } catch (error) {
      if (attempt > 50) throw error;
      await sleep(200);
    }
  }
  // The `redis` source's frame: a real votedOnSong message, with its time and version left open.
  for (let attempt = 0; !voters[1]!.heard.some((t) => t.includes('"votedOnSong"')); attempt += 1) {
    if (attempt > 50) throw new Error('no votedOnSong message heard');
    await sleep(100);
  }
  const sample = voters[1]!.heard.find((t) => t.includes('"votedOnSong"'))!;
  voters[1]!.keepHeard = false;
  const template = sample
    .replace(/"sentAt":\d+/, '"sentAt":@SENT_AT@')
    .replace(/"messageId":\d+/, '"messageId":@V@')
    .replace(/"version":\d+/, '"version":@V@');
  console.log(`\nRoom ${roomUuid}; ${VOTERS} voters joined; patch frame ${Buffer.byteLength(sample)} bytes: ${sample}\n`);

  const publisher = createRedis(infra.REDIS_URL);
  const patchSources: Record<Source, PatchSource> = {
    redis: redisSource(publisher, roomUuid, template),
    real: realSource(voters, roomUuid),
  };

  const procs = Array.from({ length: clientProcesses }, (_, i) => new ClientProcess(i));
  if (PIN) {
    for (const server of [user, playlist, room, bff, bare]) pin(server.child.pid!, PIN.servers);
    for (const pid of [process.pid, ...procs.map((p) => p.pid)]) pin(pid, PIN.clients);
    console.log(`Pinned: listeners and harness to CPU ${PIN.clients}, servers to CPU ${PIN.servers} (Redis unpinned)`);
  }
  const redisPidFile = join(localDir, 'dev/redis/redis.pid');
  const redisPid = existsSync(redisPidFile) ? Number(readFileSync(redisPidFile, 'utf8').trim()) : undefined;
  const serverPids: Record<ServerName, number> = { spinroom: bff.child.pid!, bare: bare.child.pid! };
  const cpuGroups: CpuGroup[] = [
    { name: 'BFF', pids: () => [bff.child.pid!] },
    { name: 'bare ws', pids: () => [bare.child.pid!] },
    { name: 'room service', pids: () => [room.child.pid!] },
    { name: 'user service', pids: () => [user.child.pid!] },
    { name: 'clients', pids: () => procs.map((p) => p.pid) },
    { name: 'harness', pids: () => [process.pid] },
    ...(redisPid ? [{ name: 'Redis', pids: () => [redisPid] }] : []),
  ];
  // Let the fresh processes settle before the first reading: as long as the idle sockets are left to settle below
  // (the BFF gives back what start-up and the setup above grew once it has been idle a while: bff/src/idle-memory.ts).
  await sleep(Math.max(3, settleSeconds) * 1000);

  // 1. Idle sockets, connected and authenticated but in no room: resident memory before and after.
  const idle: IdleRow[] = [];
  const fresh: Record<string, number> = {};
  for (const server of servers) fresh[server] = rssMb(serverPids[server]);
  if (idleSockets > 0) {
    for (const server of servers) {
      const pid = serverPids[server];
      process.stdout.write(`${server}: ${fmt(idleSockets)} idle sockets, no room: RSS ${fmt(fresh[server]!, 1)} MiB before, `);
      const connected = await connectAll(procs, feedUrls[server], tokens, idleSockets, undefined);
      if (connected.failed) process.stdout.write(`(${connected.failed} failed to connect: ${connected.errors.join('; ')}) `);
      await sleep(5000);
      const rss = rssMb(pid);
      await sleep(settleSeconds * 1000);
      const settled = rssMb(pid);
      console.log(
        `${fmt(rss, 1)} MiB after, ${fmt(settled, 1)} MiB ${settleSeconds} s later (${fmt(connected.open)} open, ${fmt((1000 * connected.open) / connected.ms)} connects/s)`,
      );
      idle.push({
        server,
        joined: false,
        before: fresh[server]!,
        after: rss,
        settled,
        sockets: connected.open,
        perSecond: (1000 * connected.open) / connected.ms,
      });
      await closeAll(procs);
      await sleep(2000);
    }
  }

  // 2. Delivery: for each server, listeners added up to each count (joins cost the
  // room service; sockets already joined stay), each patch source in turn.
  const rows: Row[] = [];
  for (const server of servers) {
    let current = 0;
    for (const listeners of clientCounts) {
      const connected = await connectAll(procs, feedUrls[server], tokens, listeners - current, roomUuid);
      current += connected.joined;
      const joinsPerSecond = (1000 * connected.joined) / connected.ms;
      console.log(
        `${server}: ${fmt(current)} listeners (${fmt(connected.joined)} joined in ${fmt(connected.ms / 1000, 1)} s, ${fmt(joinsPerSecond)}/s)` +
          `${connected.failed + connected.joinFailed ? `; ${connected.failed} connects and ${connected.joinFailed} joins failed: ${connected.errors.join('; ')}` : ''}`,
      );
      for (const source of sources) {
        await sleep(1000);
        const busyBefore = await waitForQuietMachine(25);
        process.stdout.write(`  ${source} patches at ${rate}/s: warm-up ${warmupSeconds}s, measuring ${durationSeconds}s... `);
        const patches = patchSources[source];
        patches.start();
        await sleep(warmupSeconds * 1000);
        await Promise.all(procs.map((p) => p.send<'started'>({ type: 'start' })));
        const endCpu = startCpuWindow(cpuGroups);
        await sleep(durationSeconds * 1000);
        // The window ends for the clients first, while patches still flow: in-flight ones count at both ends alike.
        const result = merge(await Promise.all(procs.map((p) => p.send<'stopped'>({ type: 'stop' }))));
        const cpu = endCpu();
        const sent = patches.stop();
        rows.push({
          listeners: current,
          source,
          server,
          joinsPerSecond,
          joinFailures: connected.failed + connected.joinFailed,
          patchesPerSecond: sent.sent / (warmupSeconds + durationSeconds),
          sourceFailed: sent.failed,
          result,
          cpu,
          busyBefore,
          rss: rssMb(serverPids[server]),
        });
        console.log(
          `${fmt(result.perSecond)} deliveries/s, p50 ${fmt(result.p50)} ms, p99 ${fmt(result.p99)} ms, max ${fmt(result.max)} ms` +
            `, ${server === 'spinroom' ? 'BFF' : 'bare ws'} ${fmt(cpu.cores[server === 'spinroom' ? 'BFF' : 'bare ws'] ?? 0, 2)} cores` +
            ` (${fmt(cpuPerDeliveryUs(rows.at(-1)!), 2)} µs a delivery)` +
            `${sent.failed ? `; ${sent.failed} patches failed (${sent.errors.join('; ')})` : ''}` +
            `${result.closedDuring ? `; ${result.closedDuring} sockets closed` : ''}`,
        );
      }
    }
    // 3. Idle sockets joined to the room: the listeners above, plus more up to the idle count, no patches flowing.
    if (idleSockets > current) {
      const before = rssMb(serverPids[server]);
      const connected = await connectAll(procs, feedUrls[server], tokens, idleSockets - current, roomUuid);
      current += connected.joined;
      await sleep(5000);
      const rss = rssMb(serverPids[server]);
      await sleep(settleSeconds * 1000);
      const settled = rssMb(serverPids[server]);
      console.log(
        `${server}: ${fmt(current)} idle sockets joined to the room: RSS ${fmt(rss, 1)} MiB, ${fmt(settled, 1)} MiB ${settleSeconds} s later (${fmt(before, 1)} MiB with the listeners before; ` +
          `${fmt(connected.joined)} joined at ${fmt((1000 * connected.joined) / connected.ms)}/s` +
          `${connected.failed + connected.joinFailed ? `; ${connected.failed + connected.joinFailed} failed: ${connected.errors.join('; ')}` : ''})`,
      );
      idle.push({
        server,
        joined: true,
        before: fresh[server]!,
        after: rss,
        settled,
        sockets: current,
        perSecond: (1000 * connected.joined) / connected.ms,
      });
    }
    await closeAll(procs);
    await sleep(2000);
  }
  for (const v of voters) v.close();
  publisher.disconnect();

  console.log(`\n${markdown(rows, idle, started, revision, fdLimit)}\n`);
}

function markdown(rows: Row[], idle: IdleRow[], started: Date, revision: string, fdLimit: string): string {
  const lines: string[] = [];
  const ms = (n: number) => (Number.isFinite(n) ? fmt(n) : `> ${fmt(HISTOGRAM_MS)}`);
  lines.push(
    `Run ${started.toISOString().replace(/\.\d+Z$/, 'Z')}, \`npm run bench\` (scripts/bench/feed.ts), ${rate} patches/s, ` +
      `${warmupSeconds}s warm-up + ${durationSeconds}s measured per row, ${clientProcesses} client processes, Node ${process.version}, ` +
      `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}${PIN ? `; listeners and harness pinned to CPU ${PIN.clients}, servers to CPU ${PIN.servers}` : ''}), ${Math.round(totalmem() / 2 ** 30)} GiB, ulimit -n ${fdLimit}, code at ${revision}; the BFF with NODE_OPTIONS=${BFF_NODE_OPTIONS}.`,
    '',
    '| listeners | patch source | server | joins/s | patches/s sent | deliveries/s | of expected | p50 ms | p99 ms | max ms | server CPU (cores) | server CPU µs a delivery | clients CPU | room service CPU | server RSS MiB | machine busy (before / during) |',
    '|--:|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  );
  for (const r of rows) {
    const serverCpu = r.cpu.cores[r.server === 'spinroom' ? 'BFF' : 'bare ws'] ?? 0;
    const expected = r.listeners * r.patchesPerSecond;
    lines.push(
      `| ${fmt(r.listeners)} | ${r.source} | ${r.server === 'spinroom' ? 'Spinroom BFF' : 'bare ws'} | ${fmt(r.joinsPerSecond)} | ${fmt(r.patchesPerSecond, 1)} | ` +
        `${fmt(r.result.perSecond)} | ${fmt((100 * r.result.perSecond) / expected, 1)}% | ${ms(r.result.p50)} | ${ms(r.result.p99)} | ${fmt(r.result.max)} | ` +
        `${fmt(serverCpu, 2)} | ${fmt(cpuPerDeliveryUs(r), 2)} | ${fmt(r.cpu.cores.clients ?? 0, 2)} | ${fmt(r.cpu.cores['room service'] ?? 0, 2)} | ${fmt(r.rss)} | ${fmt(r.busyBefore)}% / ${fmt(r.cpu.machineBusyPercent)}% |`,
    );
  }
  lines.push(
    '',
    '| listeners | patch source | Spinroom deliveries/s | bare ws deliveries/s | ratio | Spinroom p99 / bare p99 (ms) | BFF CPU / bare CPU (cores) | CPU µs a delivery: BFF / bare (ratio) | target (5,000 at 20/s: p99 < 150 ms, >= 90% of bare) |',
    '|--:|---|--:|--:|--:|--:|--:|--:|---|',
  );
  for (const r of rows.filter((x) => x.server === 'spinroom')) {
    const b = rows.find((x) => x.server === 'bare' && x.listeners === r.listeners && x.source === r.source);
    if (!b) continue;
    const ratio = (100 * r.result.perSecond) / b.result.perSecond;
    const targetRow = r.listeners === TARGET.listeners && rate === TARGET.rate;
    const verdict = !targetRow
      ? ''
      : r.result.p99 < TARGET.p99Ms && ratio >= TARGET.percentOfBare
        ? 'met'
        : `**missed** (${[r.result.p99 >= TARGET.p99Ms ? `p99 ${ms(r.result.p99)} ms` : '', ratio < TARGET.percentOfBare ? `${fmt(ratio, 1)}% of bare` : ''].filter(Boolean).join(', ')})`;
    lines.push(
      `| ${fmt(r.listeners)} | ${r.source} | ${fmt(r.result.perSecond)} | ${fmt(b.result.perSecond)} | ${fmt(ratio, 1)}% | ${ms(r.result.p99)} / ${ms(b.result.p99)} | ` +
        `${fmt(r.cpu.cores.BFF ?? 0, 2)} / ${fmt(b.cpu.cores['bare ws'] ?? 0, 2)} | ` +
        `${fmt(cpuPerDeliveryUs(r), 2)} / ${fmt(cpuPerDeliveryUs(b), 2)} (${fmt(cpuPerDeliveryUs(r) / cpuPerDeliveryUs(b), 2)}) | ${verdict} |`,
    );
  }
  if (idle.length) {
    lines.push(
      '',
      `| server | idle sockets | in the room | RSS fresh (MiB) | RSS with the sockets (MiB) | the same ${settleSeconds} s later | added per socket | connects or joins/s | target (the BFF: fresh <= 130 MiB; 10,000 joined <= 250 MiB) |`,
      '|---|--:|---|--:|--:|--:|--:|--:|---|',
    );
    for (const i of idle) {
      const verdict =
        i.server !== 'spinroom'
          ? '(reference)'
          : `fresh ${i.before <= TARGET.freshRssMib ? 'met' : '**missed**'} (${fmt(i.before, 1)} MiB)` +
            (i.joined
              ? `; joined ${i.after <= TARGET.joinedRssMib ? 'met' : '**missed**'} (${fmt(i.after, 1)} MiB), ${settleSeconds} s later ${i.settled <= TARGET.joinedRssMib ? 'met' : '**missed**'}`
              : '');
      lines.push(
        `| ${i.server === 'spinroom' ? 'Spinroom BFF' : 'bare ws'} | ${fmt(i.sockets)} | ${i.joined ? 'joined' : 'no (authenticated only)'} | ${fmt(i.before, 1)} | ` +
          `${fmt(i.after, 1)} | ${fmt(i.settled, 1)} | ${fmt((1024 * (i.after - i.before)) / Math.max(1, i.sockets), 1)} KiB | ${fmt(i.perSecond)} | ${verdict} |`,
      );
    }
  }
  return lines.join('\n');
}

try {
  await main();
  await stopAll();
  process.exit(0);
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  await stopAll();
  process.exit(1);
}
