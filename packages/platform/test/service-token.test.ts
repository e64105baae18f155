import { describe, expect, it } from 'vitest';
import { currentContext, runWithContext } from '../src/context.js';
import { requireService, ServiceTokenSource } from '../src/service-token.js';

describe('ServiceTokenSource', () => {
  it('fetches once for concurrent callers, renews before expiry, and fetches as no one', async () => {
    let fetched = 0;
    const seenCallers: unknown[] = [];
    const source = new ServiceTokenSource(async () => {
      fetched += 1;
      seenCallers.push(currentContext()?.caller);
      return { accessToken: `token-${fetched}`, expiresInSeconds: fetched === 1 ? 30 : 900 };
    });
    const caller = { userUuid: 'u', role: 'user' as const, kind: 'user' as const, capabilities: [], token: 'callers-token' };
    const [a, b] = await runWithContext({ caller }, () => Promise.all([source.token(), source.token()]));
    expect([a, b]).toEqual(['token-1', 'token-1']);
    expect(seenCallers).toEqual([undefined]);
    // The first grant lives 30 s: within a minute of expiry, so the next call renews it.
    expect(await source.token()).toBe('token-2');
    expect(await source.token()).toBe('token-2');
    expect(fetched).toBe(2);
  });

  it('lets only services through requireService', () => {
    expect(() => requireService({ userUuid: 'u', role: 'user', kind: 'user', capabilities: [], token: 't' })).toThrow(
      'Only Spinroom services may call this',
    );
    expect(() =>
      requireService({ userUuid: 'service:room', role: 'service', kind: 'service', capabilities: [], token: 't' }),
    ).not.toThrow();
  });
});
