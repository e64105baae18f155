import type { Client } from '@grpc/grpc-js';
import type { EntitySchema, MigrationObject } from '@mikro-orm/postgresql';
import { descriptorSetPath } from '@spinroom/contracts/descriptors';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import type { TokenUse, TokenVerifier } from '../auth.js';
import { ConfigError, env, loadConfigOrExit } from '../config.js';
import { createOrm, ensureDatabase, migrate, type MikroORM } from '../db/orm.js';
import { createGrpcClient, type GrpcClientConstructor, type PromiseClient } from '../grpc/client.js';
import { createClientStreamingFactory, createUnaryFactory, startGrpcServer, type GrpcServiceRegistration } from '../grpc/server.js';
import { KafkaClient } from '../kafka/client.js';
import { OutboxMessage, OutboxRelay } from '../kafka/outbox.js';
import { closeOnSignals } from '../lifecycle.js';
import { createLogger, type Logger } from '../logging.js';
import { PublicKeyCache, type PublishedKeys } from '../public-key-cache.js';
import { createRedis } from '../redis.js';
import { ServiceTokenSource } from '../service-token.js';
import { SessionRevocations } from '../sessions.js';
import { peerAddressVariable, SERVICES, type ConfigOf, type ServiceEntry, type ServiceName } from './service-list.js';

/** A service's tables: its entities and its checked-in migrations, in order. */
export interface ServiceDatabase {
  // biome-ignore lint/suspicious/noExplicitAny: schemas of different entities in one list; MikroORM's own signatures take EntitySchema<any, any>
  entities: EntitySchema<any, any>[];
  migrations: MigrationObject[];
}

/** Opens (creating and migrating as needed) a service's database; with Kafka, its outbox table is mapped too. */
export async function openServiceDatabase(
  name: ServiceName,
  databaseUrl: string,
  database: ServiceDatabase,
  logger?: Logger,
): Promise<MikroORM> {
  const entry: ServiceEntry = SERVICES[name];
  await ensureDatabase(databaseUrl);
  const orm = await createOrm({
    databaseUrl,
    entities: entry.kafka ? [...database.entities, OutboxMessage] : database.entities,
    migrations: database.migrations,
    log: (message) => logger?.debug({ component: 'orm' }, message),
  });
  const applied = await migrate(orm);
  if (applied.length > 0) logger?.info({ applied }, 'migrations applied');
  return orm;
}

/** `npm run migrate -w <service>` (and the chart's migrations Job): applies pending migrations and exits. */
export async function migrateServiceDatabase(name: ServiceName, database: ServiceDatabase): Promise<void> {
  const { DATABASE_URL } = loadConfigOrExit({ DATABASE_URL: env.url(['postgres', 'postgresql']) });
  const orm = await openServiceDatabase(name, DATABASE_URL, database, createLogger(name));
  console.log(`${name} database is up to date`);
  await orm.close();
}

type Peers<N extends ServiceName> = (typeof SERVICES)[N]['peers'][number];
type PeerConstructors<N extends ServiceName> = { [P in Peers<N>]: GrpcClientConstructor<Client> };
type PeerClients<N extends ServiceName, C extends PeerConstructors<N>> = {
  [P in keyof C]: C[P] extends GrpcClientConstructor<infer K> ? PromiseClient<K> : never;
};

/** What the user service answers other services with: its public key and their `service` tokens. */
interface UserPeer {
  getPublicKey(request: object, options?: { deadlineMs?: number }): Promise<PublishedKeys>;
  issueServiceToken(
    request: { serviceName: string; clientSecret: string },
    options?: { deadlineMs?: number },
  ): Promise<{ accessToken: string; expiresInSeconds: number }>;
}

/** What the kit has opened for a service, by its entry in the list of services. */
export interface ServiceKit<N extends ServiceName, Config, Clients> {
  name: N;
  config: Config;
  logger: Logger;
  /** Its database (entry `database`). */
  orm: MikroORM;
  /** Redis (entry `redis`). */
  redis: Redis;
  /** Kafka, with the definition's topics ensured (entry `kafka`). */
  kafka: KafkaClient;
  /** The outbox relay, started unless the options say `relay: false` (entry `outbox`). */
  relay: OutboxRelay;
  /** Typed clients of its peers (closed on stop). */
  peers: Clients;
  /** This service's own token (entry `serviceToken`). */
  serviceToken: ServiceTokenSource;
  /** Wraps unary handlers: context, caller, errors as gRPC statuses. */
  unary: ReturnType<typeof createUnaryFactory>;
  clientStream: ReturnType<typeof createClientStreamingFactory>;
  /** The verifier of callers' tokens that `unary` uses (undefined until the user service's key is known), for tokens carried in a message. */
  verifier: () => TokenVerifier | undefined;
}

/** What a service's own code builds from the kit. */
export interface BuiltService<Extra extends object> {
  services: GrpcServiceRegistration[];
  /** Stops what the service started itself; runs after the server has shut down, before the kit closes its clients. */
  stop?: () => Promise<void>;
  /**
   * How callers' tokens are verified when the service does not ask the user
   * service for its public key (the user service itself).
   */
  verifier?: TokenVerifier;
  /** Exposed on the running service (tests look past the gRPC surface). */
  expose?: Extra;
}

/** A service's own part: its config, peers' clients, tables, topics and what it builds from the kit. */
export interface ServiceDefinition<
  N extends ServiceName,
  S extends z.ZodRawShape,
  C extends PeerConstructors<N>,
  Options extends object,
  Extra extends object,
> {
  /** The whole config schema (serviceConfig(name, own)). */
  config: S;
  /** Client constructors of the peers in its entry. */
  peers: C;
  /** Its tables (required when its entry names a database). */
  database?: ServiceDatabase;
  /** Topics created at start if missing (produced to or consumed). */
  topics?: string[];
  /**
   * Checks across variables, run before anything opens; a ConfigError here
   * stops `main` with exit code 78 as a schema error does.
   */
  check?: (config: ConfigOf<S>) => void;
  /** The token use its callers present (see TokenVerifier.fromPem); access tokens when unset. */
  tokenUse?: TokenUse;
  build(kit: ServiceKit<N, ConfigOf<S>, PeerClients<N, C>>, options: Options): Promise<BuiltService<Extra>>;
}

export type RunningService<Extra extends object = object> = Extra & {
  port: number;
  stop(): Promise<void>;
};

/** The options every service's start takes. */
export interface KitOptions {
  /** false: the outbox relay is not started (tests that read the outbox themselves). */
  relay?: boolean;
}

export interface Service<S extends z.ZodRawShape, Options extends object, Extra extends object> {
  name: ServiceName;
  config: S;
  start(config: ConfigOf<S>, options?: Options & KitOptions): Promise<RunningService<Extra>>;
  /** The process: config from the environment (exit 78 when wrong), start, stop on SIGTERM/SIGINT. */
  main(): Promise<void>;
}

/** One service, from its definition: the kit opens and closes everything its entry needs. */
export function defineService<
  N extends ServiceName,
  S extends z.ZodRawShape,
  C extends PeerConstructors<N>,
  Options extends object = object,
  Extra extends object = object,
>(name: N, definition: ServiceDefinition<N, S, C, Options, Extra>): Service<S, Options, Extra> {
  const entry: ServiceEntry = SERVICES[name];
  const start = async (config: ConfigOf<S>, options: Options & KitOptions = {} as Options & KitOptions) => {
    definition.check?.(config);
    // biome-ignore lint/suspicious/noExplicitAny: the shared fields a service's schema may or may not declare, each checked by that schema
    const values = config as Record<string, any>;
    const logger = createLogger(name, { level: values.LOG_LEVEL });
    // Closed in reverse order of opening, whatever step failed.
    const closers: Array<() => Promise<void> | void> = [];
    const closeAll = async () => {
      // The whole stop fits the chart's grace period: a step still running at the deadline is left behind.
      const deadline = Date.now() + STOP_MS;
      for (const close of closers.reverse().splice(0)) await boundedStep(close, logger, Math.max(1_000, deadline - Date.now()));
    };
    const missing = (what: string) => () => {
      throw new Error(`${name}: its entry in the list of services does not name ${what}`);
    };
    try {
      const kit = { name, config, logger } as ServiceKit<N, ConfigOf<S>, PeerClients<N, C>>;
      for (const [key, what] of [
        ['orm', 'a database'],
        ['redis', 'Redis'],
        ['kafka', 'Kafka'],
        ['relay', 'an outbox'],
        ['serviceToken', 'a service token'],
      ] as const) {
        Object.defineProperty(kit, key, { get: missing(what), configurable: true });
      }
      const set = <K extends keyof typeof kit>(key: K, value: (typeof kit)[K]) => Object.defineProperty(kit, key, { value });
      if (entry.database) {
        if (!definition.database) throw new Error(`${name}: its entry names a database; its definition lists no tables`);
        const orm = await openServiceDatabase(name, values.DATABASE_URL, definition.database, logger);
        closers.push(() => orm.close());
        set('orm', orm);
      }
      // Redis also holds the users' "valid after" (sessions.ts), which the verifier reads.
      let revocations: SessionRevocations | undefined;
      if (entry.redis) {
        const redis = createRedis(values.REDIS_URL);
        closers.push(() => redis.disconnect());
        set('redis', redis);
        revocations = new SessionRevocations(redis);
      }
      const peers: Record<string, PromiseClient<Client>> = {};
      for (const peer of entry.peers) {
        const Peer = (definition.peers as Record<string, GrpcClientConstructor<Client>>)[peer]!;
        const client = createGrpcClient(Peer, values[peerAddressVariable(peer)]);
        closers.push(() => client.close());
        peers[peer] = client;
      }
      kit.peers = peers as PeerClients<N, C>;
      const user = peers.user as unknown as UserPeer | undefined;
      // Callers are verified with the user service's public key, fetched from it
      // (refreshed now and then); the user service gives its own verifier.
      let verifier: () => TokenVerifier | undefined = () => undefined;
      if (user) {
        if (!revocations) throw new Error(`${name}: it verifies tokens, so its entry needs Redis (ended sessions are kept there)`);
        const keys = new PublicKeyCache({
          fetch: () => user.getPublicKey({}, { deadlineMs: 2_000 }),
          issuer: values.JWT_ISSUER,
          logger,
          use: definition.tokenUse,
          sessions: revocations,
        });
        keys.start();
        closers.push(() => keys.stop());
        verifier = () => keys.verifier;
      }
      if (entry.serviceToken) {
        if (!user) throw new Error(`${name}: a service token comes from the user service, which is not its peer`);
        const grant = { serviceName: name, clientSecret: values.SERVICE_CLIENT_SECRET };
        set('serviceToken', new ServiceTokenSource(() => user.issueServiceToken(grant, { deadlineMs: 3_000 })));
      }
      if (entry.kafka) {
        const kafka = new KafkaClient({
          brokers: values.KAFKA_BROKERS,
          clientId: name,
          logger,
          consumersFrom: values.KAFKA_CONSUMER_FROM,
        });
        if (definition.topics?.length) await kafka.ensureTopics(definition.topics.map((topic) => ({ topic })));
        set('kafka', kafka);
        if (entry.outbox) {
          const producer = await kafka.producer();
          closers.push(() => producer.disconnect());
          const relay = new OutboxRelay(kit.orm, producer, logger, {
            intervalMs: values.OUTBOX_POLL_MS,
            retentionMs: values.OUTBOX_RETENTION_HOURS * 3_600_000,
          });
          if (options.relay !== false) relay.start();
          closers.push(() => relay.stop());
          set('relay', relay);
        }
      }
      kit.unary = createUnaryFactory({ verifier: () => verifier(), logger });
      kit.clientStream = createClientStreamingFactory({ verifier: () => verifier(), logger });
      kit.verifier = () => verifier();

      const built = await definition.build(kit, options);
      if (built.stop) closers.push(built.stop);
      if (built.verifier) {
        const own = built.verifier;
        verifier = () => own;
      } else if (!user) {
        throw new Error(`${name}: without the user service as a peer, it must give its own verifier`);
      }
      const server = await startGrpcServer({
        host: values.GRPC_HOST,
        port: values.GRPC_PORT,
        logger,
        descriptorSetPath, // every proto's descriptors, for reflection
        // Callers cannot be verified before the key is held: NOT_SERVING until then.
        ready: () => verifier() !== undefined,
        services: built.services,
      });
      closers.push(() => server.shutdown());
      return { ...(built.expose as Extra), port: server.port, stop: closeAll } as RunningService<Extra>;
    } catch (error) {
      await closeAll().catch(() => undefined);
      throw error;
    }
  };
  return {
    name,
    config: definition.config,
    start,
    async main() {
      const config = loadConfigOrExit(definition.config);
      const service = await start(config).catch(exitOnConfigError);
      closeOnSignals(createLogger(name, { level: (config as { LOG_LEVEL?: string }).LOG_LEVEL }), () => service.stop());
    },
  };
}

/** The longest a whole stop may take: inside the chart's 30 s grace period, with time to exit. */
const STOP_MS = 25_000;

/**
 * One step of a stop, given at most `limitMs` (what is left of the stop's
 * STOP_MS, at least a second): a client that waits on a peer gone or slow
 * is left behind with a warning rather than holding the process past its
 * grace period, when it would be killed and the steps after it never run.
 */
export async function boundedStep(close: () => Promise<void> | void, logger: Logger, limitMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), limitMs);
    timer.unref();
  });
  const running = Promise.resolve().then(close);
  try {
    if ((await Promise.race([running, late])) === 'late') {
      const step = close.toString().slice(0, 120);
      logger.warn({ step, afterMs: limitMs }, 'a step of the stop did not finish; going on');
      running.catch((error: unknown) => logger.warn({ err: error, step }, 'a step left behind failed'));
    }
  } finally {
    clearTimeout(timer);
  }
}

/** A ConfigError raised while starting (a check across variables) ends the process as a schema error does. */
function exitOnConfigError(error: unknown): never {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(78); // EX_CONFIG, as loadConfigOrExit
}
