import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserServiceService } from '@spinroom/contracts/user/v1/user_service';
import { afterAll } from 'vitest';
import { createLogger, createUnaryFactory, startGrpcServer, TokenIssuer, type Role } from '@spinroom/platform';
import { testInfra, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import type { UploadServiceConfig } from '../src/config.js';

export const HLS_KEY_SECRET = 'test-hls-key-secret-0123456789abcdef';
export const TRANSCODER_SECRET = 'test-transcoder-secret-0123456789abcdef';

/**
 * A stand-in for the user service that answers only GetPublicKey (what the
 * upload service asks it), and an issuer for tokens that key verifies.
 */
export async function fakeUserService() {
  const issuer = await TokenIssuer.fromPem(testInfra().signingKeyPem, { issuer: 'spinroom', ttlSeconds: 3600 });
  const logger = createLogger('fake-user', { level: 'silent' });
  const unary = createUnaryFactory({ verifier: () => undefined, logger });
  const server = await startGrpcServer({
    port: 0,
    logger,
    services: [
      {
        name: 'spinroom.user.v1.UserService',
        definition: UserServiceService,
        implementation: {
          getPublicKey: unary.public(async () => ({ publicKeyPem: issuer.publicKeyPem, keyId: issuer.keyId, keys: issuer.publishedKeys })),
        },
      },
    ],
  });
  return {
    address: `127.0.0.1:${server.port}`,
    /** A token for a fresh (or the given) user with a role. */
    async token(role: Role = 'user', userUuid: string = randomUUID()) {
      return { userUuid, token: await issuer.sign({ sub: userUuid, role, capabilities: [] }) };
    },
    stop: () => server.shutdown(500),
  };
}

/** The upload service's config for a test: a fresh database, a temporary storage folder, fast polling. */
export function testUploadConfig(userAddress: string, overrides: Partial<UploadServiceConfig> = {}): UploadServiceConfig {
  return {
    DATABASE_URL: uniqueDatabaseUrl('test_upload'),
    KAFKA_BROKERS: testInfra().kafkaBrokers,
    REDIS_URL: testInfra().redisUrl,
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: 0,
    USER_ADDR: userAddress,
    JWT_ISSUER: 'spinroom',
    UPLOAD_STORAGE_DIR: mkdtempSync(join(tmpdir(), 'spinroom-upload-test-')),
    UPLOAD_MAX_BYTES: 5 * 1024 * 1024,
    HLS_KEY_SECRET,
    HLS_KEY_TOKEN_TTL_SECONDS: 600,
    TRANSCODER_CALLBACK_SECRET: TRANSCODER_SECRET,
    TRANSCODE_CONCURRENCY: 2,
    TRANSCODE_QUEUE_LIMIT: 50,
    TRANSCODE_LEASE_SECONDS: 30,
    TRANSCODE_MAX_ATTEMPTS: 3,
    TRANSCODE_RETRY_DELAY_MS: 200,
    TRANSCODE_TIMEOUT_SECONDS: 120,
    TRANSCODE_POLL_MS: 100,
    TRANSCODE_READRATE: undefined,
    FFMPEG_PATH: 'ffmpeg',
    FFPROBE_PATH: 'ffprobe',
    OUTBOX_POLL_MS: 100,
    OUTBOX_RETENTION_HOURS: 168,
    // Far beyond what these tests upload (test/e2e/limits.test.ts tries the limit).
    LIMIT_UPLOADS_PER_USER: { points: 100_000, durationSeconds: 3600, blockSeconds: 0 },
    LOG_LEVEL: 'silent',
    ...overrides,
  };
}

const audioDir = mkdtempSync(join(tmpdir(), 'spinroom-audio-'));
afterAll(() => rmSync(audioDir, { recursive: true, force: true }));

/**
 * A test tone made by ffmpeg's synthesizer: `seconds` of a sine in the given
 * container, with optional title/artist tags. Returns the file's bytes.
 */
export function makeAudio(options: {
  seconds: number;
  format?: 'mp3' | 'm4a' | 'wav' | 'ogg' | 'flac';
  title?: string;
  artist?: string;
  frequency?: number;
}): Buffer {
  const format = options.format ?? 'mp3';
  const path = join(audioDir, `${randomUUID()}.${format}`);
  const codec = {
    mp3: ['-c:a', 'libmp3lame', '-b:a', '128k'],
    m4a: ['-c:a', 'aac'],
    wav: ['-c:a', 'pcm_s16le'],
    ogg: ['-c:a', 'libvorbis'],
    flac: ['-c:a', 'flac'],
  }[format];
  const tags = [
    ...(options.title ? ['-metadata', `title=${options.title}`] : []),
    ...(options.artist ? ['-metadata', `artist=${options.artist}`] : []),
  ];
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${options.frequency ?? 440}:duration=${options.seconds}`,
    ...codec,
    ...tags,
    path,
  ]);
  const bytes = readFileSync(path);
  rmSync(path, { force: true });
  return bytes;
}

/** Bytes that look random but are the same on every run (for damaged-file cases). */
export function garbage(length: number, seed = 'spinroom'): Buffer {
  const blocks: Buffer[] = [];
  for (let i = 0; blocks.length * 32 < length; i += 1) blocks.push(createHash('sha256').update(`${seed}:${i}`).digest());
  return Buffer.concat(blocks).subarray(0, length);
}

/** Media processes (ffmpeg, ffprobe) whose command line mentions the folder: none may outlive their work. */
export function mediaProcessesUnder(folder: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (/ff(mpeg|probe)/.test(cmdline) && cmdline.includes(folder)) pids.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}

/** Every file under a folder (relative paths), to check what an upload left behind. */
export function filesUnder(folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, prefix: string) => {
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path, `${prefix}${name}/`);
      else found.push(`${prefix}${name}`);
    }
  };
  walk(folder, '');
  return found;
}
