import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenIssuer, TokenVerifier } from '../src/auth.js';
import { createRedis, type Redis } from '../src/redis.js';
import { SESSION_CHECK_CACHE_MS, SESSIONS_ENDED_CHANNEL, SessionRevocations, sessionsValidAfterKey } from '../src/sessions.js';
import { isolatedRedisUrl, testInfra } from '../src/testing/index.js';

describe('ended sessions, checked with one cached Redis read', () => {
  let url: string;
  let redis: Redis;
  let issuer: TokenIssuer;
  beforeAll(async () => {
    url = await isolatedRedisUrl();
    redis = createRedis(url);
    issuer = await TokenIssuer.fromPem(testInfra().signingKeyPem, { issuer: 'spinroom', ttlSeconds: 60 });
  });
  afterAll(() => redis.disconnect());

  /** Commands Redis served on the user's "valid after" key while `work` ran (MONITOR). */
  const readsDuring = async (userUuid: string, work: () => Promise<unknown>) => {
    const monitor = await createRedis(url).monitor();
    const seen: string[] = [];
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args.includes(sessionsValidAfterKey(userUuid))) seen.push(String(args[0]).toLowerCase());
    });
    await work();
    await redis.ping(); // MONITOR reports in order: our commands are in once this answer is back
    await new Promise((resolve) => setTimeout(resolve, 50));
    monitor.disconnect();
    return seen;
  };

  it('refuses tokens issued before the end, accepts those after, and reads Redis at most once per user per cache period', async () => {
    const revocations = new SessionRevocations(redis);
    const verifier = await TokenVerifier.fromPem(issuer.publicKeyPem, { issuer: 'spinroom', sessions: revocations });
    const sub = randomUUID();
    const before = await issuer.sign({ sub, role: 'user', capabilities: [] });
    // Fifty checks at once, then fifty one after another: one read between them.
    const reads = await readsDuring(sub, async () => {
      await Promise.all(Array.from({ length: 50 }, () => verifier.verify(before)));
      for (let i = 0; i < 50; i += 1) await verifier.verify(before);
    });
    expect(reads).toEqual(['get']);

    // Another process ends the sessions: this one learns it within the cache period.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await new SessionRevocations(redis).endSessions(sub, 60);
    await new Promise((resolve) => setTimeout(resolve, SESSION_CHECK_CACHE_MS + 20));
    await expect(verifier.verify(before)).rejects.toMatchObject({ status: 401 });
    const after = await issuer.sign({ sub, role: 'user', capabilities: [] });
    await expect(verifier.verify(after)).resolves.toMatchObject({ userUuid: sub });
    expect(await revocations.validAfterMs(randomUUID())).toBe(0);
  });

  it('announces an end on its channel, and a process that learns it refuses at once', async () => {
    const subscriber = createRedis(url);
    const heard: string[] = [];
    subscriber.on('message', (_channel: string, message: string) => heard.push(message));
    await subscriber.subscribe(SESSIONS_ENDED_CHANNEL);
    const ender = new SessionRevocations(redis);
    const listener = new SessionRevocations(redis);
    const verifier = await TokenVerifier.fromPem(issuer.publicKeyPem, { issuer: 'spinroom', sessions: listener });
    const sub = randomUUID();
    const token = await issuer.sign({ sub, role: 'user', capabilities: [] });
    await verifier.verify(token); // cached as current
    await new Promise((resolve) => setTimeout(resolve, 5));
    const ended = await ender.endSessions(sub, 60);
    expect(await redis.ttl(sessionsValidAfterKey(sub))).toBeGreaterThan(50);
    await expect(verifier.verify(token)).resolves.toMatchObject({ userUuid: sub }); // still cached here
    listener.learn(ended);
    await expect(verifier.verify(token)).rejects.toMatchObject({ status: 401 });
    for (let i = 0; i < 50 && heard.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(heard.map((m) => JSON.parse(m))).toContainEqual({ userUuid: sub, validAfterMs: ended.validAfterMs });
    subscriber.disconnect();
  });

  it('answers a caller at once only when both the token and its session check are remembered (verifiedNow)', async () => {
    const revocations = new SessionRevocations(redis, { cacheMs: 200 });
    const verifier = await TokenVerifier.fromPem(issuer.publicKeyPem, { issuer: 'spinroom', sessions: revocations });
    const sub = randomUUID();
    const token = await issuer.sign({ sub, role: 'user', capabilities: [] });
    expect(verifier.verifiedNow(token), 'never verified').toBeUndefined();
    await verifier.verify(token);
    expect(verifier.verifiedNow(token)).toMatchObject({ userUuid: sub });
    expect(verifier.verifiedNow(`${token}x`), 'another token').toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(verifier.verifiedNow(token), 'the session check is stale').toBeUndefined();
    await verifier.verify(token);
    expect(verifier.verifiedNow(token)).toMatchObject({ userUuid: sub });
    await new Promise((resolve) => setTimeout(resolve, 5));
    revocations.learn(await new SessionRevocations(redis).endSessions(sub, 60));
    expect(verifier.verifiedNow(token), 'the session ended').toBeUndefined();
    await expect(verifier.verify(token)).rejects.toMatchObject({ status: 401 });
  });

  it('does not check service tokens', async () => {
    const verifier = await TokenVerifier.fromPem(issuer.publicKeyPem, { issuer: 'spinroom', sessions: new SessionRevocations(redis) });
    const token = await issuer.sign({ sub: 'service:room', role: 'service', capabilities: [] });
    expect(await readsDuring('service:room', () => verifier.verify(token))).toEqual([]);
  });
});
