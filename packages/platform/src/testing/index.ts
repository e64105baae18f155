import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../errors.js';
import { createRedis } from '../redis.js';

/**
 * The real PostgreSQL, Redis and Kafka that `npm test` started (deploy/local,
 * profile `test`), as its environment describes them.
 */
export function testInfra() {
  const { PG_ADMIN_URL, REDIS_URL, KAFKA_BROKERS, JWT_PRIVATE_KEY_FILE } = process.env;
  if (!PG_ADMIN_URL || !REDIS_URL || !KAFKA_BROKERS || !JWT_PRIVATE_KEY_FILE) {
    throw new Error('Test infrastructure is not configured: run the tests with `npm test`, which starts it.');
  }
  return {
    pgAdminUrl: PG_ADMIN_URL,
    redisUrl: REDIS_URL,
    kafkaBrokers: KAFKA_BROKERS.split(','),
    signingKeyPem: readFileSync(JWT_PRIVATE_KEY_FILE, 'utf8'),
  };
}

/** A database name no other test uses (created on first connection by ensureDatabase). */
export function uniqueDatabaseUrl(prefix: string): string {
  const url = new URL(testInfra().pgAdminUrl);
  url.pathname = `/${prefix}_${randomBytes(5).toString('hex')}`;
  return url.toString();
}

/** Redis logical databases a test platform may take (0 is left to tests that do not ask). */
const TEST_REDIS_DATABASES = 15;

/**
 * A Redis logical database for one test platform, taken in turn from 1-15 by
 * a counter in Redis itself, so platforms running at the same time (test
 * files in parallel workers) do not share keys. Sharing them is not harmless:
 * every room service runs the clock of every room in `room:clock`, and one
 * platform's room service would play another's rooms with its own playlist
 * service, find the DJs' queues empty and take them off the stage. (Pub/sub
 * channels span databases; their names carry the room uuid.)
 */
export async function isolatedRedisUrl(): Promise<string> {
  const base = testInfra().redisUrl;
  const redis = createRedis(base);
  try {
    const taken = await redis.incr('test:redis-databases');
    const url = new URL(base);
    url.pathname = `/${1 + ((taken - 1) % TEST_REDIS_DATABASES)}`;
    return url.toString();
  } finally {
    redis.disconnect();
  }
}

/** Polls until the check passes or the timeout ends (for effects that arrive asynchronously). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  const reason = lastError instanceof Error ? `: ${lastError.message}` : '';
  throw new Error(`condition not met within ${timeoutMs} ms${reason}`, { cause: lastError });
}

/** What a call came to, as a domain test compares it: 'ok', or an AppError's `<status> <message>` (anything else is rethrown). */
export async function outcome(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return `${error.status} ${String(error.message)}`;
    throw error;
  }
}

/*
 * Ports handed out for a test server to listen on later. They come from below the kernel's
 * ephemeral range (32768-60999 on Linux), so no outgoing connection (to PostgreSQL, Redis,
 * Kafka, another service) can take one between the choice and the listen, which is how a
 * port picked by listening on 0 was lost in CI. A port is reserved by a file made with O_EXCL
 * in a folder every test process shares, so two processes (vitest workers, or runs side by
 * side) never hand out the same one; a reservation lapses after two minutes, by when its
 * server listens (the probe then skips it) or never will.
 */
const PORT_RANGE = { first: 30_000, last: 32_767 };
const RESERVATIONS = join(tmpdir(), 'spinroom-test-ports');
const RESERVED_MS = 120_000;

function reserve(port: number): boolean {
  const file = join(RESERVATIONS, String(port));
  const claim = () => {
    try {
      closeSync(openSync(file, 'wx'));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  };
  if (claim()) return true;
  try {
    if (Date.now() - statSync(file).mtimeMs < RESERVED_MS) return false;
    unlinkSync(file);
  } catch {
    // another process renewed or removed it first
  }
  return claim();
}

async function canListen(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A loopback port free now, outside the ephemeral range, for a server that listens on it later. */
export async function freePort(): Promise<number> {
  mkdirSync(RESERVATIONS, { recursive: true });
  const size = PORT_RANGE.last - PORT_RANGE.first + 1;
  const start = Math.floor(Math.random() * size);
  for (let tried = 0; tried < size; tried += 1) {
    const port = PORT_RANGE.first + ((start + tried) % size);
    if (reserve(port) && (await canListen(port))) return port;
  }
  throw new Error(`no free port in ${PORT_RANGE.first}-${PORT_RANGE.last}`);
}
