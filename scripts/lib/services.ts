// The services' environment on this machine (`npm start`, the benchmarks),
// read from the one list of services (packages/platform/src/kit/service-list.ts):
// a new service gets its database, Redis, Kafka, peers and port from its entry.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { peerAddressVariable, SERVICE_NAMES, SERVICES, type ServiceEntry, type ServiceName } from '@spinroom/platform/core';
import { databaseUrl, ensureSecret, ensureSigningKey, localDir, type Infra } from './infra.js';
import { startServiceProcess, type ServiceProcess } from './processes.js';

/** Where `npm start` runs stripe-mock (Stripe's own mock API) for the payment service, unless STRIPE_API_BASE names a Stripe. */
export const STRIPE_MOCK_PORT = process.env.STRIPE_MOCK_PORT ?? '12111';

export interface LocalServices {
  infra: Infra;
  /** Each service's gRPC port (loopback). */
  ports: Record<ServiceName, number | string>;
  /** Appended to every database's name (and the playlist's, chat's and points' consumer groups): a benchmark's own data. '' for `npm start`. */
  suffix?: string;
  /** What every process gets (LOG_LEVEL, limits). */
  common?: Record<string, string>;
}

/**
 * Web Push's VAPID keys for `npm start` (a P-256 pair, as web-push's
 * generateVAPIDKeys makes it: the public key as an uncompressed point, the
 * private as its scalar, base64url), made once in .local/dev unless
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set.
 */
function ensureVapidKeys(): { VAPID_PUBLIC_KEY: string; VAPID_PRIVATE_KEY: string } {
  if (process.env.VAPID_PUBLIC_KEY && process.env.VAPID_PRIVATE_KEY) {
    return { VAPID_PUBLIC_KEY: process.env.VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: process.env.VAPID_PRIVATE_KEY };
  }
  const path = join(localDir, 'dev', 'vapid-keys.json');
  if (!existsSync(path)) {
    const jwk = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ format: 'jwk' });
    const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
    mkdirSync(join(localDir, 'dev'), { recursive: true });
    writeFileSync(path, JSON.stringify({ VAPID_PUBLIC_KEY: point.toString('base64url'), VAPID_PRIVATE_KEY: jwk.d! }), { mode: 0o600 });
  }
  return JSON.parse(readFileSync(path, 'utf8')) as { VAPID_PUBLIC_KEY: string; VAPID_PRIVATE_KEY: string };
}

/**
 * The points service's V8 options, as the chart runs it (helm/spinroom/values.yaml): 8 MiB
 * semi-spaces. At V8's default the young generation grew to 64 MiB under the ledger's
 * load and each scavenge copied 7-8 MiB, a 12-20 ms pause (up to 80 on a busy machine)
 * that stalled every write of a WriteTokens round; at 8 MiB they take about 3 ms
 * (BENCHMARKS.md, token ledger L11, L12).
 */
export const POINTS_NODE_OPTIONS = '--max-semi-space-size=8';

/** The secrets and folders a service reads beyond its entry, made once in .local/dev. */
const LOCAL_EXTRAS: { [N in ServiceName]?: (suffix: string, local: LocalServices) => Record<string, string> } = {
  // PROVIDER_TOKEN_KEYS: a 32-byte key (base64url) under id `dev`, so music-provider links work locally.
  // SMTP_URL: the profile's Mailpit, whose inbox shows every mail the user service sends.
  user: (_suffix, local) => ({
    JWT_PRIVATE_KEY: ensureSigningKey('dev').pem,
    PROVIDER_TOKEN_KEYS: `dev:${ensureSecret('dev', 'provider-token-key')}`,
    SMTP_URL: local.infra.SMTP_URL,
  }),
  playlist: (suffix): Record<string, string> => (suffix ? { KAFKA_CONSUMER_GROUP: `playlist${suffix.replace(/_/g, '-')}` } : {}),
  chat: (suffix): Record<string, string> => (suffix ? { KAFKA_CONSUMER_GROUP: `chat${suffix.replace(/_/g, '-')}` } : {}),
  // Stripe: stripe-mock (npm start runs it) unless STRIPE_API_BASE and STRIPE_SECRET_KEY say otherwise.
  payment: () => ({
    STRIPE_API_BASE: process.env.STRIPE_API_BASE ?? `http://127.0.0.1:${STRIPE_MOCK_PORT}`,
    STRIPE_SECRET_KEY: process.env.STRIPE_SECRET_KEY ?? 'sk_test_spinroomlocal',
    STRIPE_WEBHOOK_SECRET: process.env.STRIPE_WEBHOOK_SECRET ?? `whsec_${ensureSecret('dev', 'stripe-webhook-secret')}`,
  }),
  // NODE_OPTIONS: the chart's (POINTS_NODE_OPTIONS), after any the caller runs with.
  points: (suffix): Record<string, string> => ({
    NODE_OPTIONS: [process.env.NODE_OPTIONS, POINTS_NODE_OPTIONS].filter(Boolean).join(' '),
    ...(suffix ? { KAFKA_CONSUMER_GROUP: `points${suffix.replace(/_/g, '-')}` } : {}),
  }),
  room: (suffix): Record<string, string> => (suffix ? { KAFKA_CONSUMER_GROUP: `room${suffix.replace(/_/g, '-')}` } : {}),
  // CONTACT_HASH_SECRET: the deployment's secret address books are hashed with (made once, like the others).
  social: (suffix) => ({
    CONTACT_HASH_SECRET: ensureSecret('dev', 'contact-hash-secret'),
    ...ensureVapidKeys(),
    ...(suffix ? { KAFKA_CONSUMER_GROUP: `social${suffix.replace(/_/g, '-')}` } : {}),
  }),
  upload: (suffix) => ({
    UPLOAD_STORAGE_DIR: process.env.UPLOAD_STORAGE_DIR ?? join(localDir, 'dev', `uploads${suffix.replace(/_/g, '-')}`),
    HLS_KEY_SECRET: ensureSecret('dev', 'hls-key-secret'),
    TRANSCODER_CALLBACK_SECRET: ensureSecret('dev', 'transcoder-callback-secret'),
  }),
};

/**
 * Every service's gRPC port from a base, at its list port's offset from 50050
 * (user 50051 -> base + 1): a benchmark's own ports, which a new service gets too.
 */
export function servicePorts(base: number): Record<ServiceName, number> {
  return Object.fromEntries(SERVICE_NAMES.map((name) => [name, base + (SERVICES[name].grpcPort - 50050)])) as Record<ServiceName, number>;
}

/** Every service's address, as its peers (and the BFF) read them: USER_ADDR, ROOM_ADDR... */
export function serviceAddresses(ports: LocalServices['ports']): Record<string, string> {
  return Object.fromEntries(SERVICE_NAMES.map((name) => [peerAddressVariable(name), `127.0.0.1:${ports[name]}`]));
}

/** One service's environment: its entry's needs, its peers' addresses, the shared service secret, its extras. */
export function serviceEnvironment(name: ServiceName, local: LocalServices): Record<string, string> {
  const entry: ServiceEntry = SERVICES[name];
  const suffix = local.suffix ?? '';
  const addresses = serviceAddresses(local.ports);
  const env: Record<string, string> = {
    ...local.common,
    GRPC_PORT: String(local.ports[name]),
    // Every service may hold it: the user service checks it, the others trade it for their own token.
    SERVICE_CLIENT_SECRET: ensureSecret('dev', 'service-client-secret'),
  };
  if (entry.database) env.DATABASE_URL = databaseUrl(local.infra, `${entry.database}${suffix}`);
  if (entry.redis) env.REDIS_URL = local.infra.REDIS_URL;
  if (entry.kafka) env.KAFKA_BROKERS = local.infra.KAFKA_BROKERS;
  for (const peer of entry.peers) env[peerAddressVariable(peer)] = addresses[peerAddressVariable(peer)]!;
  return { ...env, ...LOCAL_EXTRAS[name]?.(suffix, local) };
}

/** The BFF's environment: every service's address, Redis (the feed's channels, the limits), the shared service secret, its port. */
export function bffEnvironment(local: LocalServices, port: number | string): Record<string, string> {
  return {
    ...local.common,
    ...serviceAddresses(local.ports),
    REDIS_URL: local.infra.REDIS_URL,
    SERVICE_CLIENT_SECRET: ensureSecret('dev', 'service-client-secret'),
    PORT: String(port),
    HTTP_HOST: '127.0.0.1',
  };
}

/** Starts one service as its own process (services/<name>/src/main.ts). */
export function startLocalService(
  name: ServiceName,
  local: LocalServices,
  options: { bundled?: boolean; env?: Record<string, string> } = {},
): ServiceProcess {
  return startServiceProcess(
    name,
    `services/${name}/src/main.ts`,
    { ...serviceEnvironment(name, local), ...options.env },
    { bundled: options.bundled },
  );
}
