import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException, type MikroORM } from '@mikro-orm/postgresql';
import type { createRedis } from '@spinroom/platform';
import type { InferEntity } from '@mikro-orm/postgresql';
import {
  PasskeyTakenError,
  type Ceremony,
  type ChallengeStore,
  type NewPasskey,
  type Passkey,
  type PasskeyStore,
} from '../domain/passkeys/passkeys.js';
import { UserPasskeyEntity } from './passkeys-entities.js';

type Row = InferEntity<typeof UserPasskeyEntity>;

function toPasskey(row: Row): Passkey {
  return {
    id: row.id,
    userUuid: row.userUuid,
    credentialId: row.credentialId,
    publicKey: new Uint8Array(row.publicKey),
    counter: row.counter,
    transports: row.transports,
    name: row.name,
    backedUp: row.backedUp,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt ?? null,
  };
}

/** Passkeys in PostgreSQL (`user_passkey`). */
export class PgPasskeyStore implements PasskeyStore {
  constructor(private readonly orm: MikroORM) {}

  async add(passkey: NewPasskey): Promise<Passkey> {
    const em = this.orm.em.fork();
    const row = em.create(UserPasskeyEntity, { ...passkey, id: randomUUID(), publicKey: Buffer.from(passkey.publicKey), lastUsedAt: null });
    try {
      await em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new PasskeyTakenError();
      throw error;
    }
    return toPasskey(row);
  }

  async listOf(userUuid: string): Promise<Passkey[]> {
    const rows = await this.orm.em.fork().find(UserPasskeyEntity, { userUuid }, { orderBy: { createdAt: 'desc', id: 'asc' } });
    return rows.map(toPasskey);
  }

  async findByCredentialId(credentialId: string): Promise<Passkey | null> {
    const row = await this.orm.em.fork().findOne(UserPasskeyEntity, { credentialId });
    return row ? toPasskey(row) : null;
  }

  async recordUse(id: string, seenCounter: number, newCounter: number, at: Date): Promise<boolean> {
    // Conditional on the counter read before verifying: of two sign-ins racing with one signature, one wins.
    const updated = await this.orm.em
      .fork()
      .nativeUpdate(UserPasskeyEntity, { id, counter: seenCounter }, { counter: newCounter, lastUsedAt: at });
    return updated === 1;
  }

  async delete(userUuid: string, id: string): Promise<boolean> {
    return (await this.orm.em.fork().nativeDelete(UserPasskeyEntity, { id, userUuid })) === 1;
  }
}

/** Challenges in Redis, each under its own key with its expiry; GETDEL makes the first answer the only one. */
export class RedisChallengeStore implements ChallengeStore {
  constructor(private readonly redis: ReturnType<typeof createRedis>) {}

  async put(challenge: string, ceremony: Ceremony, ttlSeconds: number): Promise<void> {
    await this.redis.set(`passkeys:challenge:${challenge}`, JSON.stringify(ceremony), 'EX', ttlSeconds);
  }

  async take(challenge: string): Promise<Ceremony | null> {
    const stored = await this.redis.getdel(`passkeys:challenge:${challenge}`);
    return stored ? (JSON.parse(stored) as Ceremony) : null;
  }
}
