import { randomUUID } from 'node:crypto';
import { UserServiceService } from '@spinroom/contracts/user/v1/user_service';
import { createLogger, createUnaryFactory, startGrpcServer, TokenIssuer, TokenVerifier, type Role } from '@spinroom/platform';
import { testInfra } from '@spinroom/platform/testing';
import type { AuditServiceConfig } from '../src/config.js';

/**
 * A stand-in for the audit service's one peer, the user service (its public
 * key, which every token verifier needs), and an issuer of tokens that key
 * verifies: users', guests', staff's and admins'.
 */
export async function fakeUserService() {
  const issuer = await TokenIssuer.fromPem(testInfra().signingKeyPem, { issuer: 'spinroom', ttlSeconds: 3600 });
  const logger = createLogger('fake-user', { level: 'silent' });
  const verifier = await TokenVerifier.fromPem(issuer.publicKeyPem, { issuer: 'spinroom' });
  const unary = createUnaryFactory({ verifier: () => verifier, logger });
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

/** The audit service's config in a test: its own database and consumer group, its user peer at the stand-in's address, port 0 unless given. */
export function testAuditConfig(databaseUrl: string, userAddress: string, overrides: Partial<AuditServiceConfig> = {}): AuditServiceConfig {
  return {
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: testInfra().kafkaBrokers,
    KAFKA_CONSUMER_FROM: 'latest',
    REDIS_URL: testInfra().redisUrl,
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: 0,
    USER_ADDR: userAddress,
    JWT_ISSUER: 'spinroom',
    KAFKA_CONSUMER_GROUP: `audit-${randomUUID()}`,
    KINESIS_LINGER_MS: 0,
    KINESIS_MAX_BATCH: 2000,
    PLAY_SEEN_RETENTION_DAYS: 35,
    PLAY_SEEN_PRUNE_MS: 3_600_000,
    LOG_LEVEL: (process.env.LOG_LEVEL ?? 'silent') as AuditServiceConfig['LOG_LEVEL'],
    ...overrides,
  };
}

/** A play-tracking record of `/kinesis` (spec 002's play tracking record and the event it reports). */
export function playRecord(
  userUuid: string,
  event: 'totalPlayed' | 'played15Sec' | 'played30Sec',
  overrides: Record<string, unknown> = {},
) {
  const now = Date.now();
  return {
    event,
    playId: randomUUID(),
    userUuid,
    roomSlug: 'audit-room',
    djUuid: randomUUID(),
    songInfo: { songId: `song-${randomUUID()}`, duration: 180 },
    startedDate: new Date(now - 40_000).toISOString(),
    updatedDate: new Date(now).toISOString(),
    device: { platform: 'web' },
    ...overrides,
  };
}
