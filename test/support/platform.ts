import { afterAll, beforeAll } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { Consumer } from 'kafkajs';
import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatServiceClient } from '@spinroom/contracts/chat/v1/chat_service';
import { RoomServiceClient } from '@spinroom/contracts/room/v1/room_service';
import { PlaylistServiceClient } from '@spinroom/contracts/playlist/v1/playlist_service';
import { UploadServiceClient } from '@spinroom/contracts/upload/v1/upload_service';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  createGrpcClient,
  createLogger,
  createRedis,
  dropDatabase,
  headersToRecord,
  KafkaClient,
  loadConfig,
  peerAddressVariable,
  PublicKeyCache,
  ServiceTokenSource,
  SessionRevocations,
  TokenIssuer,
  type ConfigOf,
  type Role,
  type ServiceName,
} from '@spinroom/platform';
import type { z } from 'zod';
import { eventually, isolatedRedisUrl, testInfra, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { createApp } from '../../bff/src/app.js';
import { bffLimits, type BffLimitConfig } from '../../bff/src/http/limits.js';
import { startChatService } from '../../services/chat/src/app.js';
import { chatServiceConfig, type ChatServiceConfig } from '../../services/chat/src/config.js';
import { startRoomService, type RunningRoomService } from '../../services/room/src/app.js';
import { roomServiceConfig, type RoomServiceConfig } from '../../services/room/src/config.js';
import { startFeed, type RunningFeed } from '../../bff/src/feed/index.js';
import type { FeedLimits } from '../../bff/src/feed/feed-server.js';
import { startPlaylistService } from '../../services/playlist/src/app.js';
import { playlistServiceConfig, type PlaylistServiceConfig } from '../../services/playlist/src/config.js';
import { createProviders } from '../../services/playlist/src/providers/index.js';
import { startUploadService } from '../../services/upload/src/app.js';
import { startPointsService, type RunningPointsService } from '../../services/points/src/app.js';
import { pointsServiceConfig, type PointsServiceConfig } from '../../services/points/src/config.js';
import { closePointsClients, createPointsClients } from '../../bff/src/routes/points/index.js';
import { startPaymentService, type RunningPaymentService } from '../../services/payment/src/app.js';
import { paymentServiceConfig, type PaymentServiceConfig } from '../../services/payment/src/config.js';
import { createPaymentClient } from '../../bff/src/routes/payment/index.js';
import { startStripeMock } from './stripe-mock.js';
import { uploadServiceConfig, type UploadServiceConfig } from '../../services/upload/src/config.js';
import { closeUserClients, createUserClients } from '../../bff/src/routes/user/index.js';
import { startUserService, type RunningUserService } from '../../services/user/src/app.js';
import { userServiceConfig, type UserServiceConfig } from '../../services/user/src/config.js';
import { TwilioStandIn } from './twilio-stand-in.js';
import { freePort, startServiceProcess, waitForHttp, type ServiceProcess } from '../../scripts/lib/processes.js';

/**
 * Every limit, far beyond what the suites do: they all call from 127.0.0.1 and
 * share one Redis, so a count per address adds up across suites.
 * test/e2e/limits.test.ts sets its own (and keys by other addresses).
 */
const UNTRIPPED = { points: 1_000_000, durationSeconds: 3600, blockSeconds: 0 };
export const TEST_LIMITS = {
  user: {
    LIMIT_LOGIN_FAILURES_PER_ACCOUNT: UNTRIPPED,
    LIMIT_PHONE_CODES_PER_NUMBER: UNTRIPPED,
    LIMIT_PHONE_CODE_FAILURES_PER_NUMBER: UNTRIPPED,
    LIMIT_PHONE_VALIDATIONS_PER_CALLER: UNTRIPPED,
  },
  room: { LIMIT_ROOM_PASSWORD_FAILURES: UNTRIPPED },
  chat: { LIMIT_CHAT_MESSAGES_PER_USER: UNTRIPPED },
  upload: { LIMIT_UPLOADS_PER_USER: UNTRIPPED },
  bff: {
    LIMIT_LOGIN_FAILURES_PER_ADDRESS: UNTRIPPED,
    LIMIT_GUEST_TOKENS_PER_ADDRESS: UNTRIPPED,
    LIMIT_SIGN_UPS_PER_ADDRESS: UNTRIPPED,
    LIMIT_PHONE_CODES_PER_ADDRESS: UNTRIPPED,
    LIMIT_MAILS_PER_ADDRESS: UNTRIPPED,
  },
} satisfies Record<string, Record<string, typeof UNTRIPPED>>;
/** The same limits as environment variables, for a BFF run as a process. */
export const TEST_BFF_LIMIT_ENV = Object.fromEntries(
  Object.keys(TEST_LIMITS.bff).map((name) => [name, `${UNTRIPPED.points}/${UNTRIPPED.durationSeconds}`]),
);

/** The client secret services present for a `service` token in tests. */
export const TEST_SERVICE_SECRET = 'e2e-service-client-secret-0123456789abcdef';

/** Secrets the test platform's upload service is configured with. */
export const TEST_UPLOAD_SECRETS = {
  HLS_KEY_SECRET: 'e2e-hls-key-secret-0123456789abcdefgh',
  TRANSCODER_CALLBACK_SECRET: 'e2e-transcoder-secret-0123456789abcdef',
};

/** What the tests change from each service's defaults: shorter clocks and leases, limits that never trip. */
const TEST_SETTINGS = {
  user: { JWT_TTL_SECONDS: 3600, ...TEST_LIMITS.user },
  playlist: { CRATE_IMPORT_POLL_MS: 100, CRATE_IMPORT_RETRY_DELAY_MS: 200, CRATE_IMPORT_LEASE_SECONDS: 30 },
  upload: {
    HLS_KEY_TOKEN_TTL_SECONDS: 600,
    TRANSCODE_LEASE_SECONDS: 30,
    TRANSCODE_RETRY_DELAY_MS: 500,
    TRANSCODE_TIMEOUT_SECONDS: 120,
    TRANSCODE_POLL_MS: 100,
    ...TEST_LIMITS.upload,
  },
  room: { LIVE_LEAVE_GRACE_MS: 500, LIVE_CLOCK_POLL_MS: 50, ...TEST_LIMITS.room },
  chat: { ...TEST_LIMITS.chat },
  points: { TOKEN_SWEEP_MS: 500 },
  payment: {},
} satisfies Record<ServiceName, Record<string, unknown>>;

/**
 * A service's config in tests, read through its own schema as in production:
 * what its entry in the list needs on the test infrastructure, port 0, silent
 * logs, the peers started so far, then the test settings and the overrides.
 */
export function testServiceConfig<S extends z.ZodRawShape>(
  name: ServiceName,
  shape: S,
  databaseUrl: string,
  peers: Partial<Record<ServiceName, string>>,
  overrides: Partial<ConfigOf<S>> = {},
): ConfigOf<S> {
  const infra = testInfra();
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: infra.redisUrl,
    KAFKA_BROKERS: infra.kafkaBrokers.join(','),
    GRPC_PORT: '0',
    LOG_LEVEL: 'silent',
    OUTBOX_POLL_MS: '100',
    SERVICE_CLIENT_SECRET: TEST_SERVICE_SECRET,
    JWT_PRIVATE_KEY: infra.signingKeyPem,
    SMTP_URL: process.env.SMTP_URL, // Mailpit (test/support/mailpit.ts reads what it caught)
    ...TEST_UPLOAD_SECRETS,
    ...Object.fromEntries(Object.entries(peers).map(([peer, address]) => [peerAddressVariable(peer), address])),
  };
  return { ...loadConfig(shape, env), ...TEST_SETTINGS[name], ...overrides };
}

export interface TestUserService {
  databaseUrl: string;
  start(options?: { relay?: boolean }): Promise<RunningUserService>;
}

/** The user service on a fresh database of the test PostgreSQL, on a free port. */
export function userServiceOnFreshDatabase(overrides: Partial<UserServiceConfig> = {}): TestUserService {
  const databaseUrl = uniqueDatabaseUrl('e2e_user');
  return {
    databaseUrl,
    start: (options) => startUserService(testServiceConfig('user', userServiceConfig, databaseUrl, {}, overrides), options),
  };
}

export interface TestPlatform {
  baseUrl: string;
  /** The Twilio Verify and Lookup stand-in the user service's phone codes go to. */
  twilio: TwilioStandIn;
  databaseUrl: string;
  /** The playlist service's database. */
  playlist: { databaseUrl: string };
  /** The upload service's database and storage folder (originals, HLS, scratch). */
  upload: { databaseUrl: string; storageDir: string };
  /** The services' gRPC addresses, for tests that call them as another service would. */
  grpc: { user: string; playlist: string; upload: string; room: string; chat: string; points: string; payment: string };
  /** The room service (its domain, for tests that look past the REST paths) and its database. */
  room: { databaseUrl: string; service: RunningRoomService };
  /** Every BFF replica's base URL (the first is `baseUrl`). */
  bffUrls: string[];
  /** Stops the room service and starts it again on the same database, Redis and port. */
  restartRoomService(): Promise<void>;
  /** The chat service's database, and the platform's Redis database (its live rooms, feed and limits). */
  chat: { databaseUrl: string; redisUrl: string };
  /** The points service (its domain, for tests that look past the REST paths) and its database. */
  points: { databaseUrl: string; service: RunningPointsService };
  /** The payment service, its database, the stripe-mock it talks to and the webhook's signing secret. */
  payment: { databaseUrl: string; service: RunningPaymentService; stripeApiBase: string; webhookSecret: string };
  stop(): Promise<void>;
}

export interface PlatformOptions {
  /** Overrides of the upload service's config (the BFF takes the same UPLOAD_MAX_BYTES). */
  upload?: Partial<UploadServiceConfig>;
  /**
   * The music providers' environment (base URLs of local stand-ins and their
   * credentials); every provider is off when left out.
   */
  providerEnv?: NodeJS.ProcessEnv;
  /** Overrides of the playlist service's config (e.g. the crate import worker's timings). */
  playlist?: Partial<PlaylistServiceConfig>;
  /** Overrides of the user service's config (e.g. its limits). */
  user?: Partial<UserServiceConfig>;
  /** Overrides of the chat service's config (e.g. its limits). */
  chat?: Partial<ChatServiceConfig>;
  /** Overrides of the points service's config (e.g. a hold's time to live). */
  points?: Partial<PointsServiceConfig>;
  /** Overrides of the payment service's config (e.g. no STRIPE_SECRET_KEY). */
  payment?: Partial<PaymentServiceConfig>;
  /** The BFF's limits per client address (TEST_LIMITS.bff unless given). */
  bffLimits?: Partial<BffLimitConfig>;
  /** Overrides of the room service's config (e.g. LIVE_MAX_PLAY_MS for short songs). */
  room?: Partial<RoomServiceConfig>;
  /** How many BFF processes serve the API and the room feed (1). */
  bffReplicas?: number;
  /** Room-service replicas beyond the one the BFFs call: their clocks race it for every room (0). */
  extraRoomReplicas?: number;
  /** The feed's limits (shorter clocks, smaller budgets in tests). */
  feed?: Partial<FeedLimits>;
  /** A built web client for the BFFs to serve (WEB_DIR), as `npm start` does: see web/build.ts. */
  webDir?: string;
}

/** The user service and the BFF, wired as in production, the BFF on an ephemeral HTTP port. */
export async function startPlatform(options: PlatformOptions = {}): Promise<TestPlatform> {
  // The live rooms, the feed and the limits of this platform: a Redis database of its own.
  const redisUrl = await isolatedRedisUrl();
  // Every verifier reads ended sessions from the user service's Redis: the platform's own database.
  const twilio = await TwilioStandIn.start();
  const userService = userServiceOnFreshDatabase({ REDIS_URL: redisUrl, ...twilio.env, ...options.user });
  const running = await userService.start();
  const user = createUserClients(`127.0.0.1:${running.port}`);
  const users = user.accounts;
  const playlistDatabaseUrl = uniqueDatabaseUrl('e2e_playlist');
  const peers: Partial<Record<ServiceName, string>> = { user: `127.0.0.1:${running.port}` };
  const playlistService = await startPlaylistService(
    testServiceConfig('playlist', playlistServiceConfig, playlistDatabaseUrl, peers, {
      REDIS_URL: redisUrl,
      KAFKA_CONSUMER_GROUP: `playlist-${playlistDatabaseUrl.split('_').pop()}`,
      ...options.playlist,
    }),
    { providers: createProviders(options.providerEnv ?? {}, { logger: createLogger('playlist', { level: 'silent' }) }) },
  );
  peers.playlist = `127.0.0.1:${playlistService.port}`;
  const playlists = createGrpcClient(PlaylistServiceClient, `127.0.0.1:${playlistService.port}`);
  const uploadDatabaseUrl = uniqueDatabaseUrl('e2e_upload');
  const uploadStorageDir = mkdtempSync(join(tmpdir(), 'spinroom-e2e-uploads-'));
  const uploadService = await startUploadService(
    testServiceConfig('upload', uploadServiceConfig, uploadDatabaseUrl, peers, {
      REDIS_URL: redisUrl,
      UPLOAD_STORAGE_DIR: uploadStorageDir,
      ...options.upload,
    }),
  );
  peers.upload = `127.0.0.1:${uploadService.port}`;
  const uploads = createGrpcClient(UploadServiceClient, `127.0.0.1:${uploadService.port}`);
  const pointsDatabaseUrl = uniqueDatabaseUrl('e2e_points');
  const pointsService = await startPointsService(
    testServiceConfig('points', pointsServiceConfig, pointsDatabaseUrl, peers, {
      REDIS_URL: redisUrl,
      KAFKA_CONSUMER_GROUP: `points-${pointsDatabaseUrl.split('_').pop()}`,
      ...options.points,
    }),
  );
  const points = createPointsClients(`127.0.0.1:${pointsService.port}`);
  // The room service charges paid rooms' entry fees through the points service: it starts first.
  peers.points = `127.0.0.1:${pointsService.port}`;
  const roomDatabaseUrl = uniqueDatabaseUrl('e2e_room');
  const roomConfig: RoomServiceConfig = testServiceConfig('room', roomServiceConfig, roomDatabaseUrl, peers, {
    REDIS_URL: redisUrl,
    ...options.room,
  });
  let roomService = await startRoomService(roomConfig);
  const extraRooms: RunningRoomService[] = [];
  for (let i = 0; i < (options.extraRoomReplicas ?? 0); i += 1) extraRooms.push(await startRoomService(roomConfig));
  const roomAddress = `127.0.0.1:${roomService.port}`;
  peers.room = roomAddress;
  const rooms = createGrpcClient(RoomServiceClient, roomAddress);
  const chatDatabaseUrl = uniqueDatabaseUrl('e2e_chat');
  const chatService = await startChatService(
    testServiceConfig('chat', chatServiceConfig, chatDatabaseUrl, peers, { REDIS_URL: redisUrl, ...options.chat }),
  );
  const chat = createGrpcClient(ChatServiceClient, `127.0.0.1:${chatService.port}`);
  const stripeMock = await startStripeMock();
  const paymentDatabaseUrl = uniqueDatabaseUrl('e2e_payment');
  const webhookSecret = `whsec_${randomBytes(24).toString('base64url')}`;
  const paymentService = await startPaymentService(
    testServiceConfig(
      'payment',
      paymentServiceConfig,
      paymentDatabaseUrl,
      { ...peers, points: `127.0.0.1:${pointsService.port}` },
      {
        REDIS_URL: redisUrl,
        STRIPE_API_BASE: stripeMock.apiBase,
        STRIPE_SECRET_KEY: 'sk_test_spinroom',
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        ...options.payment,
      },
    ),
  );
  const payment = createPaymentClient(`127.0.0.1:${paymentService.port}`);
  const limitsRedis = createRedis(redisUrl);
  const sessions = new SessionRevocations(limitsRedis);
  const keys = new PublicKeyCache({
    fetch: () => users.getPublicKey({}),
    issuer: 'spinroom',
    logger: createLogger('bff', { level: 'silent' }),
    sessions,
  });
  keys.start();
  await eventually(async () => keys.verifier);
  const serviceToken = new ServiceTokenSource(() => users.issueServiceToken({ serviceName: 'bff', clientSecret: TEST_SERVICE_SECRET }));
  const limits = bffLimits(limitsRedis, { ...TEST_LIMITS.bff, ...options.bffLimits });
  const bffs: Array<{ url: string; server: Server; feed: RunningFeed }> = [];
  for (let i = 0; i < (options.bffReplicas ?? 1); i += 1) {
    const app = createApp({
      config: { CORS_ORIGINS: [], JSON_BODY_LIMIT: '100kb', WEB_DIR: options.webDir, UPLOAD_MAX_BYTES: options.upload?.UPLOAD_MAX_BYTES },
      upstreams: { user, playlists, uploads, rooms, chat, points, payment },
      verifier: () => keys.verifier,
      ready: async () => (await users.getPublicKey({})).publicKeyPem.length > 0,
      limits,
    });
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const feed = startFeed({
      server,
      redisUrl,
      rooms,
      serviceToken,
      verifier: () => keys.verifier,
      sessions,
      allowedOrigins: [],
      logger: createLogger('bff', { level: 'silent' }),
      limits: options.feed,
    });
    bffs.push({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, feed });
  }
  const platform: TestPlatform = {
    baseUrl: bffs[0]!.url,
    twilio,
    bffUrls: bffs.map((b) => b.url),
    async restartRoomService() {
      await roomService.stop();
      roomService = await startRoomService({ ...roomConfig, GRPC_PORT: Number(roomAddress.split(':')[1]) });
      platform.room.service = roomService;
    },
    databaseUrl: userService.databaseUrl,
    playlist: { databaseUrl: playlistDatabaseUrl },
    upload: { databaseUrl: uploadDatabaseUrl, storageDir: uploadStorageDir },
    grpc: {
      user: `127.0.0.1:${running.port}`,
      playlist: `127.0.0.1:${playlistService.port}`,
      upload: `127.0.0.1:${uploadService.port}`,
      room: roomAddress,
      chat: `127.0.0.1:${chatService.port}`,
      points: `127.0.0.1:${pointsService.port}`,
      payment: `127.0.0.1:${paymentService.port}`,
    },
    room: { databaseUrl: roomDatabaseUrl, service: roomService },
    chat: { databaseUrl: chatDatabaseUrl, redisUrl },
    points: { databaseUrl: pointsDatabaseUrl, service: pointsService },
    payment: { databaseUrl: paymentDatabaseUrl, service: paymentService, stripeApiBase: stripeMock.apiBase, webhookSecret },
    async stop() {
      keys.stop();
      await twilio.close();
      for (const bff of bffs) {
        await bff.feed.close();
        await new Promise<void>((resolve) => bff.server.close(() => resolve()));
      }
      limitsRedis.disconnect();
      closeUserClients(user);
      playlists.close();
      uploads.close();
      chat.close();
      payment.close();
      await paymentService.stop();
      await dropDatabase(paymentDatabaseUrl);
      await stripeMock.stop();
      closePointsClients(points);
      await pointsService.stop();
      await dropDatabase(pointsDatabaseUrl);
      await chatService.stop();
      await dropDatabase(chatDatabaseUrl);
      rooms.close();
      await roomService.stop();
      for (const extra of extraRooms) await extra.stop();
      await dropDatabase(roomDatabaseUrl);
      await uploadService.stop();
      await dropDatabase(uploadDatabaseUrl);
      rmSync(uploadStorageDir, { recursive: true, force: true });
      await playlistService.stop();
      await dropDatabase(playlistDatabaseUrl);
      await running.stop();
      await dropDatabase(userService.databaseUrl);
    },
  };
  return platform;
}

/** JSON over fetch, answering status and parsed body. */
export async function api(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
    headers['content-type'] ??= 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (static page)
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

let issuer: TokenIssuer | undefined;
/** A token signed with the test platform's key, for roles sign-up cannot give (admin, moderator), for a new user unless `sub` is given. */
export async function signedToken(role: Role, sub: string = randomUUID()): Promise<string> {
  issuer ??= await TokenIssuer.fromPem(testInfra().signingKeyPem, { issuer: 'spinroom', ttlSeconds: 3600 });
  return issuer.sign({ sub, role, capabilities: [] });
}

let counter = 0;
/** An email no other test uses. */
export function freshEmail(): string {
  counter += 1;
  return `person${Date.now()}${counter}@example.com`;
}

/**
 * Starts a platform for the enclosing describe block (stopped after it) and
 * returns a `call` that speaks JSON to its BFF.
 */
export function usePlatform(options: PlatformOptions = {}) {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startPlatform(options);
  });
  afterAll(async () => {
    await platform.stop();
  });
  return {
    call: (method: string, path: string, options?: Parameters<typeof api>[3]) => api(platform.baseUrl, method, path, options),
    /** The running platform (inside tests). */
    platform: () => platform,
  };
}

export interface SeenMessage {
  key: string;
  headers: Record<string, string>;
  value: Buffer;
}

/**
 * Reads a topic from the start with a consumer group of its own, as another
 * service would, for the enclosing describe block; answers what it has seen so far.
 */
export function useTopic(topic: string): SeenMessage[] {
  const seen: SeenMessage[] = [];
  let consumer: Consumer;
  beforeAll(async () => {
    const kafka = new KafkaClient({ brokers: testInfra().kafkaBrokers, clientId: 'e2e', logger: createLogger('e2e', { level: 'silent' }) });
    consumer = kafka.consumer(`e2e-${randomUUID()}`);
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        seen.push({ key: message.key!.toString(), headers: headersToRecord(message.headers), value: message.value! });
      },
    });
  });
  afterAll(async () => {
    await consumer.disconnect();
  });
  return seen;
}

/**
 * The BFF as its own Node process (bff/src/main.ts, as `npm start` runs it) in
 * front of a test platform's services: for tests where the process itself must
 * survive what a request does to it (the in-process BFFs share vitest's), or
 * whose logs are read. Silent unless `options.env` says otherwise (`LOG_LEVEL`,
 * or another `USER_ADDR`, say); `options.lines` collects every line it prints.
 */
export async function startBffProcess(
  platform: TestPlatform,
  options: { env?: Record<string, string>; lines?: string[] } = {},
): Promise<{ url: string; process: ServiceProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const service = startServiceProcess('bff', 'bff/src/main.ts', {
    PORT: String(port),
    HTTP_HOST: '127.0.0.1',
    USER_ADDR: platform.grpc.user,
    PLAYLIST_ADDR: platform.grpc.playlist,
    UPLOAD_ADDR: platform.grpc.upload,
    ROOM_ADDR: platform.grpc.room,
    CHAT_ADDR: platform.grpc.chat,
    POINTS_ADDR: platform.grpc.points,
    PAYMENT_ADDR: platform.grpc.payment,
    REDIS_URL: platform.chat.redisUrl,
    SERVICE_CLIENT_SECRET: TEST_SERVICE_SECRET,
    ...TEST_BFF_LIMIT_ENV,
    OTEL_SDK_DISABLED: 'true',
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const { lines } = options;
  if (lines) {
    for (const stream of [service.child.stdout!, service.child.stderr!]) {
      stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n')));
    }
  }
  const url = `http://127.0.0.1:${port}`;
  const exited = () =>
    service.child.exitCode !== null || service.child.signalCode !== null
      ? `the BFF exited (${service.child.exitCode ?? service.child.signalCode})`
      : undefined;
  await waitForHttp(`${url}/readyz`, 60_000, exited);
  return { url, process: service, stop: () => service.stop() };
}
