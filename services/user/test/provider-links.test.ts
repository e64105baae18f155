import { randomBytes } from 'node:crypto';
import { createLogger, createOrm, dropDatabase, ensureDatabase, migrate, OutboxMessage, type MikroORM } from '@spinroom/platform';
import { uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAUTH_APPS, OAuthStandIns } from '../../../test/support/oauth-stand-ins.js';
import { OAuthTokenEndpoint } from '../src/adapters/oauth-client.js';
import { AppleMusicDeveloperTokens } from '../src/adapters/apple-developer-tokens.js';
import { migrations } from '../src/db/migrations/index.js';
import { ProviderLinkEntity } from '../src/db/providers-entities.js';
import { PgProviderLinkStore } from '../src/db/providers-store.js';
import { UserEntity } from '../src/db/user-entity.js';
import { PgUserStore } from '../src/db/user-store.js';
import { ProviderLinks } from '../src/domain/providers/links.js';
import type { ProviderLinkStore } from '../src/domain/providers/ports.js';
import { TokenCipher, type TokenKey } from '../src/domain/providers/token-cipher.js';

describe('provider links on PostgreSQL: rotating the token key', () => {
  const databaseUrl = uniqueDatabaseUrl('user_provider_links');
  let orm: MikroORM;
  let oauth: OAuthStandIns;
  const keyA: TokenKey = { id: 'a', key: randomBytes(32) };
  const keyB: TokenKey = { id: 'b', key: randomBytes(32) };

  beforeAll(async () => {
    await ensureDatabase(databaseUrl);
    orm = await createOrm({ databaseUrl, entities: [UserEntity, ProviderLinkEntity, OutboxMessage], migrations });
    await migrate(orm);
    oauth = await OAuthStandIns.start();
  });

  afterAll(async () => {
    await oauth.close();
    await orm.close();
    await dropDatabase(databaseUrl);
  });

  const linksWith = (...keys: TokenKey[]) => linksOver(new PgProviderLinkStore(orm), ...keys);
  const linksOver = (store: ProviderLinkStore, ...keys: TokenKey[]) => {
    const soundcloud = new OAuthTokenEndpoint(
      {
        label: 'SoundCloud',
        tokenUrl: `${oauth.url}/soundcloud/oauth/token`,
        clientId: OAUTH_APPS.soundcloud.id,
        clientSecret: OAUTH_APPS.soundcloud.secret,
        clientAuth: { authorization_code: 'body', refresh_token: 'body', client_credentials: 'basic' },
      },
      { fetch, timeoutMs: 5000, logger: createLogger('user', { level: 'silent' }) },
    );
    // The other providers stay unconfigured: this test needs SoundCloud only.
    const off = new OAuthTokenEndpoint(
      {
        label: 'Off',
        tokenUrl: oauth.url,
        clientId: undefined,
        clientSecret: undefined,
        clientAuth: { authorization_code: 'body', refresh_token: 'body', client_credentials: 'body' },
      },
      { fetch, timeoutMs: 5000, logger: createLogger('user', { level: 'silent' }) },
    );
    return new ProviderLinks(
      store,
      new TokenCipher(keys),
      { spotify: off, youtube: off, soundcloud: { web: soundcloud, mobile: off } },
      new AppleMusicDeveloperTokens({}),
    );
  };

  const keyIds = async (userUuid: string) => {
    const [row] = await orm.em
      .fork()
      .execute<{ access_token: string; refresh_token: string }[]>(
        `select access_token, refresh_token from provider_link where user_uuid = ?`,
        [userUuid],
      );
    return [TokenCipher.keyIdOf(row!.access_token), TokenCipher.keyIdOf(row!.refresh_token)];
  };

  it('reads values under the old key, moves them to the new key as they are refreshed, and forgets what the dropped key held', async () => {
    const users = new PgUserStore(orm);
    const moved = (await users.createGuest()).uuid;
    const stayed = (await users.createGuest()).uuid;
    const before = linksWith(keyA);
    const first = await before.saveRefreshToken(moved, 'soundcloud', 'web', oauth.issueRefreshToken('soundcloud'));
    await before.saveRefreshToken(stayed, 'soundcloud', 'web', oauth.issueRefreshToken('soundcloud'));
    expect(await keyIds(moved)).toEqual(['a', 'a']);

    // Rotated: B encrypts, A still decrypts.
    const rotated = linksWith(keyB, keyA);
    expect((await rotated.accessToken(moved, 'soundcloud')).accessToken).toBe(first.accessToken);
    const refreshed = await rotated.refresh(moved, 'soundcloud');
    expect(refreshed.accessToken).not.toBe(first.accessToken);
    expect(await keyIds(moved)).toEqual(['b', 'b']);
    expect(await keyIds(stayed)).toEqual(['a', 'a']);

    // A dropped: what B holds still reads; what only A held reads as no link.
    const retired = linksWith(keyB);
    expect((await retired.accessToken(moved, 'soundcloud')).accessToken).toBe(refreshed.accessToken);
    expect(await retired.links(moved)).toEqual([{ provider: 'soundcloud', client: 'web', updatedAt: expect.any(Date) }]);
    expect(await retired.links(stayed)).toEqual([]);
    expect(await rotated.links(stayed)).toEqual([{ provider: 'soundcloud', client: 'web', updatedAt: expect.any(Date) }]);
    await expect(retired.accessToken(stayed, 'soundcloud')).rejects.toMatchObject({
      status: 404,
      message: 'No SoundCloud account is linked',
    });
  });

  it('refreshes with the stored refresh token when its own copy of the link predates a refresh that just ended (they are single use)', async () => {
    const user = (await new PgUserStore(orm).createGuest()).uuid;
    const pg = new PgProviderLinkStore(orm);
    // A read whose database answer arrives late: it carries the link as it was when read.
    let late: Promise<void> | undefined;
    const store: ProviderLinkStore = {
      find: async (...args) => {
        const gate = late;
        const link = await pg.find(...args);
        if (gate) await gate;
        return link;
      },
      list: (userUuid) => pg.list(userUuid),
      save: (link) => pg.save(link),
      delete: (...args) => pg.delete(...args),
    };
    const links = linksOver(store, keyA);
    oauth.expiresIn.soundcloud = 30; // inside the refresh margin: every read refreshes
    try {
      await links.saveRefreshToken(user, 'soundcloud', 'web', oauth.issueRefreshToken('soundcloud'));
      let release!: () => void;
      late = new Promise<void>((resolve) => (release = resolve));
      const slow = links.accessToken(user, 'soundcloud');
      late = undefined;
      // Another read refreshes (using up the refresh token the slow read holds) and stores the new one.
      const fast = await links.accessToken(user, 'soundcloud');
      release();
      const answer = await slow;
      expect(oauth.isLiveAccessToken(fast.accessToken)).toBe(true);
      expect(oauth.isLiveAccessToken(answer.accessToken)).toBe(true);
      expect(answer.accessToken).not.toBe(fast.accessToken);
    } finally {
      oauth.expiresIn.soundcloud = 3599;
    }
  });
});
