import { randomUUID } from 'node:crypto';
import { PaymentServiceService } from '@spinroom/contracts/payment/v1/payment';
import { GetRoomAccessResponse, RoomServiceService } from '@spinroom/contracts/room/v1/room_service';
import { UserServiceService } from '@spinroom/contracts/user/v1/user_service';
import {
  createLogger,
  createUnaryFactory,
  startGrpcServer,
  TokenIssuer,
  TokenVerifier,
  type MikroORM,
  type Role,
} from '@spinroom/platform';
import { testInfra } from '@spinroom/platform/testing';
import type { PointsServiceConfig } from '../src/config.js';
import type { LedgerRow } from '../src/domain/ledger.js';

/**
 * A stand-in for the points service's peers on one address: the user
 * service's GetPublicKey and IssueServiceToken, the room service's
 * GetRoomAccess (nobody removed unless `removed` says so) and the payment
 * service's GetActiveSubscription (`levels` by user); and an issuer of tokens
 * that key verifies: users', admins' and services' (`service:<name>`, as the
 * user service's IssueServiceToken makes them).
 */
export async function fakeUserService() {
  /** `${roomUuid}/${userUuid}` of the users banned from a room. */
  const removed = new Set<string>();
  const levels = new Map<string, string>();
  const issuer = await TokenIssuer.fromPem(testInfra().signingKeyPem, { issuer: 'spinroom', ttlSeconds: 3600 });
  const logger = createLogger('fake-user', { level: 'silent' });
  // The points service calls the room and payment stand-ins with its service token, which is verified as anywhere.
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
          issueServiceToken: unary.public(async (request: { serviceName: string }) => ({
            accessToken: await issuer.sign({ sub: `service:${request.serviceName}`, role: 'service', capabilities: [] }),
            expiresInSeconds: 3600,
          })),
        },
      },
      {
        name: 'spinroom.room.v1.RoomService',
        definition: RoomServiceService,
        implementation: {
          getRoomAccess: unary.public(async (request: { roomUuid: string; userUuid: string }) => {
            const banned = removed.has(`${request.roomUuid}/${request.userUuid}`);
            return GetRoomAccessResponse.fromPartial({
              mayEnter: !banned,
              banned,
              refusalMessage: banned ? 'You are banned from this room' : '',
              refusalCode: banned ? 'ROOM_BANNED' : '',
            });
          }),
        },
      },
      {
        name: 'spinroom.payment.v1.PaymentService',
        definition: PaymentServiceService,
        implementation: {
          getActiveSubscription: unary.public(async (request: { userUuid: string }) => ({ level: levels.get(request.userUuid) ?? '' })),
        },
      },
    ],
  });
  return {
    address: `127.0.0.1:${server.port}`,
    removed,
    levels,
    /** A token for a fresh (or the given) subject with a role. */
    token: (role: Role = 'user', sub: string = randomUUID()) => issuer.sign({ sub, role, capabilities: [] }),
    stop: () => server.shutdown(500),
  };
}

/** The points service's config in a test: its own database and consumer group, its peers at the stand-in's address, port 0 unless given. */
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
    ROOM_ADDR: userAddress,
    PAYMENT_ADDR: userAddress,
    SERVICE_CLIENT_SECRET: 'points-test-service-client-secret-0123456789',
    JWT_ISSUER: 'spinroom',
    KAFKA_CONSUMER_GROUP: `points-${randomUUID()}`,
    TOKEN_HOLD_TTL_SECONDS: 600,
    TOKEN_HOLD_MAX_TTL_SECONDS: 86_400,
    TOKEN_SWEEP_MS: 500,
    TOKEN_IDEMPOTENCY_KEY_HOURS: 24,
    TOKEN_WRITE_LANES: 2,
    TOKEN_WRITE_BATCH: 64,
    LOG_LEVEL: (process.env.LOG_LEVEL ?? 'silent') as PointsServiceConfig['LOG_LEVEL'],
    ...overrides,
  } as PointsServiceConfig;
}

/** The account's ledger rows in order, as stored (`token_transaction`), for the rules to replay. */
export async function ledgerRows(orm: MikroORM, accountId: string): Promise<LedgerRow[]> {
  const rows = await orm.em
    .fork()
    .execute<Array<Record<string, string>>>(
      `select "id", "seq", "type", "amount", "hold_id", "balance_after", "held_after" from "token_transaction" where "account_id" = ? order by "seq"`,
      [accountId],
    );
  return rows.map((r) => ({
    id: r.id!,
    sequence: Number(r.seq),
    type: r.type as LedgerRow['type'],
    amount: Number(r.amount),
    holdId: r.hold_id ?? null,
    balance: Number(r.balance_after),
    held: Number(r.held_after),
  }));
}
