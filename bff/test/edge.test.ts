import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis } from '@spinroom/platform/core';
import { testInfra } from '@spinroom/platform/testing';
import { createApp } from '../src/app.js';
import { bffLimits } from '../src/http/limits.js';
import type { PlaylistClient } from '../src/routes/playlist/crates.js';
import type { RoomClient } from '../src/routes/room/clients.js';
import type { UploadClient } from '../src/routes/upload/clients.js';
import type { UserClients } from '../src/routes/user/clients.js';

// The edge alone, before the user service's key is known: nothing here may
// reach an upstream, so the client refuses every call.
const unreachable = new Proxy({}, { get: () => () => Promise.reject(new Error('no upstream in this test')) });

describe('BFF before the user service answers', () => {
  let baseUrl: string;
  let close: () => void;
  const redis = createRedis(testInfra().redisUrl);
  const untripped = { points: 1_000_000, durationSeconds: 3600, blockSeconds: 0 };

  beforeAll(async () => {
    const app = createApp({
      config: { CORS_ORIGINS: ['https://app.spinroom.example'], JSON_BODY_LIMIT: '1kb', WEB_DIR: undefined },
      upstreams: {
        user: { accounts: unreachable } as unknown as UserClients,
        playlist: unreachable as PlaylistClient,
        upload: unreachable as UploadClient,
        room: unreachable as RoomClient,
      },
      verifier: () => undefined,
      ready: async () => false,
      // Every suite calls from 127.0.0.1 into one Redis: limits no count of theirs reaches.
      limits: bffLimits(redis, {
        LIMIT_LOGIN_FAILURES_PER_ADDRESS: untripped,
        LIMIT_GUEST_TOKENS_PER_ADDRESS: untripped,
        LIMIT_SIGN_UPS_PER_ADDRESS: untripped,
        LIMIT_PHONE_CODES_PER_ADDRESS: untripped,
        LIMIT_MAILS_PER_ADDRESS: untripped,
      }),
    });
    const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => {
    close();
    redis.disconnect();
  });

  it('is live but not ready', async () => {
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'not ready' });
  });

  it('answers 503 on authenticated paths until it can verify tokens', async () => {
    const res = await fetch(`${baseUrl}/api/user-service/auth/session`, { headers: { authorization: 'Bearer x' } });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      statusCode: 503,
      message: 'Sign-in is not available yet, please try again',
      error: 'Service Unavailable',
    });
  });

  it('hides upstream failures behind a plain 500', async () => {
    const res = await fetch(`${baseUrl}/api/user-service/auth/guest`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ statusCode: 500, message: 'Internal Server Error', error: 'Internal Server Error' });
  });

  it('applies the configured body limit and CORS origins', async () => {
    const big = await fetch(`${baseUrl}/api/user-service/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x'.repeat(2000) }),
    });
    expect(big.status).toBe(413);
    const allowed = await fetch(`${baseUrl}/healthz`, { headers: { origin: 'https://app.spinroom.example' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.spinroom.example');
  });
});
