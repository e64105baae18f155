import { createPrivateKey, createPublicKey } from 'node:crypto';
import { PlaylistServiceClient } from '@spinroom/contracts/playlist/v1/playlist_service';
import {
  createGrpcClient,
  createRedis,
  generateSigningKeyPem,
  SessionRevocations,
  TokenIssuer,
  type Redis,
  type SessionsEnded,
} from '@spinroom/platform';
import { testInfra } from '@spinroom/platform/testing';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sessions } from '../../services/user/src/domain/sessions.js';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';

type Json = any;

/** A raw WebSocket to the feed: its opening, and its closing (with when it closed). */
async function feedSocket(url: string) {
  const { WebSocket } = await import('ws');
  const ws = new WebSocket(url);
  const closed = new Promise<number>((resolve) => ws.once('close', () => resolve(Date.now())));
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
  return { ws, opened, closed };
}

/** Milliseconds from `since` until `refused()` holds, polling; fails past two seconds. */
async function refusedAfter(since: number, refused: () => Promise<boolean>): Promise<number> {
  while (Date.now() - since < 2_000) {
    if (await refused()) return Date.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('still accepted two seconds after the sessions ended');
}

const claimsOf = (token: string): Json => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());

describe('sessions that end: logout and endSessions refuse earlier tokens everywhere within a second', () => {
  const { call, platform } = usePlatform();
  let redis: Redis;
  beforeAll(() => {
    redis = createRedis(platform().chat.redisUrl);
  });
  afterAll(() => redis.disconnect());

  const signUp = async () => {
    const email = freshEmail();
    const { body } = await call('POST', '/api/user-service/users/sign-up', { body: { email, password: 'correct horse battery' } });
    const chatToken = (await call('GET', '/api/user-service/comet-chat/user-token', { token: body.accessToken })).body
      .cometAuthToken as string;
    return { email, uuid: body.userUuid as string, token: body.accessToken as string, chatToken };
  };
  const feedUrl = (token: string) => `${platform().baseUrl.replace('http', 'ws')}/primus?_primuscb=x&token=${token}`;
  const chatMe = (chatToken: string) => call('GET', '/chat/v3.0/me', { headers: { appid: 'spinroom', authtoken: chatToken } });

  /** Every place a token is checked, and whether it refuses `who`'s tokens now. */
  const everywhere = (who: { token: string; chatToken: string }) => {
    const playlists = createGrpcClient(PlaylistServiceClient, platform().grpc.playlist);
    return {
      bff: async () => (await call('GET', '/api/user-service/auth/session', { token: who.token })).status === 401,
      playlistService: () =>
        playlists.listOwnCrates({ limit: 5, offset: 0 }, { token: who.token }).then(
          () => false,
          (error: { status?: number }) => error.status === 401,
        ),
      chatApi: async () => (await chatMe(who.chatToken)).status === 401,
      close: () => playlists.close(),
    };
  };

  const expectAllRefusedWithinASecond = async (who: { token: string; chatToken: string }, end: () => Promise<void>) => {
    const places = everywhere(who);
    const socket = await feedSocket(feedUrl(who.token));
    await socket.opened;
    expect(await places.bff()).toBe(false);
    expect(await places.playlistService()).toBe(false);
    expect(await places.chatApi()).toBe(false);
    await end();
    const ended = Date.now();
    const delays = await Promise.all([
      refusedAfter(ended, places.bff),
      refusedAfter(ended, places.playlistService),
      refusedAfter(ended, places.chatApi),
      Promise.race([socket.closed, new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), 2_000))]).then(
        (at) => at - ended,
      ),
    ]);
    places.close();
    for (const delay of delays) expect(delay).toBeLessThanOrEqual(1_000);
    // The feed socket is closed, and reconnecting with the same token is refused.
    await expect((await feedSocket(feedUrl(who.token))).opened).rejects.toThrow('HTTP 401');
  };

  it('tokens carry aud and jti, and a token for another audience is refused', async () => {
    const me = await signUp();
    const claims = claimsOf(me.token);
    expect(claims).toMatchObject({ aud: 'spinroom-api', sub: me.uuid, iss: 'spinroom' });
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(claimsOf(me.chatToken)).toMatchObject({ aud: 'spinroom-chat', use: 'chat' });
    expect(claimsOf((await signUp()).token).jti).not.toBe(claims.jti);
    const key = createPrivateKey(testInfra().signingKeyPem);
    const issuer = await TokenIssuer.fromPem(testInfra().signingKeyPem, { issuer: 'spinroom', ttlSeconds: 60 });
    const otherAudience = await new SignJWT({ role: 'user', capabilities: [] })
      .setProtectedHeader({ alg: 'RS256', kid: issuer.keyId })
      .setSubject(me.uuid)
      .setIssuer('spinroom')
      .setAudience('another-api')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    expect((await call('GET', '/api/user-service/auth/session', { token: otherAudience })).status).toBe(401);
    expect((await call('GET', '/api/user-service/auth/session', { token: me.token })).status).toBe(200);
  });

  it("logout ends the caller's sessions on BFF REST, a gRPC service, the feed and the chat API; a new sign-in works", async () => {
    const me = await signUp();
    const other = await signUp();
    await expectAllRefusedWithinASecond(me, async () => {
      const out = await call('POST', '/api/user-service/auth/logout', { token: me.token });
      expect(out).toMatchObject({ status: 200, body: {} });
    });
    // Someone else's sessions stand.
    expect((await call('GET', '/api/user-service/auth/session', { token: other.token })).status).toBe(200);
    const again = await call('POST', '/api/user-service/auth/login', { body: { email: me.email, password: 'correct horse battery' } });
    expect(again.status).toBe(200);
    expect((await call('GET', '/api/user-service/auth/session', { token: again.body.accessToken })).body).toMatchObject({
      userUuid: me.uuid,
      kind: 'user',
    });
    expect((await call('POST', '/api/user-service/auth/logout')).status).toBe(401);
  });

  it('endSessions (what a password change, a ban or a deactivation call) refuses the tokens issued before it', async () => {
    const me = await signUp();
    // Its record of ends kept in memory here: the test is about what the verifiers refuse (sessions-kept covers the record).
    const kept: SessionsEnded[] = [];
    const sessions = new Sessions(new SessionRevocations(redis), 3600, {
      record: async (ended) => void kept.push(ended),
      endedSince: async () => kept,
    });
    await expectAllRefusedWithinASecond(me, () => sessions.endSessions(me.uuid));
    // A token issued after the end stands.
    const after = await signedToken('user', me.uuid);
    expect((await call('GET', '/api/user-service/auth/session', { token: after })).status).toBe(200);
  });
});

describe('signing keys rotate without logging anyone out', () => {
  // The user service signs with a new key and still publishes the test platform's former one.
  const newKeyPem = generateSigningKeyPem();
  const formerPublicKeyPem = createPublicKey(testInfra().signingKeyPem).export({ type: 'spki', format: 'pem' }).toString();
  const { call, platform } = usePlatform({ user: { JWT_PRIVATE_KEY: newKeyPem, JWT_PREVIOUS_PUBLIC_KEYS: formerPublicKeyPem } });

  it('publishes the current key and every trusted key by kid, and accepts tokens of either', async () => {
    const current = await TokenIssuer.fromPem(newKeyPem, { issuer: 'spinroom', ttlSeconds: 60 });
    const former = await TokenIssuer.fromPem(testInfra().signingKeyPem, { issuer: 'spinroom', ttlSeconds: 60 });
    const published = await call('GET', '/api/user-service/auth/pub-key');
    expect(published.status).toBe(200);
    expect(published.body.publicKey).toBe(current.publicKeyPem);
    expect(published.body.keys).toEqual([
      { kid: current.keyId, publicKey: current.publicKeyPem },
      { kid: former.keyId, publicKey: former.publicKeyPem },
    ]);

    const { body } = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: freshEmail(), password: 'correct horse battery' },
    });
    const header = JSON.parse(Buffer.from(body.accessToken.split('.')[0], 'base64url').toString());
    expect(header.kid).toBe(current.keyId);
    // A token the former key signed before the rotation still opens the BFF and the services.
    const signedBefore = await former.sign({ sub: body.userUuid, role: 'user', capabilities: [] });
    expect((await call('GET', '/api/user-service/auth/session', { token: signedBefore })).body).toMatchObject({ userUuid: body.userUuid });
    const playlists = createGrpcClient(PlaylistServiceClient, platform().grpc.playlist);
    await expect(playlists.listOwnCrates({ limit: 5, offset: 0 }, { token: signedBefore })).resolves.toBeDefined();
    // A key nobody published opens nothing.
    const stranger = await TokenIssuer.fromPem(generateSigningKeyPem(), { issuer: 'spinroom', ttlSeconds: 60 });
    const forged = await stranger.sign({ sub: body.userUuid, role: 'user', capabilities: [] });
    expect((await call('GET', '/api/user-service/auth/session', { token: forged })).status).toBe(401);
    await expect(playlists.listOwnCrates({ limit: 5, offset: 0 }, { token: forged })).rejects.toMatchObject({ status: 401 });
    playlists.close();
  });
});

describe("bots: sign-up-bot and bot-token, as the original's bots use them", () => {
  const { call, platform } = usePlatform();
  const signUp = async (nickname: string) =>
    (
      await call('POST', '/api/user-service/users/sign-up', {
        body: { email: freshEmail(), password: 'correct horse battery', nickname },
      })
    ).body as { accessToken: string; userUuid: string };

  it('gives each user one bot, whose token has role bot and its own uuid, and which joins a room with ttfm-socket', async () => {
    const owner = await signUp('Bot Owner');
    expect((await call('GET', '/api/user-service/users/bot-token', { token: owner.accessToken })).body).toEqual({
      statusCode: 404,
      message: 'You have no bot yet',
      error: 'Not Found',
    });
    const created = await call('POST', '/api/user-service/users/sign-up-bot', {
      token: owner.accessToken,
      body: { botNickName: 'DJ Robot', avatarId: 'robot-1', color: 'a1b2c3' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const again = await call('POST', '/api/user-service/users/sign-up-bot', {
      token: owner.accessToken,
      body: { botNickName: 'Second', avatarId: 'robot-2', color: '#000000' },
    });
    expect(again).toMatchObject({ status: 403, body: { statusCode: 403, message: 'You already have a bot', error: 'Forbidden' } });

    const grant = await call('GET', '/api/user-service/users/bot-token', { token: owner.accessToken });
    expect(grant.status).toBe(200);
    expect(grant.body).toEqual({ accessToken: expect.any(String), codeSyncNewUser: '' });
    const botToken = grant.body.accessToken as string;
    expect(claimsOf(botToken)).toMatchObject({ sub: created.body.uuid, role: 'bot', aud: 'spinroom-api' });
    expect((await call('GET', '/api/user-service/auth/session', { token: botToken })).body).toEqual({
      userUuid: created.body.uuid,
      kind: 'bot',
      roles: ['bot'],
    });
    expect((await call('GET', '/api/user-service/users/profile', { token: botToken })).body).toMatchObject({
      uuid: created.body.uuid,
      nickname: 'DJ Robot',
      avatarId: 'robot-1',
      color: '#A1B2C3',
    });

    const room = await call('POST', '/api/room-service/rooms/infrastructure', {
      token: owner.accessToken,
      body: { name: `Bots welcome ${Math.random().toString(36).slice(2, 8)}` },
    });
    expect(room.status).toBe(201);
    const listener = await FeedListener.join(platform().baseUrl, botToken, created.body.uuid, room.body.uuid);
    try {
      await listener.until((state) => state.allUserData?.[created.body.uuid]?.userProfile?.nickname === 'DJ Robot', 'the bot in the room');
      expect(listener.state.allUsers.map((u: Json) => u.uuid)).toContain(created.body.uuid);
    } finally {
      listener.close();
    }
  });

  it('refuses bots to guests, to bots and to bad profiles', async () => {
    const guest = (await call('GET', '/api/user-service/auth/guest')).body.accessToken as string;
    const forGuest = await call('POST', '/api/user-service/users/sign-up-bot', {
      token: guest,
      body: { botNickName: 'Ghost bot', avatarId: 'robot-1', color: 'a1b2c3' },
    });
    expect(forGuest).toMatchObject({ status: 403, body: { message: 'Only signed-in users can have a bot' } });
    const owner = await signUp('Careful Owner');
    const badColor = await call('POST', '/api/user-service/users/sign-up-bot', {
      token: owner.accessToken,
      body: { botNickName: 'Bot', avatarId: 'robot-1', color: 'red' },
    });
    expect(badColor).toMatchObject({ status: 400, body: { message: 'Color must be a hex colour like #A1B2C3' } });
    expect(
      (
        await call('POST', '/api/user-service/users/sign-up-bot', {
          token: owner.accessToken,
          body: { avatarId: 'robot-1', color: 'a1b2c3' },
        })
      ).status,
    ).toBe(400);
    expect(
      (await call('POST', '/api/user-service/users/sign-up-bot', { body: { botNickName: 'B', avatarId: 'a', color: 'a1b2c3' } })).status,
    ).toBe(401);
    // Two attempts at once still make one bot.
    const attempts = await Promise.all(
      ['One', 'Two', 'Three'].map((name) =>
        call('POST', '/api/user-service/users/sign-up-bot', {
          token: owner.accessToken,
          body: { botNickName: name, avatarId: 'robot-1', color: 'a1b2c3' },
        }),
      ),
    );
    expect(attempts.map((a) => a.status).sort()).toEqual([201, 403, 403]);
    const botToken = (await call('GET', '/api/user-service/users/bot-token', { token: owner.accessToken })).body.accessToken as string;
    const byBot = await call('POST', '/api/user-service/users/sign-up-bot', {
      token: botToken,
      body: { botNickName: 'Bot of a bot', avatarId: 'robot-1', color: 'a1b2c3' },
    });
    expect(byBot).toMatchObject({ status: 403, body: { message: 'Only signed-in users can have a bot' } });
  });
});
