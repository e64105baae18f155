// The BFF's bundle loads the instrumented packages with `require` and its
// telemetry preload registers no ESM loader hook (deploy/docker/build.mjs,
// packages/platform/src/telemetry/register.ts): run as its image runs it, its
// REST route, gRPC and Redis calls still make spans.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

describe("the BFF's bundle without a loader hook", () => {
  // Inside the repository, so the bundle finds the npm packages it leaves external.
  mkdirSync(join(repoRoot, '.local'), { recursive: true });
  const out = mkdtempSync(join(repoRoot, '.local/bundle-telemetry-'));
  const cleanups: Array<() => void> = [() => rmSync(out, { recursive: true, force: true })];
  afterAll(() => {
    for (const cleanup of cleanups.reverse()) cleanup();
  });

  it('records the spans of a REST call, its gRPC call and its Redis work', async () => {
    execFileSync(process.execPath, [join(repoRoot, 'deploy/docker/build.mjs'), 'bff', out], { cwd: repoRoot, stdio: 'pipe' });
    const register = readFileSync(join(out, 'register.js'), 'utf8');
    expect(register).toMatch(/instrumentedByRequire = true/);
    expect(readFileSync(join(out, 'main.js'), 'utf8')).toMatch(/__require\("@grpc\/grpc-js"\)/);

    // An OTLP/HTTP receiver keeping the printable strings of what it is sent (span names and attributes).
    const received: string[] = [];
    const sink: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push(
          ...(Buffer.concat(chunks)
            .toString('latin1')
            .match(/[\x20-\x7e]{4,}/g) ?? []),
        );
        res.end();
      });
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => sink.close());
    const bffPort = await freePort();
    const unreachable = Object.fromEntries(
      ['USER', 'PLAYLIST', 'UPLOAD', 'ROOM', 'CHAT', 'POINTS', 'PAYMENT', 'SOCIAL', 'AUDIT'].map((name) => [`${name}_ADDR`, '127.0.0.1:1']),
    );
    const child = spawn(process.execPath, ['--enable-source-maps', '--import', join(out, 'register.js'), join(out, 'main.js')], {
      cwd: repoRoot,
      env: {
        ...process.env,
        ...unreachable,
        NODE_ENV: 'production',
        PORT: String(bffPort),
        HTTP_HOST: '127.0.0.1',
        SERVICE_CLIENT_SECRET: 'bundle-telemetry-secret-0123456789abcdef',
        OTEL_SERVICE_NAME: 'bff',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(sink.address() as AddressInfo).port}`,
        OTEL_BSP_SCHEDULE_DELAY: '200',
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    cleanups.push(() => child.kill('SIGKILL'));
    const base = `http://127.0.0.1:${bffPort}`;
    await until(
      async () => (await fetch(`${base}/healthz`).catch(() => undefined))?.ok === true,
      () => `the BFF did not start: ${stderr}`,
    );

    // A login: the limit per address counted in Redis, then LogIn to the user service (unreachable: 503).
    const login = await fetch(`${base}/api/user-service/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bundle-telemetry@spinroom.local', password: 'not-a-password' }),
    });
    expect(login.status).toBe(503);
    await until(
      () => ['grpc.spinroom.user.v1.UserService/LogIn', 'evalsha', 'http.route'].every((s) => received.some((r) => r.includes(s))),
      () => `spans received: ${JSON.stringify([...new Set(received)].slice(0, 80))}`,
    );
  }, 60_000);
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function until(check: () => boolean | Promise<boolean>, why: () => string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(why());
}
