import { descriptorSetPath } from '@spinroom/contracts/descriptors';
import { UserServiceService } from '@spinroom/contracts/user/v1/user_service';
import {
  createLogger,
  createOrm,
  createRedis,
  createUnaryFactory,
  ensureDatabase,
  KafkaClient,
  Limit,
  migrate,
  OutboxMessage,
  OutboxRelay,
  startGrpcServer,
  TokenIssuer,
  TokenVerifier,
} from '@spinroom/platform';
import type { UserServiceConfig } from './config.js';
import { PgUserStore } from './db/user-store.js';
import { migrations } from './db/migrations/index.js';
import { UserEntity } from './db/user-entity.js';
import { Accounts } from './domain/accounts.js';
import { LOGIN_FAILURES_PER_ACCOUNT, LoginLockout } from './domain/login-lockout.js';
import { PasswordHasher } from './domain/passwords.js';
import { ServiceTokens } from './domain/service-tokens.js';
import { USER_EVENTS_TOPIC, userSignedUp } from './events/user-events.js';
import { userServiceHandlers } from './rpc/user-service.js';

export interface RunningUserService {
  port: number;
  stop(): Promise<void>;
}

/** Composition root: config -> dependencies -> gRPC server and outbox relay. */
export async function startUserService(
  config: UserServiceConfig,
  options: { relay?: boolean } = {},
): Promise<RunningUserService> {
  const logger = createLogger('user');
  const tokens = await TokenIssuer.fromPem(config.JWT_PRIVATE_KEY, {
    issuer: config.JWT_ISSUER,
    ttlSeconds: config.JWT_TTL_SECONDS,
  });
  const verifier = await TokenVerifier.fromPem(tokens.publicKeyPem, { issuer: config.JWT_ISSUER });

  await ensureDatabase(config.DATABASE_URL);
  const orm = await createOrm({
    databaseUrl: config.DATABASE_URL,
    entities: [UserEntity, OutboxMessage],
    migrations,
    log: (message) => logger.debug({ component: 'orm' }, message),
  });
  const applied = await migrate(orm);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');

  const kafka = new KafkaClient({ brokers: config.KAFKA_BROKERS, clientId: 'user', logger });
  await kafka.ensureTopics([{ topic: USER_EVENTS_TOPIC }]);
  const producer = await kafka.producer();
  const relay = new OutboxRelay(orm, producer, logger, { intervalMs: config.OUTBOX_POLL_MS });
  if (options.relay !== false) relay.start();

  const store = new PgUserStore(orm, () => relay.nudge());
  const accounts = new Accounts(store, new PasswordHasher(config.PASSWORD_HASH_CONCURRENCY), tokens, userSignedUp);
  const redis = createRedis(config.REDIS_URL);
  const logIns = new LoginLockout(accounts, new Limit(redis, LOGIN_FAILURES_PER_ACCOUNT, config.LIMIT_LOGIN_FAILURES_PER_ACCOUNT));
  const unary = createUnaryFactory({ verifier: () => verifier, logger });
  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    logger,
    descriptorSetPath,
    services: [
      {
        name: 'spinroom.user.v1.UserService',
        definition: UserServiceService,
        implementation: userServiceHandlers({ accounts, logIns, tokens, serviceTokens: new ServiceTokens(tokens, config.SERVICE_CLIENT_SECRET), unary }),
      },
    ],
  });

  return {
    port: server.port,
    async stop() {
      await server.shutdown();
      await relay.stop();
      await producer.disconnect();
      await orm.close();
      redis.disconnect();
    },
  };
}
