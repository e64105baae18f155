import { describe, expect, it } from 'vitest';
import { generateSigningKeyPem, TokenIssuer } from '../src/auth.js';
import { createLogger } from '../src/logging.js';
import { PublicKeyCache, type PublishedKeys } from '../src/public-key-cache.js';
import { testInfra } from '../src/testing/index.js';

const published = (issuers: TokenIssuer[]): PublishedKeys => ({
  publicKeyPem: issuers[0]!.publicKeyPem,
  keys: issuers.map((issuer) => ({ kid: issuer.keyId, publicKeyPem: issuer.publicKeyPem })),
});

describe('a verifier across a key rotation', () => {
  it('takes a token of a key published since its last load at once, and keeps taking the former key', async () => {
    const former = await TokenIssuer.fromPem(testInfra().signingKeyPem, { issuer: 'spinroom', ttlSeconds: 60 });
    const next = await TokenIssuer.fromPem(generateSigningKeyPem(), { issuer: 'spinroom', ttlSeconds: 60 });
    let serving = published([former]);
    let fetches = 0;
    const keys = new PublicKeyCache({
      fetch: async () => {
        fetches += 1;
        return serving;
      },
      issuer: 'spinroom',
      logger: createLogger('test', { level: 'silent' }),
    });
    keys.start();
    await keys.ready();
    const sub = '6f1c7a4e-7d3b-4a43-9d39-2f5c6a1b2c3d';
    const before = await former.sign({ sub, role: 'user', capabilities: [] });
    await expect(keys.verifier!.verify(before)).resolves.toMatchObject({ userUuid: sub });

    // The user service restarts with the next key, still publishing the former one.
    serving = published([next, former]);
    const after = await next.sign({ sub, role: 'user', capabilities: [] });
    await expect(keys.verifier!.verify(after)).resolves.toMatchObject({ userUuid: sub });
    expect(fetches).toBe(2);
    await expect(keys.verifier!.verify(before)).resolves.toMatchObject({ userUuid: sub });

    // A kid nobody publishes reloads at most once in a while, and is refused.
    const stranger = await TokenIssuer.fromPem(generateSigningKeyPem(), { issuer: 'spinroom', ttlSeconds: 60 });
    const forged = await stranger.sign({ sub, role: 'user', capabilities: [] });
    await expect(keys.verifier!.verify(forged)).rejects.toMatchObject({ status: 401 });
    await expect(keys.verifier!.verify(forged)).rejects.toMatchObject({ status: 401 });
    expect(fetches).toBe(2);
    keys.stop();
  });
});
