// The machine's own bound on join answers (issue 19, J9): how many arrivals a second
// loopback TCP carries when each arrival is a connect that receives BENCH_LOOPBACK_BYTES
// (2,590,000: what a joiner into a room of 5,000 receives in Spinroom and in the joins
// bench's `bare-room`, the protocol's state twice) and closes. No WebSocket, no room,
// no fan-out: a server that writes one shared buffer to each connection, and two client
// processes (as the joins bench has) with BENCH_LOOPBACK_IN_FLIGHT (50) each, reading and
// dropping. Prints arrivals a second, GB a second and the CPU an arrival on each side.
// `node --import tsx scripts/bench/loopback-bytes.ts`; BENCH_LOOPBACK_ARRIVALS (3000),
// BENCH_LOOPBACK_PORT (9555).
import { fork } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const size = Number(process.env.BENCH_LOOPBACK_BYTES ?? 2_590_000);
const port = Number(process.env.BENCH_LOOPBACK_PORT ?? 9555);
type Report = { cpuMs: number };

if (process.argv[2] === 'client') {
  const arrivals = Number(process.argv[3]);
  const inFlight = Number(process.env.BENCH_LOOPBACK_IN_FLIGHT ?? 50);
  let next = 0;
  const arrive = () =>
    new Promise<void>((resolve, reject) => {
      let received = 0;
      const socket = connect(port, '127.0.0.1');
      socket.on('data', (data) => {
        received += data.length;
        if (received >= size) {
          socket.destroy();
          resolve();
        }
      });
      socket.on('error', reject);
    });
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < arrivals) {
        next += 1;
        await arrive();
      }
    }),
  );
  const cpu = process.cpuUsage();
  process.send!({ cpuMs: (cpu.user + cpu.system) / 1000 } satisfies Report);
  process.disconnect();
} else {
  const arrivals = Number(process.env.BENCH_LOOPBACK_ARRIVALS ?? 3000);
  const payload = Buffer.alloc(size, 0x61);
  const server = createServer((socket) => {
    socket.on('error', () => socket.destroy());
    socket.end(payload);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const reports = await Promise.all(
    [0, 1].map(
      () =>
        new Promise<Report>((resolve, reject) => {
          const child = fork(fileURLToPath(import.meta.url), ['client', String(arrivals / 2)], { execArgv: ['--import', 'tsx'] });
          child.once('message', (report: Report) => resolve(report));
          child.once('error', reject);
        }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const serverCpu = process.cpuUsage(cpuBefore);
  server.close();
  const clientsMs = reports.reduce((sum, r) => sum + r.cpuMs, 0);
  console.log(
    `arrivals of ${(size / 1e6).toFixed(2)} MB: ${(arrivals / seconds).toFixed(0)}/s, ${((arrivals * size) / seconds / 1e9).toFixed(2)} GB/s; CPU an arrival: server ${((serverCpu.user + serverCpu.system) / 1000 / arrivals).toFixed(3)} ms, clients ${(clientsMs / arrivals).toFixed(3)} ms (their start included)`,
  );
}
