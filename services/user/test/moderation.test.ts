import {
  createOrm,
  createRedis,
  dropDatabase,
  ensureDatabase,
  migrate,
  OutboxMessage,
  SessionRevocations,
  type MikroORM,
} from '@spinroom/platform';
import { isolatedRedisUrl, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import { ModerationCommentEntity, VoucherEntity } from '../src/db/moderation-entities.js';
import { PgModerationStore } from '../src/db/moderation-store.js';
import { PgSessionEndingStore } from '../src/db/session-ending-store.js';
import { UserEntity } from '../src/db/user-entity.js';
import { PgUserStore } from '../src/db/user-store.js';
import { Moderation } from '../src/domain/moderation/moderation.js';
import { accessRefusal, isBanned, outranks } from '../src/domain/moderation/standing.js';
import { Sessions } from '../src/domain/sessions.js';
import { moderationAction } from '../src/events/moderation-actions.js';
import { userSignedUp } from '../src/events/user-events.js';

describe('account standing', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const later = new Date('2026-11-23T13:00:00Z');

  it('ends a temporary ban by itself and keeps a permanent one', () => {
    expect(isBanned({ bannedAt: now, bannedUntil: later }, now)).toBe(true);
    expect(isBanned({ bannedAt: now, bannedUntil: later }, later)).toBe(false);
    expect(isBanned({ bannedAt: now, bannedUntil: null }, new Date('2099-01-01'))).toBe(true);
    expect(isBanned({}, now)).toBe(false);
  });

  it('refuses a way in to banned and deactivated accounts, saying why', () => {
    expect(accessRefusal({ bannedAt: now }, now)).toBe('This account is banned');
    expect(accessRefusal({ bannedAt: now, bannedUntil: later }, now)).toBe('This account is banned until 2026-11-23T13:00:00.000Z');
    expect(accessRefusal({ bannedAt: now, bannedUntil: later }, later)).toBeNull();
    // Rows read as text (the session and profile reads) count the same.
    expect(accessRefusal({ deactivatedAt: '2026-11-23 12:00:00+00' }, now)).toBe('This account is deactivated');
  });

  it('ranks staff roles, every other role below them', () => {
    expect(outranks('moderator', 'user')).toBe(true);
    expect(outranks('moderator', 'staff')).toBe(true);
    expect(outranks('moderator', 'moderator')).toBe(false);
    expect(outranks('moderator', 'globalModerator')).toBe(false);
    expect(outranks('admin', 'globalModerator')).toBe(true);
    expect(outranks('user', 'bot')).toBe(false);
  });
});

describe('moderation on PostgreSQL', () => {
  const databaseUrl = uniqueDatabaseUrl('user_moderation');
  let orm: MikroORM;
  let redis: Redis;
  let revocations: SessionRevocations;
  let users: PgUserStore;
  let moderation: Moderation;
  const moderator = { userUuid: crypto.randomUUID(), role: 'moderator' as const };

  beforeAll(async () => {
    await ensureDatabase(databaseUrl);
    orm = await createOrm({ databaseUrl, entities: [UserEntity, VoucherEntity, ModerationCommentEntity, OutboxMessage], migrations });
    await migrate(orm);
    redis = createRedis(await isolatedRedisUrl());
    revocations = new SessionRevocations(redis, { cacheMs: 0 });
    users = new PgUserStore(orm);
    moderation = new Moderation(
      new PgModerationStore(orm),
      moderationAction,
      new Sessions(revocations, 3600, new PgSessionEndingStore(orm)).endSessions,
    );
  });

  afterAll(async () => {
    redis.disconnect();
    await orm.close();
    await dropDatabase(databaseUrl);
  });

  const account = (email: string) =>
    users.createAccount({ kind: 'user', email, passwordHash: 'x', nickname: 'someone', roles: ['user'] }, userSignedUp);
  const events = async (key: string) =>
    orm.em
      .fork()
      .execute<{ event_type: string }[]>(`select "event_type" from "outbox_message" where "key" = ? and "event_type" <> 'user.signed-up'`, [
        key,
      ]);

  it('bans with its event in the same transaction and ends the sessions issued before', async () => {
    const user = await account('banned@example.com');
    const issuedBefore = Date.now() - 1;
    expect(await revocations.isCurrent(user.uuid, issuedBefore)).toBe(true);
    const banned = await moderation.ban(moderator, user.uuid);
    expect(banned.bannedAt).toBeInstanceOf(Date);
    expect(await events(user.uuid)).toEqual([{ event_type: 'moderation.action' }]);
    expect(await revocations.isCurrent(user.uuid, issuedBefore)).toBe(false);
  });

  it('changes nothing and stages nothing when the act is refused', async () => {
    const admin = await account('admin-target@example.com');
    await users.addRole(admin.uuid, 'admin');
    await expect(moderation.ban(moderator, admin.uuid)).rejects.toMatchObject({ status: 403 });
    expect(await events(admin.uuid)).toEqual([]);
    expect((await new PgModerationStore(orm).findAccount(admin.uuid))?.bannedAt).toBeNull();
  });

  it('lets one of two simultaneous grants of a capability through, the other told the spec message', async () => {
    const user = await account('capable@example.com');
    const attempts = await Promise.allSettled([
      moderation.grantCapability(moderator, user.uuid, 'promoteRoom'),
      moderation.grantCapability(moderator, user.uuid, 'promoteRoom'),
    ]);
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    expect(attempts.find((a) => a.status === 'rejected')).toMatchObject({
      reason: { status: 403, messages: 'This user has already this role' },
    });
    expect((await users.findByUuid(user.uuid))?.capabilities).toEqual(['promoteRoom']);
  });

  it('keeps a ban through a profile save that read the account before it', async () => {
    const user = await account('racer@example.com');
    const stale = (await users.findByUuid(user.uuid))!;
    await moderation.ban(moderator, user.uuid);
    await users.saveProfile({ ...stale, nickname: 'renamed' });
    const after = (await users.findByEmail('racer@example.com'))!;
    expect(after.nickname).toBe('renamed');
    expect(after.bannedAt).toBeInstanceOf(Date);
  });
});
