import { RoomServiceClient } from '@spinroom/contracts/room/v1/room_service';
import { AvatarServiceClient } from '@spinroom/contracts/points/v1/avatars';
import { SocialServiceClient } from '@spinroom/contracts/social/v1/social_service';
import { UserServiceClient, UserServiceService } from '@spinroom/contracts/user/v1/user_service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenIssuer, TokenVerifier } from '../src/auth.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { dropDatabase } from '../src/db/orm.js';
import { GrpcHealthChecker } from '../src/grpc/health.js';
import { OUTBOX_TABLES_SQL } from '../src/kafka/outbox.js';
import { serviceConfig } from '../src/kit/service-list.js';
import { defineService, type RunningService } from '../src/kit/service.js';
import { eventually, testInfra, uniqueDatabaseUrl } from '../src/testing/index.js';
import { Migration } from '@mikro-orm/migrations';

describe('service config: the base, what the entry in the list needs, then its own', () => {
  const chatEnv = {
    DATABASE_URL: 'postgres://u:p@db:5432/spinroom_chat',
    REDIS_URL: 'redis://redis:6379',
    KAFKA_BROKERS: 'kafka:9092',
    USER_ADDR: 'user:50051',
    ROOM_ADDR: 'room:50054',
    SOCIAL_ADDR: 'social:50058',
    SERVICE_CLIENT_SECRET: 'x'.repeat(32),
  };

  it('gives chat its port, peers, Kafka, outbox and service secret, and payment no Kafka', () => {
    const shape = serviceConfig('chat', {});
    expect(Object.keys(serviceConfig('payment', {}))).not.toContain('KAFKA_BROKERS');
    expect(loadConfig(shape, chatEnv)).toEqual({
      ...chatEnv,
      KAFKA_BROKERS: ['kafka:9092'],
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: 50055,
      JWT_ISSUER: 'spinroom',
      LOG_LEVEL: 'info',
      OUTBOX_POLL_MS: 250,
      OUTBOX_RETENTION_HOURS: 168,
    });
  });

  it('names every missing variable the entry asks for', () => {
    const { ROOM_ADDR: _room, REDIS_URL: _redis, ...rest } = chatEnv;
    const error = (() => {
      try {
        loadConfig(serviceConfig('chat', {}), rest);
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.issues.map((i) => i.split(':')[0]).sort()).toEqual(['REDIS_URL', 'ROOM_ADDR']);
  });

  it('lets a service add and replace variables', () => {
    const shape = serviceConfig('playlist', { GRPC_HOST: serviceConfig('chat', {}).JWT_ISSUER });
    expect(Object.keys(shape)).toEqual(expect.arrayContaining(['DATABASE_URL', 'REDIS_URL', 'KAFKA_BROKERS', 'USER_ADDR', 'GRPC_HOST']));
    expect(Object.keys(shape)).not.toContain('OUTBOX_POLL_MS'); // playlist publishes no events
    expect(
      loadConfig(shape, { DATABASE_URL: 'postgres://db/x', REDIS_URL: 'redis://r:6379', KAFKA_BROKERS: 'k:9092', USER_ADDR: 'u:1' })
        .GRPC_HOST,
    ).toBe('spinroom');
  });
});

class OutboxTables extends Migration {
  override async up(): Promise<void> {
    for (const sql of OUTBOX_TABLES_SQL) this.addSql(sql);
  }
}

describe('a service built by the kit', () => {
  const infra = testInfra();
  const userDb = uniqueDatabaseUrl('kit_user');
  const chatDb = uniqueDatabaseUrl('kit_chat');
  let keyAvailable = false;
  let issuer: TokenIssuer;
  let user: RunningService<{ level: string }>;
  let chat: RunningService<{ level: string }>;

  // A user service of the kit's making that answers only what the kit asks of it: its public key.
  const userService = defineService('user', {
    config: serviceConfig('user', {}),
    peers: { points: AvatarServiceClient },
    database: { entities: [], migrations: [{ name: 'Migration1_outbox', class: OutboxTables }] },
    async build({ unary, logger }) {
      const implementation = {
        getPublicKey: unary.public(async () => {
          if (!keyAvailable) throw new Error('not yet');
          return { publicKeyPem: issuer.publicKeyPem, keyId: '', keys: [] };
        }),
      };
      return {
        services: [{ name: 'spinroom.user.v1.UserService', definition: UserServiceService, implementation }],
        verifier: await TokenVerifier.fromPem(issuer.publicKeyPem, { issuer: 'spinroom' }),
        expose: { level: logger.level },
      };
    },
  });
  const chatService = defineService('chat', {
    config: serviceConfig('chat', {}),
    peers: { user: UserServiceClient, room: RoomServiceClient, social: SocialServiceClient },
    // Its entry names Kafka: the kit maps the outbox table itself.
    database: { entities: [], migrations: [{ name: 'Migration1_outbox', class: OutboxTables }] },
    async build({ logger }) {
      return { services: [], expose: { level: logger.level } };
    },
  });

  beforeAll(async () => {
    issuer = await TokenIssuer.fromPem(infra.signingKeyPem, { issuer: 'spinroom', ttlSeconds: 60 });
    user = await userService.start(
      loadConfig(userService.config, {
        DATABASE_URL: userDb,
        REDIS_URL: infra.redisUrl,
        KAFKA_BROKERS: infra.kafkaBrokers.join(','),
        GRPC_PORT: '0',
        LOG_LEVEL: 'silent',
        POINTS_ADDR: '127.0.0.1:1', // a peer is called lazily: none is asked here
      }),
    );
    chat = await chatService.start(
      loadConfig(chatService.config, {
        DATABASE_URL: chatDb,
        REDIS_URL: infra.redisUrl,
        KAFKA_BROKERS: infra.kafkaBrokers.join(','),
        GRPC_PORT: '0',
        USER_ADDR: `127.0.0.1:${user.port}`,
        ROOM_ADDR: '127.0.0.1:1',
        SOCIAL_ADDR: '127.0.0.1:1',
        SERVICE_CLIENT_SECRET: 'x'.repeat(32),
        LOG_LEVEL: 'silent',
      }),
    );
  });
  afterAll(async () => {
    await chat?.stop();
    await user?.stop();
    await dropDatabase(chatDb);
    await dropDatabase(userDb);
  });

  it('logs at the level its config says (LOG_LEVEL)', () => {
    expect(user.level).toBe('silent');
    expect(chat.level).toBe('silent');
  });

  it('is NOT_SERVING until it holds the key that verifies callers, then SERVING', async () => {
    const health = new GrpcHealthChecker();
    expect(await health.serving(`127.0.0.1:${user.port}`)).toBe(true); // it has its own verifier
    expect(await health.serving(`127.0.0.1:${chat.port}`)).toBe(false);
    keyAvailable = true;
    await eventually(async () => (await health.serving(`127.0.0.1:${chat.port}`)) || undefined, 5_000);
    health.close();
  });

  it('refuses to start a definition whose entry names a database it does not list', async () => {
    const broken = defineService('chat', {
      config: serviceConfig('chat', {}),
      peers: { user: UserServiceClient, room: RoomServiceClient, social: SocialServiceClient },
      build: async () => ({ services: [] }),
    });
    await expect(
      broken.start(
        loadConfig(broken.config, {
          DATABASE_URL: chatDb,
          REDIS_URL: infra.redisUrl,
          KAFKA_BROKERS: infra.kafkaBrokers.join(','),
          USER_ADDR: '127.0.0.1:1',
          ROOM_ADDR: '127.0.0.1:1',
          SOCIAL_ADDR: '127.0.0.1:1',
          SERVICE_CLIENT_SECRET: 'x'.repeat(32),
        }),
      ),
    ).rejects.toThrow('chat: its entry names a database; its definition lists no tables');
  });
});
