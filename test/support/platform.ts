import { afterAll, beforeAll } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { Consumer } from 'kafkajs';
import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  createLogger,
  createRedis,
  dropDatabase,
  GrpcHealthChecker,
  headersToRecord,
  isAppError,
  KafkaClient,
  loadConfig,
  peerAddressVariable,
  PublicKeyCache,
  SERVICE_NAMES,
  SERVICES,
  ServiceTokenSource,
  SessionRevocations,
  TokenIssuer,
  type ConfigOf,
  type Role,
  type RunningService,
  type Service,
  type ServiceEntry,
  type ServiceName,
  watchCatalogueGeneration,
} from '@spinroom/platform';
import type { z } from 'zod';
import { eventually, freePort, isolatedRedisUrl, testInfra, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { createApp } from '../../bff/src/app.js';
import { bffLimits, type BffLimitConfig } from '../../bff/src/http/limits.js';
import { SearchAnswers } from '../../bff/src/routes/playlist/search-answers.js';
import { openUpstreams, type Upstreams } from '../../bff/src/upstreams.js';
import { blockedByFromSocial, startFeed, type RunningFeed } from '../../bff/src/feed/index.js';
import type { FeedLimits } from '../../bff/src/feed/feed-server.js';
import type { RunningRoomService } from '../../services/room/src/app.js';
import { createProviders } from '../../services/playlist/src/providers/index.js';
import type { RunningPointsService } from '../../services/points/src/app.js';
import type { RunningPaymentService } from '../../services/payment/src/app.js';
import { makeChain } from '../../services/payment/test/apple-chain.js';
import { startStripeMock } from './stripe-mock.js';
import { startUserService, type RunningUserService } from '../../services/user/src/app.js';
import { userServiceConfig, type UserServiceConfig } from '../../services/user/src/config.js';
import { TwilioStandIn } from './twilio-stand-in.js';
import { startServiceProcess, waitForHttp, type ServiceProcess } from '../../scripts/lib/processes.js';

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
const TEST_SETTINGS: { [N in ServiceName]?: Record<string, unknown> } = {
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
  social: {
    CONTACT_HASH_SECRET: 'e2e-contact-hash-secret-0123456789abcdef',
    // Web Push on, as every provider is in tests (a test key pair); endpoints only at known push services.
    VAPID_PUBLIC_KEY: 'BLYWG6vWiAAt28bNhtyPapsm9zKsrO96VlmbX3AH0g1QWTgMYoxJApKNbIFG6CTCHrQ7QvbiqIAFJ7emu_WY7ZI',
    VAPID_PRIVATE_KEY: 'NF_2Ya-tTSB6NKt5p12UhIMxPP9-yiVxJTEW7uHW7Xk',
  },
};

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
    // Silent unless a run asks (TEST_SERVICE_LOG_LEVEL=debug, to see what the services did).
    LOG_LEVEL: process.env.TEST_SERVICE_LOG_LEVEL ?? 'silent',
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

/**
 * The user service alone on a fresh database of the test PostgreSQL, on a free
 * port. Its points peer names a closed port: it is asked only when a profile
 * changes its avatar, which a test of the service alone does not do.
 */
export function userServiceOnFreshDatabase(overrides: Partial<UserServiceConfig> = {}): TestUserService {
  const databaseUrl = uniqueDatabaseUrl('e2e_user');
  const peers = { points: '127.0.0.1:1' };
  return {
    databaseUrl,
    start: (options) => startUserService(testServiceConfig('user', userServiceConfig, databaseUrl, peers, overrides), options),
  };
}

/** A service as the test platform runs it. */
export interface TestService {
  /** Its gRPC address (127.0.0.1:port). */
  address: string;
  /** Its database (for services whose entry names one). */
  databaseUrl?: string;
  running: RunningService;
}

export interface TestPlatform {
  baseUrl: string;
  /** Every service of the list, by name: its address, database and running instance. */
  services: Record<ServiceName, TestService>;
  /** The Twilio Verify and Lookup stand-in the user service's phone codes go to. */
  twilio: TwilioStandIn;
  /** The user service's database. */
  databaseUrl: string;
  /** The playlist service's database. */
  playlist: { databaseUrl: string };
  /** The upload service's database and storage folder (originals, HLS, scratch). */
  upload: { databaseUrl: string; storageDir: string };
  /** The services' gRPC addresses, for tests that call them as another service would. */
  grpc: Record<ServiceName, string>;
  /** The room service (its domain, for tests that look past the REST paths) and its database. */
  room: { databaseUrl: string; service: RunningRoomService };
  /** Every BFF replica's base URL (the first is `baseUrl`). */
  bffUrls: string[];
  /** Stops a service and starts it again on the same database, Redis and port. */
  restartService(name: ServiceName): Promise<void>;
  /** restartService('room'). */
  restartRoomService(): Promise<void>;
  /** The chat service's database, and the platform's Redis database (its live rooms, feed and limits). */
  chat: { databaseUrl: string; redisUrl: string };
  /** The points service (its domain, for tests that look past the REST paths) and its database. */
  points: { databaseUrl: string; service: RunningPointsService };
  /** The payment service, its database, the stripe-mock it talks to and the webhook's signing secret. */
  payment: { databaseUrl: string; service: RunningPaymentService; stripeApiBase: string; webhookSecret: string };
  stop(): Promise<void>;
}

/**
 * Overrides of a service's config, by the service's name (e.g. `room: {
 * LIVE_MAX_PLAY_MS: 2000 }`); a name its config schema does not have is refused.
 */
type ServiceOverrides = { [N in ServiceName]?: Record<string, unknown> };

export interface PlatformOptions extends ServiceOverrides {
  /**
   * The music providers' environment (base URLs of local stand-ins and their
   * credentials); every provider is off when left out.
   */
  providerEnv?: NodeJS.ProcessEnv;
  /** The BFF's limits per client address (TEST_LIMITS.bff unless given). */
  bffLimits?: Partial<BffLimitConfig>;
  /** How many BFF processes serve the API and the room feed (1). */
  bffReplicas?: number;
  /** Room-service replicas beyond the one the BFFs call: their clocks race it for every room (0). */
  extraRoomReplicas?: number;
  /** The feed's limits (shorter clocks, smaller budgets in tests). */
  feed?: Partial<FeedLimits>;
  /** A built web client for the BFFs to serve (WEB_DIR), as `npm start` does: see web/build.ts. */
  webDir?: string;
  /** A Redis of the test's own (one it restarts) instead of a database of the shared one. */
  redisUrl?: string;
}

/** What a service needs in tests beyond its entry in the list and TEST_SETTINGS: most need nothing. */
interface TestExtras {
  overrides?: Record<string, unknown>;
  /** Its start's options (e.g. the playlist's music providers). */
  options?: object;
  /** Run after the service stops. */
  cleanup?: () => Promise<void> | void;
}

interface ExtrasContext {
  options: PlatformOptions;
  twilio: TwilioStandIn;
}

const TEST_EXTRAS: { [N in ServiceName]?: (context: ExtrasContext) => Promise<TestExtras> | TestExtras } = {
  user: ({ twilio }) => ({ overrides: twilio.env }),
  playlist: ({ options }) => ({
    options: { providers: createProviders(options.providerEnv ?? {}, { logger: createLogger('playlist', { level: 'silent' }) }) },
  }),
  upload: () => {
    const storageDir = mkdtempSync(join(tmpdir(), 'spinroom-e2e-uploads-'));
    return { overrides: { UPLOAD_STORAGE_DIR: storageDir }, cleanup: () => rmSync(storageDir, { recursive: true, force: true }) };
  },
  // Stripe's own mock API, and a webhook secret of this platform's.
  payment: async () => {
    const stripeMock = await startStripeMock();
    // A test Apple root, so /webhook/apple verifies (and refuses what it did not sign) instead of answering 503.
    const appleRoot = (await makeChain()).rootPem;
    return {
      overrides: {
        STRIPE_API_BASE: stripeMock.apiBase,
        STRIPE_SECRET_KEY: 'sk_test_spinroom',
        STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64url')}`,
        APPLE_ROOT_CERT_PEM: appleRoot,
      },
      cleanup: () => stripeMock.stop(),
    };
  },
};

/**
 * A service's definition, from its folder: services/<name>/src/app.ts exports
 * `<name>Service` (defineService(name, ...)), as every service does.
 */
async function loadService(name: ServiceName): Promise<Service<z.ZodRawShape, object, object>> {
  const exported = `${name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())}Service`;
  const module = (await import(`../../services/${name}/src/app.ts`)) as Record<string, unknown>;
  const service = module[exported] as Service<z.ZodRawShape, object, object> | undefined;
  if (service?.name !== name) throw new Error(`services/${name}/src/app.ts must export ${exported} = defineService('${name}', ...)`);
  return service;
}

/** A call through the BFFs' client of a service that any answer but a 503 shows reaching it (see restartService). */
const BFF_PROBES: Partial<Record<ServiceName, (upstreams: Upstreams) => Promise<unknown>>> = {
  room: (upstreams) => upstreams.room.getRoom({ room: undefined }),
};

/** Every service of the list and the BFF, wired as in production, each on a port of its own. */
export async function startPlatform(options: PlatformOptions = {}): Promise<TestPlatform> {
  // The live rooms, the feed and the limits of this platform: a Redis database of its own.
  const redisUrl = options.redisUrl ?? (await isolatedRedisUrl());
  const twilio = await TwilioStandIn.start();
  const services = {} as Record<ServiceName, TestService>;
  const grpc = {} as Record<ServiceName, string>;
  const configs = {} as Record<ServiceName, Record<string, unknown>>;
  const definitions = {} as Record<ServiceName, Service<z.ZodRawShape, object, object>>;
  const startOptions = {} as Record<ServiceName, object | undefined>;
  const cleanups: Array<() => Promise<void> | void> = [];
  const extraRooms: RunningService[] = [];
  // Every address before any service starts: each is given all its peers', whichever starts first.
  for (const name of SERVICE_NAMES) grpc[name] = `127.0.0.1:${await freePort()}`;
  const timing = process.env.TEST_PLATFORM_TIMING
    ? (what: string, since: number) => console.log(`[platform] ${what} ${Date.now() - since} ms`)
    : undefined;
  const platformStart = Date.now();
  const startOne = async (name: ServiceName) => {
    const serviceStart = Date.now();
    const definition = await loadService(name);
    timing?.(`${name} loaded`, serviceStart);
    const entry: ServiceEntry = SERVICES[name];
    const databaseUrl = entry.database ? uniqueDatabaseUrl(`e2e_${name}`) : undefined;
    const extras = (await TEST_EXTRAS[name]?.({ options, twilio })) ?? {};
    if (extras.cleanup) cleanups.push(extras.cleanup);
    const requested = options[name] ?? {};
    for (const key of Object.keys(requested)) {
      if (!(key in definition.config)) throw new Error(`startPlatform: the ${name} service has no setting ${key}`);
    }
    const own: Record<string, unknown> = { REDIS_URL: redisUrl };
    // Consumer groups of its own, reading what comes after the platform started:
    // the broker holds every earlier suite's events, which are not this platform's.
    if ('KAFKA_CONSUMER_GROUP' in definition.config) own.KAFKA_CONSUMER_GROUP = `${name}-${randomUUID()}`;
    if ('KAFKA_CONSUMER_FROM' in definition.config) own.KAFKA_CONSUMER_FROM = 'latest';
    const port = Number(grpc[name].split(':')[1]);
    const config = testServiceConfig(name, definition.config, databaseUrl ?? '', grpc, {
      ...own,
      GRPC_PORT: port,
      ...extras.overrides,
      ...requested,
    });
    const running = await definition.start(config, extras.options);
    timing?.(`${name} started`, serviceStart);
    services[name] = { address: grpc[name], databaseUrl, running };
    configs[name] = config;
    definitions[name] = definition;
    startOptions[name] = extras.options;
    if (name === 'room') {
      for (let i = 0; i < (options.extraRoomReplicas ?? 0); i += 1) extraRooms.push(await definition.start({ ...config, GRPC_PORT: 0 }));
    }
  };
  // All at once: every address is known, clients connect on their first call, and a service
  // that needs the user service's key waits for it (NOT_SERVING until then); one after
  // another, the Kafka group joins and migrations of ten services added up to minutes.
  const started = await Promise.allSettled(SERVICE_NAMES.map(startOne));
  const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    for (const name of SERVICE_NAMES) await services[name]?.running.stop();
    for (const extra of extraRooms) await extra.stop();
    for (const cleanup of cleanups) await cleanup();
    await twilio.close();
    throw failed.reason;
  }
  // Every service serves once it holds the user service's public key (NOT_SERVING until then), as the BFF's readiness waits for.
  const health = new GrpcHealthChecker();
  try {
    await eventually(async () => ((await health.allServing(Object.values(grpc))) ? true : undefined), 30_000);
  } finally {
    health.close();
  }
  timing?.('all serving', platformStart);
  const upstreams = openUpstreams(grpc);
  const users = upstreams.user.accounts;
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
  const uploadMaxBytes = options.upload?.UPLOAD_MAX_BYTES as number | undefined;
  // The catalogue's generation read as the BFF reads it, more often: a changed song shows in a repeated search sooner.
  const catalogueGeneration = watchCatalogueGeneration(limitsRedis, { everyMs: 100 });
  const bffs: Array<{ url: string; server: Server; feed: RunningFeed }> = [];
  for (let i = 0; i < (options.bffReplicas ?? 1); i += 1) {
    const app = createApp({
      config: { CORS_ORIGINS: [], JSON_BODY_LIMIT: '100kb', WEB_DIR: options.webDir, UPLOAD_MAX_BYTES: uploadMaxBytes },
      upstreams,
      verifier: () => keys.verifier,
      ready: async () => (await users.getPublicKey({})).publicKeyPem.length > 0,
      limits,
      searchAnswers: new SearchAnswers({ generation: catalogueGeneration.current, maxAgeMs: 300_000, maxBytes: 16 * 2 ** 20 }),
    });
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const feed = startFeed({
      server,
      redisUrl,
      rooms: upstreams.room,
      serviceToken,
      verifier: () => keys.verifier,
      sessions,
      allowedOrigins: [],
      logger: createLogger('bff', { level: 'silent' }),
      limits: options.feed,
      blockedBy: blockedByFromSocial(upstreams.social.social, serviceToken),
    });
    bffs.push({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, feed });
  }
  const databaseOf = (name: ServiceName) => services[name].databaseUrl!;
  const platform: TestPlatform = {
    baseUrl: bffs[0]!.url,
    services,
    twilio,
    bffUrls: bffs.map((b) => b.url),
    async restartService(name) {
      await services[name].running.stop();
      const port = Number(grpc[name].split(':')[1]);
      services[name].running = await definitions[name].start({ ...configs[name], GRPC_PORT: port }, startOptions[name]);
      // While the service was down, the BFFs' channel to it backed off (grpc-js: 1 s, growing with each failed
      // attempt) and refuses calls (503) until its next attempt, a second or more after the service is back: the
      // restart is over once a call through the BFFs' own client is answered, whatever the answer.
      const probe = BFF_PROBES[name];
      if (probe) {
        const answered = () =>
          probe(upstreams).then(
            () => true,
            (error: unknown) => (isAppError(error) && error.status === 503 ? undefined : true),
          );
        await eventually(answered, 30_000, 50);
      }
    },
    restartRoomService: () => platform.restartService('room'),
    databaseUrl: databaseOf('user'),
    playlist: { databaseUrl: databaseOf('playlist') },
    upload: { databaseUrl: databaseOf('upload'), storageDir: configs.upload.UPLOAD_STORAGE_DIR as string },
    grpc,
    get room() {
      return { databaseUrl: databaseOf('room'), service: services.room.running as RunningRoomService };
    },
    chat: { databaseUrl: databaseOf('chat'), redisUrl },
    get points() {
      return { databaseUrl: databaseOf('points'), service: services.points.running as RunningPointsService };
    },
    get payment() {
      return {
        databaseUrl: databaseOf('payment'),
        service: services.payment.running as RunningPaymentService,
        stripeApiBase: configs.payment.STRIPE_API_BASE as string,
        webhookSecret: configs.payment.STRIPE_WEBHOOK_SECRET as string,
      };
    },
    async stop() {
      keys.stop();
      catalogueGeneration.stop();
      await twilio.close();
      for (const bff of bffs) {
        await bff.feed.close();
        await new Promise<void>((resolve) => bff.server.close(() => resolve()));
      }
      limitsRedis.disconnect();
      upstreams.close();
      // The user service last: the others verify tokens with its key until they stop. The others
      // side by side: a service's stop is mostly its consumers leaving their groups.
      const stopOne = async (name: ServiceName) => {
        const stopStart = Date.now();
        await services[name].running.stop();
        if (name === 'room') for (const extra of extraRooms) await extra.stop();
        timing?.(`${name} stopped`, stopStart);
        const { databaseUrl } = services[name];
        if (databaseUrl) await dropDatabase(databaseUrl);
      };
      await Promise.all(SERVICE_NAMES.filter((name) => name !== 'user').map(stopOne));
      await stopOne('user');
      for (const cleanup of cleanups) await cleanup();
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
    ...Object.fromEntries(SERVICE_NAMES.map((name) => [peerAddressVariable(name), platform.grpc[name]])),
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
