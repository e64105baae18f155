import { randomUUID } from 'node:crypto';
import { UserSignedUp } from '@spinroom/contracts/events/v1/user_events';
import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { createGrpcClient, createLogger, dropDatabase, headersToRecord, KafkaClient } from '@spinroom/platform';
import pg from 'pg';
import { eventually, testInfra } from '@spinroom/platform/testing';
import type { Consumer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshEmail, userServiceOnFreshDatabase } from '../support/platform.js';

interface Seen {
  key: string;
  headers: Record<string, string>;
  event: UserSignedUp;
}

/** Reads `user-events` from the start with a group of its own, as another service would. */
async function watchUserEvents(seen: Seen[]): Promise<Consumer> {
  const kafka = new KafkaClient({ brokers: testInfra().kafkaBrokers, clientId: 'e2e', logger: createLogger('e2e', { level: 'silent' }) });
  const consumer = kafka.consumer(`e2e-${randomUUID()}`);
  await consumer.connect();
  await consumer.subscribe({ topic: 'user-events', fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      seen.push({ key: message.key!.toString(), headers: headersToRecord(message.headers), event: UserSignedUp.decode(message.value!) });
    },
  });
  return consumer;
}

describe('user.signed-up on Kafka', () => {
  const seen: Seen[] = [];
  let consumer: Consumer;

  beforeAll(async () => {
    consumer = await watchUserEvents(seen);
  });
  afterAll(async () => {
    await consumer.disconnect();
  });

  it('announces a sign-up on user-events, keyed by the user, with its type and id', async () => {
    const service = userServiceOnFreshDatabase();
    const running = await service.start();
    const users = createGrpcClient(UserServiceClient, `127.0.0.1:${running.port}`);
    try {
      const email = freshEmail();
      const { grant } = await users.signUp({ email, password: 'correct horse battery', nickname: 'Ana' });
      const message = await eventually(async () => seen.find((s) => s.key === grant!.userUuid), 20_000);
      expect(message.headers['event-type']).toBe('user.signed-up');
      expect(message.event).toMatchObject({
        metadata: { eventId: message.headers['event-id'], eventType: 'user.signed-up', occurredAt: expect.any(Date) },
        userUuid: grant!.userUuid,
        email,
        nickname: 'Ana',
        kind: 'user',
      });
    } finally {
      users.close();
      await running.stop();
      await dropDatabase(service.databaseUrl);
    }
  });

  it('delivers the event exactly once when the service stops between the commit and the relay', async () => {
    const service = userServiceOnFreshDatabase();
    // First life: commits the sign-up with its outbox row, but never relays.
    const first = await service.start({ relay: false });
    const firstClient = createGrpcClient(UserServiceClient, `127.0.0.1:${first.port}`);
    const { grant } = await firstClient.signUp({ email: freshEmail(), password: 'correct horse battery' });
    firstClient.close();
    await first.stop();

    const db = new pg.Client({ connectionString: service.databaseUrl });
    await db.connect();
    const pending = await db.query(`select count(*)::int as n from "outbox_message" where "published_at" is null`);
    await db.end();
    expect(pending.rows[0].n).toBe(1);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(seen.filter((s) => s.key === grant!.userUuid)).toHaveLength(0);

    // Second life: the relay finds the committed row and publishes it.
    const second = await service.start();
    try {
      await eventually(async () => seen.find((s) => s.key === grant!.userUuid), 20_000);
      // Give a duplicate every chance to show up.
      await new Promise((r) => setTimeout(r, 2_000));
      expect(seen.filter((s) => s.key === grant!.userUuid)).toHaveLength(1);
    } finally {
      await second.stop();
      await dropDatabase(service.databaseUrl);
    }
  });
});
