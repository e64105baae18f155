// Join benchmark (issue 19, "joins as cheap as a socket"): how fast WebSocket clients
// enter ONE room through one BFF and one room-service process, beside a bare
// `ws` server (scripts/bench/bare-ws-server.ts, which answers any action OK)
// taking the same arrivals in the same run. An arrival is a WebSocket connect
// plus a `joinRoom` answered; its latency runs from the connect's start to the
// answer. Each joiner is a distinct guest (GET /auth/guest), so the room really
// grows: the room is filled in steps (BENCH_JOINS_STEPS, 1000,2500,5000) and
// each step's rate, p50/p99 and CPU per arrival (from /proc, per process) are
// printed, the bare server's step first, then Spinroom's.
//
// Uses the dev profile's infrastructure as it is (never starts or stops it) and
// starts, on ports and databases of its own, the user, playlist and room
// services and one BFF as their images run them (bundled), and the bare server.
// The clients are child processes (this file with `clients`), so the servers'
// CPU is measured apart; they read with a light reader (`openReader`, below), which
// checks each answer but keeps nothing else of what it reads, and count the room's
// messages and the bytes each arrival receives. Knobs: BENCH_JOINS_STEPS, BENCH_JOINS_CONCURRENCY (50
// in flight per client process), BENCH_JOINS_CLIENT_PROCESSES (2),
// BENCH_JOINS_SERVERS (bare,bare-room,spinroom: `bare-room` is the bare server
// answering as the protocol must, the room's state to each joiner and each 100 ms's
// joiners to everyone, BARE_ROOM in bare-ws-server.ts), BENCH_JOINS_BFF_PROFILE (a folder: the
// BFF's CPU profile is written there when it stops), BENCH_JOINS_ROOM_PROFILE and
// BENCH_JOINS_CLIENT_PROFILE (the same for the room service and the client processes).
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { apiClient } from '../lib/http.js';
import { localDir, readInfraEnv, repoRoot } from '../lib/infra.js';
import { managed, startServiceProcess, waitForHttp, type ServiceProcess } from '../lib/processes.js';
import { bffEnvironment, serviceEnvironment, servicePorts, startLocalService, type LocalServices } from '../lib/services.js';
import { postgresPids, startCpuWindow, type CpuGroup } from './cpu.js';
import { assertPortFree, BENCH_LIMIT_ENV, benchProcesses, gitRevision, retryingSetup } from './run.js';

type Command = { type: 'arrive'; url: string; roomUuid: string; tokens: string[]; concurrency: number; whole: boolean } | { type: 'close' };
type Reply = { type: 'arrived'; latencies: number[]; failed: number; errors: string[]; heard: number; bytes: number } | { type: 'closed' };

// --- the client processes ---

if (process.argv[2] === 'clients') {
  const sockets: Socket[] = [];
  /** Messages heard from the room (everything but pings and the socket's own answer), by every socket here. */
  let heard = 0;
  /** The payload bytes of every message received here (answers and room messages). */
  let bytes = 0;
  const RESPONSE = Buffer.from('{"context":"response"');
  const PING = Buffer.from('"primus::ping::');
  const OK = Buffer.from('"status":"OK"');
  const VERSION = Buffer.from(',"version":');
  // A message's first bytes compared, not the whole message searched: the room's messages (each batch's
  // `userJoined`) and the joiner's `updatedUserData` (the whole room) pass through untouched.
  const startsWith = (data: Buffer, prefix: Buffer) =>
    data.length >= prefix.length && data.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;
  // `whole`: the answer must be the protocol's joinRoom answer (the bare server's is `status` alone).
  const arrive = (url: string, token: string, roomUuid: string, whole: boolean): Promise<number> =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const room = Buffer.from(`"roomUuid":${JSON.stringify(roomUuid)}`);
      let answered = false;
      const fail = (error: Error) => {
        if (answered) return;
        answered = true;
        clearTimeout(timer);
        reject(error);
      };
      const timer = setTimeout(() => fail(new Error('no answer in 30 s')), 30_000);
      const socket = openReader(`${url}?token=${encodeURIComponent(token)}`, {
        open: () => socket.write(maskedText(JSON.stringify({ event: 'action', params: { action: 'joinRoom', roomUuid }, messageId: 1 }))),
        message: ({ head, length, last }) => {
          bytes += length;
          if (startsWith(head, PING)) {
            socket.write(maskedText(head.toString().replace('ping', 'pong')));
            return;
          }
          if (answered || !startsWith(head, RESPONSE)) {
            heard += 1;
            return;
          }
          answered = true;
          clearTimeout(timer);
          // The answer's head (this socket's own bytes, then the shared state): OK, this room, a version, a whole object.
          const ok = head.includes(OK) && (!whole || (head.includes(room) && head.includes(VERSION))) && last === 0x7d;
          if (ok) resolve(performance.now() - started);
          else reject(new Error(`${head.subarray(0, 200).toString()} (${length} bytes)`));
        },
        error: fail,
      });
      sockets.push(socket);
    });
  process.on('message', (command: Command) => {
    void (async (): Promise<Reply> => {
      if (command.type === 'close') {
        for (const socket of sockets.splice(0)) socket.destroy();
        return { type: 'closed' };
      }
      const latencies: number[] = [];
      const errors: string[] = [];
      let failed = 0;
      let next = 0;
      await Promise.all(
        Array.from({ length: command.concurrency }, async () => {
          while (next < command.tokens.length) {
            const token = command.tokens[next++]!;
            try {
              latencies.push(await arrive(command.url, token, command.roomUuid, command.whole));
            } catch (error) {
              failed += 1;
              if (errors.length < 3) errors.push((error as Error).message);
            }
          }
        }),
      );
      const reply = { type: 'arrived' as const, latencies, failed, errors, heard, bytes };
      heard = 0;
      bytes = 0;
      return reply;
    })().then((reply) => process.send!(reply));
  });
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0)); // so that --cpu-prof writes its profile
} else {
  await runBenchmark();
}

// --- the run ---

async function runBenchmark(): Promise<void> {
  const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
  const steps = (process.env.BENCH_JOINS_STEPS ?? '1000,2500,5000').split(',').map(Number);
  const concurrency = num('BENCH_JOINS_CONCURRENCY', 50);
  const clientCount = num('BENCH_JOINS_CLIENT_PROCESSES', 2);
  const servers = (process.env.BENCH_JOINS_SERVERS ?? 'bare,bare-room,spinroom').split(',') as Array<'bare' | 'bare-room' | 'spinroom'>;
  const ports = { bff: 8390, bare: 8391, bareRoom: 8392, ...servicePorts(28450) };
  for (const key of Object.keys(process.env)) if (key.startsWith('OTEL_EXPORTER_OTLP_')) delete process.env[key];
  const processes = benchProcesses<Pick<ServiceProcess, 'name' | 'stop'>>();
  const { children, stopAll } = processes;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

  try {
    const infra = readInfraEnv('dev');
    await Promise.all(Object.values(ports).map(assertPortFree));
    const local: LocalServices = { infra, ports, suffix: '_bench_joins', common: { LOG_LEVEL: 'warn', ...BENCH_LIMIT_ENV } };
    const user = startLocalService('user', local, { bundled: true });
    const playlist = startLocalService('playlist', local, { bundled: true });
    const roomProfile = process.env.BENCH_JOINS_ROOM_PROFILE;
    const room = roomProfile
      ? startServiceProcess('room', 'services/room/src/main.ts', serviceEnvironment('room', local), {
          bundled: true,
          nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${roomProfile}`],
        })
      : startLocalService('room', local, { bundled: true });
    // BENCH_JOINS_BFF_PROFILE=<dir>: the BFF writes a V8 CPU profile there when it stops (node --cpu-prof).
    const profileDir = process.env.BENCH_JOINS_BFF_PROFILE;
    const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
    const bff = startServiceProcess('bff', 'bff/src/main.ts', bffEnvironment(local, ports.bff), { bundled: true, nodeArgs });
    const startBare = (name: string, port: number, env: Record<string, string>) =>
      managed(
        name,
        fork(join(repoRoot, 'scripts/bench/bare-ws-server.ts'), [], {
          cwd: repoRoot,
          execArgv: ['--import', 'tsx'],
          env: { ...process.env, PORT: String(port), REDIS_URL: infra.REDIS_URL, ...env },
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        }),
      );
    const bare = startBare('bare-ws', ports.bare, {});
    const bareRoom = startBare('bare-room', ports.bareRoom, { BARE_ROOM: '1' });
    children.push(user, playlist, room, bff, bare, bareRoom);
    const exitedEarly = () =>
      [user, playlist, room, bff, bare, bareRoom]
        .map((s) => (s.child.exitCode !== null ? `${s.name} exited (code ${s.child.exitCode})` : ''))
        .find(Boolean);
    const bffUrl = `http://127.0.0.1:${ports.bff}`;
    await waitForHttp(`${bffUrl}/healthz`, 180_000, exitedEarly);
    await waitForHttp(`http://127.0.0.1:${ports.bare}/healthz`, 60_000, exitedEarly);
    await waitForHttp(`http://127.0.0.1:${ports.bareRoom}/healthz`, 60_000, exitedEarly);
    const call = apiClient(bffUrl);
    const retrying = <T>(task: () => Promise<T>) => retryingSetup(task, exitedEarly);

    const owner = await retrying(async () => {
      const body = { email: `bench-joins-owner@spinroom.local`, password: 'bench-password-7f3a', nickname: 'Join owner' };
      const signedUp = await call('POST', '/api/user-service/users/sign-up', undefined, body, [403]);
      return signedUp.accessToken
        ? signedUp
        : call('POST', '/api/user-service/auth/login', undefined, { email: body.email, password: body.password });
    });
    const total = Math.max(...steps);
    // What making the guests costs each process (outside the join windows): a new account's profile may be
    // announced then (the room service caches it from the user service's event) rather than fetched at its first join.
    const pidFrom = (path: string) => {
      const pid = existsSync(path) ? Number(readFileSync(path, 'utf8').split('\n')[0]!.trim()) : NaN;
      return Number.isInteger(pid) && pid > 0 ? pid : undefined;
    };
    const redisPid = pidFrom(join(localDir, 'dev/redis/redis.pid'));
    const postgresPid = pidFrom(join(localDir, 'dev/postgres/data/postmaster.pid'));
    const kafkaPid = pidFrom(join(localDir, 'dev/kafka/kafka.pid'));
    const making = startCpuWindow([
      { name: 'BFF', pids: () => [bff.child.pid!] },
      { name: 'user', pids: () => [user.child.pid!] },
      { name: 'room', pids: () => [room.child.pid!] },
      ...(redisPid ? [{ name: 'Redis', pids: () => [redisPid] }] : []),
      ...(postgresPid ? [{ name: 'PostgreSQL', pids: () => postgresPids(postgresPid) }] : []),
      ...(kafkaPid ? [{ name: 'Kafka', pids: () => [kafkaPid] }] : []),
    ]);
    const makingStarted = performance.now();
    // The bare servers ignore the token: their arrivals present the first guest's (the same bytes on the wire).
    const wanted = total * Math.max(1, servers.filter((s) => s === 'spinroom').length);
    process.stdout.write(`Making ${fmt(wanted)} guests... `);
    const guests: string[] = [];
    let made = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (made < wanted) {
          made += 1;
          guests.push((await retrying(() => call('GET', '/api/user-service/auth/guest'))).accessToken as string);
        }
      }),
    );
    await sleep(3000); // the events of the last ones consumed
    const madeIn = (performance.now() - makingStarted) / 1000;
    const makingCpu = making();
    const perGuest = (name: string) => fmt(((makingCpu.cores[name] ?? 0) * madeIn * 1000) / wanted, 3);
    console.log(
      `done; CPU ms per guest (over ${fmt(madeIn, 1)} s, 3 s after the last): BFF ${perGuest('BFF')}, user ${perGuest('user')}, room ${perGuest('room')}, Redis ${perGuest('Redis')}, PostgreSQL ${perGuest('PostgreSQL')}, Kafka ${perGuest('Kafka')}`,
    );

    const clients: Array<{ child: ChildProcess; waiting: Array<(r: Reply) => void> }> = [];
    for (let i = 0; i < clientCount; i += 1) {
      const clientProfile = process.env.BENCH_JOINS_CLIENT_PROFILE;
      const child = fork(join(repoRoot, 'scripts/bench/joins.ts'), ['clients'], {
        cwd: repoRoot,
        execArgv: [...(clientProfile ? ['--cpu-prof', `--cpu-prof-dir=${clientProfile}`] : []), '--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      const entry = { child, waiting: [] as Array<(r: Reply) => void> };
      child.on('message', (reply: Reply) => entry.waiting.shift()?.(reply));
      clients.push(entry);
      children.push(managed(`clients ${i}`, child));
    }
    const ask = <T extends Reply>(c: (typeof clients)[number], command: Command) =>
      new Promise<T>((resolve) => {
        c.waiting.push(resolve as (r: Reply) => void);
        c.child.send(command);
      });

    const groups: CpuGroup[] = [
      { name: 'bare', pids: () => [bare.child.pid!] },
      { name: 'bare-room', pids: () => [bareRoom.child.pid!] },
      { name: 'BFF', pids: () => [bff.child.pid!] },
      { name: 'room', pids: () => [room.child.pid!] },
      { name: 'user', pids: () => [user.child.pid!] },
      { name: 'clients', pids: () => clients.map((c) => c.child.pid!) },
      ...(redisPid ? [{ name: 'Redis', pids: () => [redisPid] }] : []),
    ];
    await sleep(3000);

    console.log(`\nJoins into one room, ${clientCount} client processes x ${concurrency} in flight; revision ${gitRevision()}`);
    console.log(
      '| server | room size after | arrivals | failed | arrivals/s | p50 ms | p99 ms | max ms | CPU ms per arrival: server (BFF + room + user + Redis) | room messages heard per arrival | MB received per arrival | machine busy (load average) |',
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |');
    let used = 0;
    for (const server of servers) {
      const { uuid: roomUuid } = await retrying(() =>
        call('POST', '/api/room-service/rooms/infrastructure', owner.accessToken, { name: `Join bench ${Date.now()}`, roomSize: 10_000 }),
      );
      const port = { bare: ports.bare, 'bare-room': ports.bareRoom, spinroom: ports.bff }[server];
      const url = `ws://127.0.0.1:${port}/primus`;
      let size = 0;
      for (const step of steps) {
        const tokens = server === 'spinroom' ? guests.slice(used, used + step - size) : Array<string>(step - size).fill(guests[0]!);
        if (server === 'spinroom') used += tokens.length;
        const share = (i: number) => tokens.filter((_, k) => k % clients.length === i);
        const stop = startCpuWindow(groups);
        const started = performance.now();
        const replies = await Promise.all(
          clients.map((c, i) =>
            ask<Extract<Reply, { type: 'arrived' }>>(c, {
              type: 'arrive',
              url,
              roomUuid,
              tokens: share(i),
              concurrency,
              whole: server !== 'bare',
            }),
          ),
        );
        const seconds = (performance.now() - started) / 1000;
        const cpu = stop();
        const latencies = replies.flatMap((r) => r.latencies).sort((a, b) => a - b);
        const failed = replies.reduce((s, r) => s + r.failed, 0);
        const heard = replies.reduce((s, r) => s + r.heard, 0);
        const received = replies.reduce((s, r) => s + r.bytes, 0);
        const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? NaN;
        const perArrival = (cores: number | undefined) => ((cores ?? 0) * seconds * 1000) / Math.max(1, latencies.length);
        const parts =
          server !== 'spinroom'
            ? `${fmt(perArrival(cpu.cores[server]), 3)} (${server}) + ${fmt(perArrival(cpu.cores.Redis), 3)} Redis`
            : `${fmt(perArrival(cpu.cores.BFF), 3)} + ${fmt(perArrival(cpu.cores.room), 3)} + ${fmt(perArrival(cpu.cores.user), 3)} + ${fmt(perArrival(cpu.cores.Redis), 3)}`;
        size += latencies.length;
        console.log(
          `| ${server} | ${fmt(size)} | ${fmt(latencies.length)} | ${failed} | ${fmt(latencies.length / seconds)} | ${fmt(at(50), 1)} | ${fmt(at(99), 1)} | ${fmt(latencies.at(-1) ?? NaN, 1)} | ${parts}; clients ${fmt(perArrival(cpu.cores.clients), 3)} | ${fmt(heard / Math.max(1, latencies.length), 1)} | ${fmt(received / 1e6 / Math.max(1, latencies.length), 2)} | ${fmt(cpu.machineBusyPercent)}% (${fmt(loadavg()[0]!, 1)}) |`,
        );
        for (const e of replies.flatMap((r) => r.errors).slice(0, 3)) console.log(`  error: ${e}`);
      }
      await Promise.all(clients.map((c) => ask(c, { type: 'close' })));
      await sleep(2000);
    }
  } finally {
    await stopAll();
  }
}

// --- a light WebSocket client for the generator ---

/** A text message as the generator reads it: its first bytes, its length and its last byte (nothing more is kept). */
interface MessageView {
  head: Buffer;
  length: number;
  last: number;
}

const HEAD_BYTES = 512;
const READ_BUFFER = Buffer.allocUnsafe(256 * 1024);

/** `text` as a client's text frame (masked, RFC 6455 5.3). */
function maskedText(text: string): Buffer {
  const payload = Buffer.from(text);
  const n = payload.length;
  const header = n < 126 ? Buffer.from([0x81, 0x80 | n]) : Buffer.from([0x81, 0x80 | 126, n >> 8, n & 0xff]);
  if (n >= 65_536) throw new Error('the generator sends short frames only');
  const mask = randomBytes(4);
  for (let i = 0; i < n; i += 1) payload[i]! ^= mask[i & 3]!;
  return Buffer.concat([header, mask, payload]);
}

/**
 * A WebSocket to `url` (ws://) read frame by frame without keeping any
 * message whole: each text message is handed over as its first bytes, its
 * length and its last byte once its last byte came. The room's join answers
 * are the whole room (1.6 MB at 5,000), twice per join; `ws` concatenates
 * each into one buffer, and every read of a socket allocates one: the
 * garbage of 2.6 MB an arrival was most of the generator's CPU, more than the
 * servers spent on the join. The sockets here all read into one buffer, and
 * nothing of it is kept but a message's first bytes. The handshake's answer must be 101;
 * the server's frames are unmasked and unfragmented or continued (opcode 0).
 */
function openReader(url: string, on: { open: () => void; message: (message: MessageView) => void; error: (error: Error) => void }): Socket {
  const target = new URL(url);
  const socket = connect({
    port: Number(target.port),
    host: target.hostname,
    // Read into one buffer for every socket here, not a fresh 64 KiB one per read (what is kept of it is copied).
    onread: {
      buffer: READ_BUFFER,
      callback: (size: number, buffer: Uint8Array) => {
        receive(Buffer.from(buffer.buffer, buffer.byteOffset, size));
        return true;
      },
    },
  });
  socket.setNoDelay(true);
  let upgraded = false;
  let pending: Buffer | undefined;
  let remaining = -1; // payload bytes left in the frame being read; -1: a header comes next
  let fin = false;
  let opcode = 0;
  let parts: Buffer[] = [];
  let headLength = 0;
  let length = 0;
  let last = 0;
  const endFrame = () => {
    remaining = -1;
    if (!fin) return;
    const head = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    if (opcode === 0x1) on.message({ head, length, last });
    else if (opcode === 0x8) socket.end();
  };
  const read = (chunk: Buffer) => {
    let at = 0;
    while (at < chunk.length) {
      if (remaining < 0) {
        const left = chunk.length - at;
        if (left < 2) break;
        const b0 = chunk[at]!;
        let size = chunk[at + 1]! & 0x7f;
        let headerLength = 2;
        if (size === 126) {
          if (left < 4) break;
          size = chunk.readUInt16BE(at + 2);
          headerLength = 4;
        } else if (size === 127) {
          if (left < 10) break;
          size = Number(chunk.readBigUInt64BE(at + 2));
          headerLength = 10;
        }
        at += headerLength;
        fin = (b0 & 0x80) !== 0;
        if ((b0 & 0x0f) !== 0) {
          opcode = b0 & 0x0f;
          parts = [];
          headLength = 0;
          length = 0;
          last = 0;
        }
        remaining = size;
        if (size === 0) endFrame();
        continue;
      }
      const take = Math.min(remaining, chunk.length - at);
      if (headLength < HEAD_BYTES) {
        const part = Buffer.from(chunk.subarray(at, at + Math.min(take, HEAD_BYTES - headLength)));
        parts.push(part);
        headLength += part.length;
      }
      length += take;
      last = chunk[at + take - 1]!;
      at += take;
      remaining -= take;
      if (remaining === 0) endFrame();
    }
    pending = at < chunk.length ? Buffer.from(chunk.subarray(at)) : undefined;
  };
  socket.on('connect', () =>
    socket.write(
      `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    ),
  );
  const receive = (data: Buffer) => {
    const chunk = pending ? Buffer.concat([pending, data]) : data;
    pending = undefined;
    if (upgraded) return read(chunk);
    const end = chunk.indexOf('\r\n\r\n');
    if (end < 0) {
      pending = Buffer.from(chunk);
      return;
    }
    const status = chunk.subarray(0, chunk.indexOf('\r\n')).toString();
    if (!status.startsWith('HTTP/1.1 101 ')) {
      on.error(new Error(status));
      socket.destroy();
      return;
    }
    upgraded = true;
    on.open();
    read(chunk.subarray(end + 4));
  };
  socket.on('error', (error) => on.error(error));
  socket.on('close', () => on.error(new Error('closed before the answer')));
  return socket;
}
