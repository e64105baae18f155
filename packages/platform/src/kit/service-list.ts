import { z } from 'zod';
import { env } from '../config.js';

/**
 * What a service is to the rest of the platform: its ports, its peers and what
 * it needs. `npm start`, the test platform, the bench scripts and each
 * service's config read this list; the Tiltfile and the chart's values are
 * checked against it (test/deploy). A new service is its folder plus one entry.
 */
export interface ServiceEntry {
  /** Its gRPC port (GRPC_PORT's default; `npm start` serves it on loopback). */
  grpcPort: number;
  /** Its own PostgreSQL database (DATABASE_URL, migrations on start and in a Job). */
  database?: string;
  /** It uses Redis (REDIS_URL); every service that verifies tokens does (ended sessions, sessions.ts). */
  redis?: boolean;
  /** It uses Kafka (KAFKA_BROKERS). */
  kafka?: boolean;
  /** It publishes events through its outbox (the relay: OUTBOX_POLL_MS, OUTBOX_RETENTION_HOURS). */
  outbox?: boolean;
  /** The services it calls over gRPC (<PEER>_ADDR); `user` also verifies its callers' tokens. */
  peers: readonly string[];
  /** It calls peers with its own `service` token (SERVICE_CLIENT_SECRET). */
  serviceToken?: boolean;
}

export const SERVICES = {
  user: { grpcPort: 50051, database: 'spinroom_user', redis: true, kafka: true, outbox: true, peers: ['points'] },
  playlist: { grpcPort: 50052, database: 'spinroom_playlist', redis: true, kafka: true, peers: ['user'] },
  upload: { grpcPort: 50053, database: 'spinroom_upload', redis: true, kafka: true, outbox: true, peers: ['user'] },
  room: {
    grpcPort: 50054,
    database: 'spinroom_room',
    redis: true,
    kafka: true,
    outbox: true,
    // audit: the seconds listened that /info-admin/played-seconds answers; social: who blocked a
    // viewer, whose rooms the directories leave out for them.
    peers: ['user', 'playlist', 'points', 'audit', 'social'],
    serviceToken: true,
  },
  // chat asks the social service about blocks and friends (hidden messages, refused direct messages, conversations' groups).
  chat: {
    grpcPort: 50055,
    database: 'spinroom_chat',
    redis: true,
    kafka: true,
    // A direct message to someone offline: `notifications`, through the outbox.
    outbox: true,
    peers: ['user', 'room', 'social'],
    serviceToken: true,
  },
  // points asks the room who may buy in it and the payment service who subscribes; both call it back (entry fees, bundles bought).
  points: {
    grpcPort: 50056,
    database: 'spinroom_points',
    redis: true,
    kafka: true,
    outbox: true,
    peers: ['user', 'room', 'payment'],
    serviceToken: true,
  },
  payment: { grpcPort: 50057, database: 'spinroom_payment', redis: true, peers: ['user', 'points'], serviceToken: true },
  // social announces invitations and follows (social-events) and keeps a directory of users' hashed emails from user-events.
  social: { grpcPort: 50058, database: 'spinroom_social', redis: true, kafka: true, outbox: true, peers: ['user'] },
  // audit writes /kinesis records to Kafka and reads play-tracking, the analytics topics and moderation-actions.
  audit: { grpcPort: 50059, database: 'spinroom_audit', redis: true, kafka: true, peers: ['user'] },
} as const satisfies Record<string, ServiceEntry>;

export type ServiceName = keyof typeof SERVICES;
export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];

/** `room` -> `ROOM_ADDR`: the variable holding a peer's host:port. */
export function peerAddressVariable<P extends string>(peer: P): `${Uppercase<P>}_ADDR` {
  return `${peer.toUpperCase().replace(/-/g, '_')}_ADDR` as `${Uppercase<P>}_ADDR`;
}

/**
 * Where a consumer group that has no offsets yet starts reading: `earliest`
 * (unset: a new service catches up on every event kept), or `latest` (only
 * what comes after it joined: the test platforms, each of which has groups of
 * its own on a broker shared by the whole suite).
 */
const kafkaConsumerFrom = z.enum(['earliest', 'latest']).optional();

/** The variables every service reads. */
export const baseServiceConfig = {
  GRPC_HOST: z.string().default('127.0.0.1'),
  /** The issuer every token is checked for. */
  JWT_ISSUER: z.string().min(1).default('spinroom'),
  LOG_LEVEL: env.logLevel(),
};

type Entry<N extends ServiceName> = (typeof SERVICES)[N];
type If<C, T> = C extends true ? T : unknown;

/** The schema a service's entry in the list gives it, before its own variables. */
export type ServiceConfigShape<N extends ServiceName> = typeof baseServiceConfig & {
  GRPC_PORT: ReturnType<typeof env.port>;
} & (Entry<N> extends { database: string } ? { DATABASE_URL: ReturnType<typeof env.url> } : unknown) &
  If<Entry<N> extends { redis: true } ? true : false, { REDIS_URL: ReturnType<typeof env.url> }> &
  If<
    Entry<N> extends { kafka: true } ? true : false,
    { KAFKA_BROKERS: ReturnType<typeof env.list>; KAFKA_CONSUMER_FROM: typeof kafkaConsumerFrom }
  > &
  If<
    Entry<N> extends { outbox: true } ? true : false,
    { OUTBOX_POLL_MS: z.ZodDefault<z.ZodCoercedNumber>; OUTBOX_RETENTION_HOURS: z.ZodDefault<z.ZodCoercedNumber> }
  > &
  If<Entry<N> extends { serviceToken: true } ? true : false, { SERVICE_CLIENT_SECRET: z.ZodString }> & {
    [P in Entry<N>['peers'][number] as `${Uppercase<P>}_ADDR`]: ReturnType<typeof env.address>;
  };

/**
 * A service's config schema: the base, what its entry needs, then its own
 * variables (which win over the others of the same name).
 */
export function serviceConfig<N extends ServiceName, O extends z.ZodRawShape>(name: N, own: O): Omit<ServiceConfigShape<N>, keyof O> & O {
  const entry: ServiceEntry = SERVICES[name];
  const shape: Record<string, z.ZodType> = { ...baseServiceConfig, GRPC_PORT: env.port(entry.grpcPort) };
  if (entry.database) shape.DATABASE_URL = env.url(['postgres', 'postgresql']);
  if (entry.redis) shape.REDIS_URL = env.url(['redis', 'rediss']);
  if (entry.kafka) {
    shape.KAFKA_BROKERS = env.list();
    shape.KAFKA_CONSUMER_FROM = kafkaConsumerFrom;
  }
  if (entry.outbox) {
    shape.OUTBOX_POLL_MS = z.coerce.number().int().positive().default(250);
    shape.OUTBOX_RETENTION_HOURS = z.coerce.number().positive().default(168);
  }
  if (entry.serviceToken) shape.SERVICE_CLIENT_SECRET = z.string().min(32);
  for (const peer of entry.peers) shape[peerAddressVariable(peer)] = env.address();
  return { ...shape, ...own } as Omit<ServiceConfigShape<N>, keyof O> & O;
}

/** Its config as parsed values. */
export type ConfigOf<S extends z.ZodRawShape> = z.infer<z.ZodObject<S>>;
