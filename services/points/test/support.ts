import { randomUUID } from 'node:crypto';
import { UserServiceService } from '@spinroom/contracts/user/v1/user_service';
import { createLogger, createUnaryFactory, startGrpcServer, TokenIssuer, type Role } from '@spinroom/platform';
import { testInfra } from '@spinroom/platform/testing';
import type { PointsServiceConfig } from '../src/config.js';

/**
 * A stand-in for the user service answering only GetPublicKey (all the points
 * service asks it), and an issuer of tokens that key verifies: users', admins'
 * and services' (`service:<name>`, as the user service's IssueServiceToken makes them).
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
    /** A token for a fresh (or the given) subject with a role. */
    token: (role: Role = 'user', sub: string = randomUUID()) => issuer.sign({ sub, role, capabilities: [] }),
    stop: () => server.shutdown(500),
  };
}

/** The points service's config in a test: its own database and consumer group, port 0 unless given. */
export function testPointsConfig(
  databaseUrl: string,
  userAddress: string,
  overrides: Partial<PointsServiceConfig> = {},
): PointsServiceConfig {
  return {
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: testInfra().kafkaBrokers,
    REDIS_URL: testInfra().redisUrl,
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: 0,
    USER_ADDR: userAddress,
    JWT_ISSUER: 'spinroom',
    KAFKA_CONSUMER_GROUP: `points-${randomUUID()}`,
    TOKEN_HOLD_TTL_SECONDS: 600,
    TOKEN_HOLD_MAX_TTL_SECONDS: 86_400,
    TOKEN_SWEEP_MS: 500,
    TOKEN_IDEMPOTENCY_KEY_HOURS: 24,
    LOG_LEVEL: (process.env.LOG_LEVEL ?? 'silent') as PointsServiceConfig['LOG_LEVEL'],
    ...overrides,
  } as PointsServiceConfig;
}
