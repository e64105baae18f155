import { createRedis } from '@spinroom/platform';
import { eventually } from '@spinroom/platform/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, usePlatform } from '../support/platform.js';

type Json = any;
const ROOMS = '/api/room-service';

// The profiles a live room shows come from the room service's cache, filled at
// an account's creation and kept fresh by the user service's events (no call
// to the user service when the profile is cached): a profile changed after a
// first join shows changed at the next, without waiting for the cache to expire.
describe('profiles in live rooms', () => {
  const { call, platform } = usePlatform();
  const open: FeedListener[] = [];
  afterEach(() => {
    for (const listener of open.splice(0)) listener.close();
  });

  const person = async (nickname: string) => {
    const body = (
      await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery', nickname } })
    ).body;
    return { token: body.accessToken as string, uuid: body.userUuid as string };
  };
  const join = async (who: { token: string; uuid: string }, roomUuid: string) => {
    const listener = await FeedListener.join(platform().bffUrls[0]!, who.token, who.uuid, roomUuid);
    open.push(listener);
    return listener;
  };

  it("caches a new account's and a new guest's profile at their creation, before any join asks the user service", async () => {
    const redis = createRedis(platform().chat.redisUrl);
    try {
      const dana = await person('Dana');
      const guest = (await call('GET', '/api/user-service/auth/guest')).body;
      const cached = async (uuid: string) => JSON.parse((await redis.get(`room:profile:${uuid}`)) ?? 'null');
      // Nothing joined: only the user service's events can have put them there.
      expect(await eventually(async () => (await cached(dana.uuid)) ?? undefined)).toMatchObject({ uuid: dana.uuid, nickname: 'Dana' });
      expect(await eventually(async () => (await cached(guest.userUuid)) ?? undefined)).toMatchObject({
        uuid: guest.userUuid,
        nickname: expect.stringMatching(/^ghost-\d+$/),
        avatarId: 'ghost',
      });
    } finally {
      redis.disconnect();
    }
  });

  it('shows a profile as changed since the last join: the change reaches the room service as an event', async () => {
    const owner = await person('Owner');
    const carol = await person('Carol');
    const created = await call('POST', `${ROOMS}/rooms/infrastructure`, { token: owner.token, body: { name: 'Profiles live' } });
    expect(created.status).toBe(201);
    const roomUuid = created.body.uuid as string;
    const watcher = await join(owner, roomUuid);

    // First join: Carol's profile as she signed up (cached from then on).
    const first = await join(carol, roomUuid);
    await watcher.until((s) => s.allUserData[carol.uuid]?.userProfile?.nickname === 'Carol', 'Carol in the room');
    first.close();
    await watcher.until((s) => !s.allUserData[carol.uuid], 'Carol gone');

    // She changes her nickname and colour, then joins again (the event may take a moment to arrive).
    const changed = await call('POST', '/api/user-service/users/profile', {
      token: carol.token,
      body: { nickname: 'Caroline', color: '#123456' },
    });
    expect([200, 201]).toContain(changed.status);
    let seen: Json;
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const again = await join(carol, roomUuid);
      seen = (await watcher.until((s) => s.allUserData[carol.uuid], 'Carol back')).allUserData[carol.uuid].userProfile;
      if (seen.nickname === 'Caroline') break;
      again.close();
      await watcher.until((s) => !s.allUserData[carol.uuid], 'Carol gone again');
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(seen).toMatchObject({ uuid: carol.uuid, nickname: 'Caroline', color: '#123456' });
  });
});
