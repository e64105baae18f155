import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Migration } from '@mikro-orm/migrations';
import { metrics } from '@opentelemetry/api';
import { descriptorSetPath } from '@spinroom/contracts/descriptors';
import { UserServiceClient, UserServiceService } from '@spinroom/contracts/user/v1/user_service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrm, dropDatabase, ensureDatabase, migrate, type MikroORM } from '../src/db/orm.js';
import { notFound } from '../src/errors.js';
import { createGrpcClient } from '../src/grpc/client.js';
import { createUnaryFactory, startGrpcServer, type RunningGrpcServer } from '../src/grpc/server.js';
import { KafkaClient } from '../src/kafka/client.js';
import { startIdempotentConsumer } from '../src/kafka/consumer.js';
import { OUTBOX_TABLES_SQL, OutboxMessage } from '../src/kafka/outbox.js';
import { createLogger } from '../src/logging.js';
import { feedMetrics, frameSentAt, resetMetricsForTests, restMetrics } from '../src/telemetry/metrics.js';
import { startTelemetry, type Telemetry } from '../src/telemetry/sdk.js';
import { eventually, freePort, testInfra, uniqueDatabaseUrl } from '../src/testing/index.js';

class CreateProcessedEvents extends Migration {
  override async up() {
    for (const sql of OUTBOX_TABLES_SQL) this.addSql(sql);
  }
}

const logger = createLogger('test', { level: 'silent' });

describe('RED metrics for Prometheus', () => {
  let sdk: Telemetry;
  let metricsUrl: string;
  const scrape = async () => (await fetch(metricsUrl)).text();

  beforeAll(async () => {
    const port = await freePort();
    process.env.METRICS_PORT = String(port);
    sdk = startTelemetry({ serviceName: 'metrics-test' });
    delete process.env.METRICS_PORT;
    resetMetricsForTests();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    await eventually(async () => ((await fetch(metricsUrl)).ok ? true : undefined));
  });

  afterAll(async () => {
    await sdk.shutdown();
    metrics.disable();
    resetMetricsForTests();
  });

  it('times REST requests by route pattern and status, never by raw URL', async () => {
    const middleware = restMetrics();
    const server: Server = createServer((req, res) =>
      middleware(req, res, () => {
        if (req.url?.startsWith('/rooms/')) (req as typeof req & { route: { path: string } }).route = { path: '/rooms/:slug' };
        res.statusCode = req.url === '/rooms/missing' ? 404 : 200;
        res.end();
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await fetch(`${base}/rooms/lounge`);
    await fetch(`${base}/rooms/missing`);
    await fetch(`${base}/nowhere`);
    server.close();

    const text = await scrape();
    expect(text).toMatch(/spinroom_rest_request_duration_seconds_count\{[^}]*method="GET",route="\/rooms\/:slug",status="200"[^}]*\} 1/);
    expect(text).toMatch(/spinroom_rest_request_duration_seconds_count\{[^}]*route="\/rooms\/:slug",status="404"[^}]*\} 1/);
    expect(text).toMatch(/spinroom_rest_request_duration_seconds_count\{[^}]*route="unmatched"[^}]*\} 1/);
    expect(text).toMatch(/spinroom_rest_request_duration_seconds_bucket\{[^}]*le="0.005"/);
    expect(text).toContain('service_name="metrics-test"');
    expect(text).not.toContain('lounge');
  });

  it('times gRPC calls by method and status code', async () => {
    const unary = createUnaryFactory({ verifier: () => undefined, logger });
    const server: RunningGrpcServer = await startGrpcServer({
      port: 0,
      logger,
      descriptorSetPath,
      services: [
        {
          name: 'spinroom.user.v1.UserService',
          definition: UserServiceService,
          implementation: {
            getPublicKey: unary.public(async () => ({ publicKeyPem: 'pem', keyId: '', keys: [] })),
            getProfile: unary.public(async () => {
              throw notFound('No such user');
            }),
          },
        },
      ],
    });
    const client = createGrpcClient(UserServiceClient, `127.0.0.1:${server.port}`);
    await client.getPublicKey({});
    await client.getPublicKey({});
    await expect(client.getProfile({ userUuid: randomUUID() })).rejects.toMatchObject({ status: 404 });
    client.close();
    await server.shutdown(1_000);

    const text = await scrape();
    expect(text).toMatch(
      /spinroom_rpc_server_duration_seconds_count\{[^}]*rpc="\/spinroom.user.v1.UserService\/GetPublicKey",code="OK"[^}]*\} 2/,
    );
    expect(text).toMatch(
      /spinroom_rpc_server_duration_seconds_count\{[^}]*rpc="\/spinroom.user.v1.UserService\/GetProfile",code="NOT_FOUND"[^}]*\} 1/,
    );
  });

  it('times consumed Kafka events by topic, group and outcome', async () => {
    const databaseUrl = uniqueDatabaseUrl('platform_metrics');
    await ensureDatabase(databaseUrl);
    const orm: MikroORM = await createOrm({
      databaseUrl,
      entities: [OutboxMessage],
      migrations: [{ name: 'processed', class: CreateProcessedEvents }],
    });
    await migrate(orm);
    const kafka = new KafkaClient({ brokers: testInfra().kafkaBrokers, clientId: 'metrics-test', logger });
    const topic = `test-metrics-${randomUUID().slice(0, 8)}`;
    await kafka.ensureTopics([{ topic, partitions: 1 }]);
    const producer = await kafka.producer();
    const group = `metrics-${randomUUID().slice(0, 8)}`;
    const consumer = await startIdempotentConsumer({
      kafka,
      orm,
      groupId: group,
      topics: [topic],
      deadLetters: producer,
      logger,
      handle: async () => {},
    });
    try {
      const eventId = randomUUID();
      const event = { topic, key: 'k', value: Buffer.from('v'), headers: { 'event-id': eventId, 'event-type': 'test.metric' } };
      await producer.send([event, event]); // delivered twice: handled once, then seen as a duplicate
      const text = await eventually(async () => {
        const scraped = await scrape();
        return scraped.includes('outcome="duplicate"') ? scraped : undefined;
      }, 30_000);
      expect(text).toMatch(
        new RegExp(`spinroom_kafka_consume_duration_seconds_count\\{[^}]*topic="${topic}",group="${group}",outcome="processed"[^}]*\\} 1`),
      );
      expect(text).toMatch(
        new RegExp(`spinroom_kafka_consume_duration_seconds_count\\{[^}]*topic="${topic}",group="${group}",outcome="duplicate"[^}]*\\} 1`),
      );
    } finally {
      await consumer.stop();
      await producer.disconnect();
      await orm.close();
      await dropDatabase(databaseUrl);
    }
  });

  it("counts the room feed's connections, messages and delivery latency from a frame's sentAt", async () => {
    const json = `{"context":"user","room":"r","from":"server","sentAt":${Date.now() - 40},"messageId":3,"message":{"name":"votedOnSong"}}`;
    expect(frameSentAt(json)).toBeGreaterThan(0);
    expect(frameSentAt('{"context":"response","messageId":1}')).toBeUndefined();
    feedMetrics.connected();
    feedMetrics.connected();
    feedMetrics.disconnected();
    feedMetrics.received();
    feedMetrics.delivered(250, frameSentAt(json));
    feedMetrics.delivered(3, undefined);

    const text = await scrape();
    expect(text).toMatch(/spinroom_feed_connections\{[^}]*\} 1/);
    expect(text).toMatch(/spinroom_feed_messages_total\{[^}]*direction="out"[^}]*\} 253/);
    expect(text).toMatch(/spinroom_feed_messages_total\{[^}]*direction="in"[^}]*\} 1/);
    expect(text).toMatch(/spinroom_feed_delivery_latency_seconds_count\{[^}]*\} 1/);
    expect(text).toMatch(/spinroom_feed_delivery_latency_seconds_bucket\{[^}]*le="0.025"[^}]*\} 0/);
    expect(text).toMatch(/spinroom_feed_delivery_latency_seconds_bucket\{[^}]*le="0.05"[^}]*\} 1/);
  });
});
