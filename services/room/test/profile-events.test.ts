import { randomUUID } from 'node:crypto';
import { UserProfileUpdated, UserSignedUp } from '@spinroom/contracts/events/v1/user_events';
import { UserKind, type UserProfile, type UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { createRedis, type Caller, type PromiseClient, type ReceivedEvent, type Redis } from '@spinroom/platform';
import { isolatedRedisUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userEventsHandler } from '../src/events/user-events.js';
import { CachedProfiles } from '../src/live-rooms/adapters.js';

// The live rooms' profiles are cached as the user service announces them: an account's profile as created
// (`user.signed-up`, or a guest's `user.profile-updated`), so a first join asks the user service nothing.
describe("live rooms' profiles from the user service's events", () => {
  let redis: Redis;
  let profiles: CachedProfiles;
  let asked = 0;
  beforeAll(async () => {
    redis = createRedis(await isolatedRedisUrl());
    const users = {
      getOwnProfile: async () => {
        asked += 1;
        throw new Error('the user service was asked');
      },
    } as unknown as PromiseClient<UserServiceClient>;
    profiles = new CachedProfiles(redis, users);
  });
  afterAll(() => redis?.disconnect());

  const profile = (uuid: string, kind: UserKind, nickname: string): UserProfile => ({
    id: 7,
    uuid,
    color: '#123456',
    avatarId: 'bot-1',
    badges: [],
    createdAt: new Date('2026-01-02T03:04:05Z'),
    nickname,
    displayPronouns: false,
    kind,
  });
  const event = (eventType: string, value: Uint8Array): ReceivedEvent => ({
    topic: 'user-events',
    partition: 0,
    offset: '0',
    eventId: randomUUID(),
    eventType,
    key: randomUUID(),
    value: Buffer.from(value),
    headers: {},
  });
  const caller = (userUuid: string, kind: Caller['kind']): Caller => ({
    userUuid,
    role: kind === 'guest' ? 'guest' : 'user',
    kind,
    capabilities: [],
    token: 'unused',
  });

  it('caches a new account and a new guest from their creation events, then asks the user service nothing at a first join', async () => {
    const handle = userEventsHandler(profiles);
    const [ana, guest] = [randomUUID(), randomUUID()];
    const metadata = { eventId: randomUUID(), eventType: 'user.signed-up', occurredAt: new Date() };
    await handle(
      event(
        'user.signed-up',
        UserSignedUp.encode({
          metadata,
          userUuid: ana,
          email: 'ana@example.com',
          nickname: 'Ana',
          kind: 'user',
          profile: profile(ana, UserKind.USER_KIND_USER, 'Ana'),
        }).finish(),
      ),
    );
    await handle(
      event(
        'user.profile-updated',
        UserProfileUpdated.encode({
          metadata: { ...metadata, eventType: 'user.profile-updated' },
          userUuid: guest,
          profile: profile(guest, UserKind.USER_KIND_GUEST, 'ghost-12'),
        }).finish(),
      ),
    );

    expect(await profiles.of(caller(ana, 'user'))).toMatchObject({ uuid: ana, nickname: 'Ana', color: '#123456', avatarId: 'bot-1' });
    expect(await profiles.of(caller(guest, 'guest'))).toEqual({ uuid: guest, nickname: 'ghost-12', avatarId: 'bot-1', color: '#123456' });
    expect(asked).toBe(0);
    // An account the events have not announced still goes to the user service (the fallback).
    await expect(profiles.of(caller(randomUUID(), 'user'))).rejects.toThrow('the user service was asked');
    expect(asked).toBe(1);
  });

  it('ignores a sign-up without a profile (an event written before it carried one)', async () => {
    const bob = randomUUID();
    const metadata = { eventId: randomUUID(), eventType: 'user.signed-up', occurredAt: new Date() };
    await userEventsHandler(profiles)(
      event('user.signed-up', UserSignedUp.encode({ metadata, userUuid: bob, email: '', nickname: 'Bob', kind: 'user' }).finish()),
    );
    expect(await redis.exists(`room:profile:${bob}`)).toBe(0);
  });
});
