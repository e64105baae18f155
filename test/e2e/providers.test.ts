import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { importSPKI, jwtVerify, decodeProtectedHeader } from 'jose';
import { createLogger } from '@spinroom/platform';
import pg from 'pg';
import { OAuthTokenEndpoint } from '../../services/user/src/adapters/oauth-client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OAUTH_APPS,
  OAuthStandIns,
  providersUserConfig,
  TEST_AGORA as AGORA,
  TEST_APPLE_MUSIC,
  type DiscordProfile,
} from '../support/oauth-stand-ins.js';
import { api, freshEmail, signedToken, startPlatform, type TestPlatform } from '../support/platform.js';

// agora-token's own parser and signature check for AccessToken2 (not part of its typed entry point).
const { AccessToken2, kRtcServiceType } = createRequire(import.meta.url)('agora-token/src/AccessToken2.js');

const REDIRECT = 'https://spinroom.test/oauth/callback';

let oauth: OAuthStandIns;
let platform: TestPlatform;
const call = (method: string, path: string, options?: Parameters<typeof api>[3]) => api(platform.baseUrl, method, path, options);
const U = '/api/user-service';

async function signUp(): Promise<{ accessToken: string; userUuid: string }> {
  const answer = await call('POST', `${U}/users/sign-up`, { body: { email: freshEmail(), password: 'correct horse battery' } });
  expect(answer.status).toBe(201);
  return answer.body;
}

async function storedLink(userUuid: string, provider: string): Promise<Record<string, string | null>> {
  const db = new pg.Client({ connectionString: platform.databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query('select * from provider_link where user_uuid = $1 and provider = $2', [userUuid, provider]);
    return rows[0];
  } finally {
    await db.end();
  }
}

const grantsSeen = (prefix: string, grant: string) =>
  oauth.requests.filter((r) => r.path.startsWith(prefix) && new URLSearchParams(r.body).get('grant_type') === grant);

describe('music providers, Discord, Agora and the chat provider (providers area)', () => {
  beforeAll(async () => {
    oauth = await OAuthStandIns.start();
    platform = await startPlatform({ user: providersUserConfig(oauth) });
  });
  afterAll(async () => {
    await platform?.stop();
    await oauth?.close();
  });

  it('refuses every path without a token (401), except the Discord sign-in paths', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const paths: Array<[string, string, unknown?]> = [
      ['POST', '/apple/user-token', { userToken: 'x' }],
      ['GET', `/apple/user-token/${id}`],
      ['GET', '/apple/developer-token'],
      ['DELETE', '/apple/user-token'],
      ['POST', '/soundcloud/refresh-token', { refreshToken: 'x' }],
      ['POST', '/soundcloud/mobile/refresh-token', { refreshToken: 'x' }],
      ['GET', '/soundcloud/public-token'],
      ['GET', '/soundcloud/mobile/public-token'],
      ['GET', `/soundcloud/access-token/${id}?mobile=true`],
      ['POST', '/soundcloud/access-token/refresh'],
      ['POST', '/spotify/exchange-code', { code: 'x', redirectUri: REDIRECT }],
      ['POST', '/spotify/refresh-token'],
      ['DELETE', '/spotify/refresh-token'],
      ['DELETE', '/youtube/refresh-token'],
      ['DELETE', '/soundcloud/refresh-token'],
      ['GET', '/users/music-providers'],
      ['GET', `/spotify/access-token/${id}/service`],
      ['POST', '/youtube/exchange-code', { code: 'x', redirectUri: REDIRECT }],
      ['POST', '/youtube/refresh-token'],
      ['POST', '/auth/link-discord', { code: 'x', redirectUri: REDIRECT }],
      ['POST', '/agora/token', { channelName: 'room', role: 'PUBLISHER' }],
      ['GET', '/comet-chat/ghost-token'],
      ['POST', '/comet-chat/create-users', { userUuids: [id] }],
    ];
    for (const [method, path, body] of paths) {
      const answer = await call(method, `${U}${path}`, { body });
      expect({ path, status: answer.status }).toEqual({ path, status: 401 });
    }
    // Public: a bad code reaches Discord (the stand-in) and is refused there.
    const refused = await call('POST', `${U}/auth/discord-auth`, { body: { code: 'not-a-code', redirectUri: REDIRECT } });
    expect(refused.body).toMatchObject({ statusCode: 400, message: 'Discord refused the authorization code' });
  });

  it('links Spotify by code exchange, keeps its tokens encrypted, refreshes expired ones for services only, and unlinks', async () => {
    const user = await signUp();
    const wrongRedirect = oauth.issueCode('spotify', REDIRECT);
    const refused = await call('POST', `${U}/spotify/exchange-code`, {
      token: user.accessToken,
      body: { code: wrongRedirect, redirectUri: 'https://elsewhere.test/cb' },
    });
    expect(refused.body).toMatchObject({ statusCode: 400, message: 'Spotify refused the authorization code' });

    const linked = await call('POST', `${U}/spotify/exchange-code`, {
      token: user.accessToken,
      body: { code: oauth.issueCode('spotify', REDIRECT), redirectUri: REDIRECT },
    });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({ expiresIn: 3600, scope: 'user-read-email streaming' });
    // The settings screen's list: the provider and app, no token.
    const listed = await call('GET', `${U}/users/music-providers`, { token: user.accessToken });
    expect(listed.body).toEqual({ links: [{ provider: 'spotify', client: 'web', updatedAt: expect.any(String) }] });
    expect(JSON.stringify(listed.body)).not.toContain(linked.body.accessToken);
    expect(oauth.isLiveAccessToken(linked.body.accessToken)).toBe(true);
    const exchange = grantsSeen('/spotify/', 'authorization_code').at(-1)!;
    expect(exchange.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(exchange.headers.authorization).toBe(
      `Basic ${Buffer.from(`${OAUTH_APPS.spotify.id}:${OAUTH_APPS.spotify.secret}`).toString('base64')}`,
    );

    // At rest: ciphertexts under key "a", never the tokens themselves.
    const row = await storedLink(user.userUuid, 'spotify');
    expect(row.access_token).toMatch(/^v1\.a\./);
    expect(row.refresh_token).toMatch(/^v1\.a\./);
    expect(JSON.stringify(row)).not.toContain(linked.body.accessToken);

    // The access-token path is for services: a user (even the owner) is refused.
    const path = `${U}/spotify/access-token/${user.userUuid}/service`;
    expect((await call('GET', path, { token: user.accessToken })).body).toMatchObject({
      statusCode: 403,
      message: 'Only services may read this token',
    });
    const service = await signedToken('service', 'service:room');
    const unexpired = await call('GET', path, { token: service });
    expect(unexpired.body.accessToken).toBe(linked.body.accessToken);

    // Expired (the provider now hands out 30-second tokens, inside the refresh margin): refreshed with the stored refresh token.
    oauth.expiresIn.spotify = 30;
    const refreshes = grantsSeen('/spotify/', 'refresh_token').length;
    const forced = await call('POST', `${U}/spotify/refresh-token`, { token: user.accessToken });
    expect(forced.status).toBe(200);
    expect(forced.body.accessToken).not.toBe(linked.body.accessToken);
    const refreshed = await call('GET', path, { token: service });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.accessToken).not.toBe(forced.body.accessToken);
    expect(oauth.isLiveAccessToken(refreshed.body.accessToken)).toBe(true);
    // Spotify sent no new refresh token, so the first one was kept and used both times.
    expect(grantsSeen('/spotify/', 'refresh_token').length).toBe(refreshes + 2);
    oauth.expiresIn.spotify = 3600;

    expect((await call('DELETE', `${U}/spotify/refresh-token`, { token: user.accessToken })).body).toEqual({ deleted: true });
    expect((await call('GET', `${U}/users/music-providers`, { token: user.accessToken })).body).toEqual({ links: [] });
    expect((await call('GET', path, { token: service })).body).toMatchObject({ statusCode: 404, message: 'No Spotify account is linked' });
    expect((await call('POST', `${U}/spotify/refresh-token`, { token: user.accessToken })).status).toBe(404);
  });

  it('links YouTube through Google (credentials in the form) and refreshes without a new refresh token', async () => {
    const user = await signUp();
    const guest = (await call('GET', `${U}/auth/guest`)).body;
    const code = oauth.issueCode('youtube', REDIRECT);
    const byGuest = await call('POST', `${U}/youtube/exchange-code`, { token: guest.accessToken, body: { code, redirectUri: REDIRECT } });
    expect(byGuest.status).toBe(403);

    const linked = await call('POST', `${U}/youtube/exchange-code`, { token: user.accessToken, body: { code, redirectUri: REDIRECT } });
    expect(linked.status).toBe(200);
    const sent = new URLSearchParams(grantsSeen('/google/', 'authorization_code').at(-1)!.body);
    expect(sent.get('client_id')).toBe(OAUTH_APPS.youtube.id);
    expect(sent.get('redirect_uri')).toBe(REDIRECT);
    // A code is used once.
    const again = await call('POST', `${U}/youtube/exchange-code`, { token: user.accessToken, body: { code, redirectUri: REDIRECT } });
    expect(again.body).toMatchObject({ statusCode: 400, message: 'YouTube refused the authorization code' });

    const first = await call('POST', `${U}/youtube/refresh-token`, { token: user.accessToken });
    const second = await call('POST', `${U}/youtube/refresh-token`, { token: user.accessToken });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(new Set([linked.body.accessToken, first.body.accessToken, second.body.accessToken]).size).toBe(3);

    // Unlinked (Spinroom's own path, as Spotify's): gone from the list and from refreshes.
    expect((await call('DELETE', `${U}/youtube/refresh-token`, { token: user.accessToken })).body).toEqual({ deleted: true });
    expect((await call('DELETE', `${U}/youtube/refresh-token`, { token: user.accessToken })).body).toEqual({ deleted: false });
    expect((await call('GET', `${U}/users/music-providers`, { token: user.accessToken })).body).toEqual({ links: [] });
    expect((await call('POST', `${U}/youtube/refresh-token`, { token: user.accessToken })).body).toMatchObject({
      statusCode: 404,
      message: 'No YouTube account is linked',
    });
  });

  it('SoundCloud: app tokens per app (cached), refresh tokens proved and rotated, owners and services read the access token', async () => {
    const user = await signUp();
    const other = await signUp();
    const web = await call('GET', `${U}/soundcloud/public-token`, { token: user.accessToken });
    const mobile = await call('GET', `${U}/soundcloud/mobile/public-token`, { token: other.accessToken });
    const webAgain = await call('GET', `${U}/soundcloud/public-token`, { token: other.accessToken });
    expect(web.body.accessToken).not.toBe(mobile.body.accessToken);
    expect(webAgain.body.accessToken).toBe(web.body.accessToken);
    const credentialsGrants = grantsSeen('/soundcloud/', 'client_credentials');
    expect(credentialsGrants).toHaveLength(2);
    expect(credentialsGrants.map((r) => r.headers.authorization?.startsWith('Basic '))).toEqual([true, true]);

    const bad = await call('POST', `${U}/soundcloud/refresh-token`, { token: user.accessToken, body: { refreshToken: 'not-issued' } });
    expect(bad.body).toMatchObject({ statusCode: 400, message: 'SoundCloud refused the refresh token; link the account again' });
    // A refresh token of the web app does not work for the mobile app.
    const wrongApp = await call('POST', `${U}/soundcloud/mobile/refresh-token`, {
      token: user.accessToken,
      body: { refreshToken: oauth.issueRefreshToken('soundcloud', OAUTH_APPS.soundcloud.id) },
    });
    expect(wrongApp.status).toBe(400);

    oauth.expiresIn.soundcloud = 30;
    const linked = await call('POST', `${U}/soundcloud/mobile/refresh-token`, {
      token: user.accessToken,
      body: { refreshToken: oauth.issueRefreshToken('soundcloud', OAUTH_APPS.soundcloudMobile.id) },
    });
    expect(linked.status).toBe(200);
    const path = `${U}/soundcloud/access-token/${user.userUuid}?mobile=true`;
    // Each read finds the token expired and refreshes: it works only because the rotated refresh token was kept.
    const read1 = await call('GET', path, { token: user.accessToken });
    const read2 = await call('GET', path, { token: await signedToken('service', 'service:playlist') });
    expect([read1.status, read2.status]).toEqual([200, 200]);
    expect(new Set([linked.body.accessToken, read1.body.accessToken, read2.body.accessToken]).size).toBe(3);
    oauth.expiresIn.soundcloud = 3599;

    expect((await call('GET', path, { token: other.accessToken })).body).toMatchObject({
      statusCode: 403,
      message: "Only the token's owner or a service may read it",
    });
    expect((await call('GET', `${U}/soundcloud/access-token/${user.userUuid}`, { token: user.accessToken })).body).toMatchObject({
      statusCode: 404,
      message: 'No SoundCloud account is linked',
    });
    // A token SoundCloud stopped accepting (a 403 to the player): the web link is refreshed at once, though unexpired.
    const refresh = `${U}/soundcloud/access-token/refresh`;
    expect((await call('POST', refresh, { token: user.accessToken })).body).toMatchObject({
      statusCode: 404,
      message: 'No SoundCloud account is linked',
    });
    const webLinked = await call('POST', `${U}/soundcloud/refresh-token`, {
      token: user.accessToken,
      body: { refreshToken: oauth.issueRefreshToken('soundcloud', OAUTH_APPS.soundcloud.id) },
    });
    expect(webLinked.status).toBe(200);
    const refreshed = await call('POST', refresh, { token: user.accessToken });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.accessToken).not.toBe(webLinked.body.accessToken);
    expect((await call('GET', `${U}/soundcloud/access-token/${user.userUuid}`, { token: user.accessToken })).body.accessToken).toBe(
      refreshed.body.accessToken,
    );
    // Revoked at SoundCloud: refreshing fails as the caller's 400, not as a server error.
    oauth.revokeRefreshTokens('soundcloud');
    oauth.expiresIn.soundcloud = 30;
    await call('POST', `${U}/soundcloud/mobile/refresh-token`, {
      token: other.accessToken,
      body: { refreshToken: oauth.issueRefreshToken('soundcloud', OAUTH_APPS.soundcloudMobile.id) },
    });
    oauth.revokeRefreshTokens('soundcloud');
    const revoked = await call('GET', `${U}/soundcloud/access-token/${other.userUuid}?mobile=true`, { token: other.accessToken });
    expect(revoked.status).toBe(400);
    oauth.expiresIn.soundcloud = 3599;
  });

  it('SoundCloud: concurrent reads of an expired token share one refresh (its refresh tokens are single use)', async () => {
    const user = await signUp();
    oauth.expiresIn.soundcloud = 30;
    try {
      const linked = await call('POST', `${U}/soundcloud/refresh-token`, {
        token: user.accessToken,
        body: { refreshToken: oauth.issueRefreshToken('soundcloud', OAUTH_APPS.soundcloud.id) },
      });
      expect(linked.status).toBe(200);
      const reads = await Promise.all(
        [1, 2, 3, 4].map(() => call('GET', `${U}/soundcloud/access-token/${user.userUuid}`, { token: user.accessToken })),
      );
      expect(reads.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      for (const read of reads) expect(oauth.isLiveAccessToken(read.body.accessToken)).toBe(true);
    } finally {
      oauth.expiresIn.soundcloud = 3599;
    }
  });

  it('Apple Music: user tokens kept as given, read back by the owner or a service with an ES256 developer token', async () => {
    const user = await signUp();
    const other = await signUp();
    const userToken = `Aq${randomBytes(90).toString('base64url')}`;
    expect((await call('GET', `${U}/apple/user-token/${user.userUuid}`, { token: user.accessToken })).body).toMatchObject({
      statusCode: 404,
      message: 'No Apple Music account is linked',
    });
    const saved = await call('POST', `${U}/apple/user-token`, { token: user.accessToken, body: { userToken } });
    expect(saved.status).toBe(201);

    expect((await call('GET', `${U}/apple/user-token/${user.userUuid}`, { token: other.accessToken })).status).toBe(403);
    for (const token of [user.accessToken, await signedToken('service', 'service:playlist')]) {
      const read = await call('GET', `${U}/apple/user-token/${user.userUuid}`, { token });
      expect(read.status).toBe(200);
      expect(read.body.userToken).toBe(userToken);
      expect(decodeProtectedHeader(read.body.developerToken)).toEqual({ alg: 'ES256', kid: 'KEY1234567' });
      const publicKey = await importSPKI(TEST_APPLE_MUSIC.publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'ES256');
      const { payload } = await jwtVerify(read.body.developerToken, publicKey, { issuer: 'TEAM123456' });
      expect(payload.exp! - payload.iat!).toBeGreaterThan(0);
    }
    expect(JSON.stringify(await storedLink(user.userUuid, 'apple'))).not.toContain(userToken);

    // Unlinked (Spinroom's own path): the token is gone, the list no longer names Apple Music; once more deletes nothing.
    expect((await call('DELETE', `${U}/apple/user-token`, { token: user.accessToken })).body).toEqual({ deleted: true });
    expect((await call('GET', `${U}/apple/user-token/${user.userUuid}`, { token: user.accessToken })).status).toBe(404);
    expect((await call('GET', `${U}/users/music-providers`, { token: user.accessToken })).body).toEqual({ links: [] });
    expect((await call('DELETE', `${U}/apple/user-token`, { token: user.accessToken })).body).toEqual({ deleted: false });
  });

  it('Apple Music: a developer token before linking, for signed-in users only (MusicKit on the Web authorizes with it)', async () => {
    const user = await signUp();
    const read = await call('GET', `${U}/apple/developer-token`, { token: user.accessToken });
    expect(read.status).toBe(200);
    expect(Object.keys(read.body)).toEqual(['developerToken']);
    expect(decodeProtectedHeader(read.body.developerToken)).toEqual({ alg: 'ES256', kid: 'KEY1234567' });
    const publicKey = await importSPKI(TEST_APPLE_MUSIC.publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'ES256');
    const { payload } = await jwtVerify(read.body.developerToken, publicKey, { issuer: 'TEAM123456' });
    expect(payload.exp!).toBeGreaterThan(Date.now() / 1000);
    // Nothing was linked by asking.
    expect((await call('GET', `${U}/users/music-providers`, { token: user.accessToken })).body).toEqual({ links: [] });
    const guest = (await call('GET', `${U}/auth/guest`)).body;
    expect(await call('GET', `${U}/apple/developer-token`, { token: guest.accessToken })).toMatchObject({
      status: 403,
      body: { message: 'Only signed-in users can link a music provider' },
    });
    expect((await call('DELETE', `${U}/apple/user-token`, { token: guest.accessToken })).status).toBe(403);
  });

  it('Discord: signs up with a verified email, signs in again, exchanges codes and links accounts', async () => {
    const discordUser = (overrides: Partial<DiscordProfile> = {}): DiscordProfile => ({
      id: String(10n ** 17n + BigInt(Math.floor(Math.random() * 1e15))),
      username: `dj${randomBytes(3).toString('hex')}`,
      global_name: 'Night Owl',
      email: freshEmail(),
      verified: true,
      ...overrides,
    });
    const discordCall = (path: string, profile: DiscordProfile, token?: string) =>
      call('POST', `${U}/auth/${path}`, {
        token,
        body: { code: oauth.issueCode('discord', REDIRECT, { discord: profile }), redirectUri: REDIRECT },
      });

    const person = discordUser();
    const signedUp = await discordCall('discord-auth', person);
    expect(signedUp.status).toBe(200);
    expect(signedUp.body).toMatchObject({ created: true });
    const profile = await call('GET', `${U}/users/profile`, { token: signedUp.body.accessToken });
    expect(profile.body).toMatchObject({ discord: person.username, discordNickname: 'Night Owl', nickname: 'Night Owl' });
    const signedIn = await discordCall('discord-auth', person);
    expect(signedIn.body).toMatchObject({ created: false, userUuid: signedUp.body.userUuid });

    expect((await discordCall('discord-auth', discordUser({ verified: false }))).body).toMatchObject({
      statusCode: 400,
      message: 'Discord did not share a verified email address',
    });
    const taken = discordUser({ email: person.email });
    expect((await discordCall('discord-auth', taken)).body).toMatchObject({ statusCode: 403, message: 'This email is already registered' });

    const exchanged = await discordCall('exchange-code', person);
    expect(exchanged.body).toEqual({
      id: person.id,
      username: person.username,
      globalName: 'Night Owl',
      email: person.email,
      verified: true,
    });

    const linker = await signUp();
    const other = discordUser({ global_name: null });
    const linked = await discordCall('link-discord', other, linker.accessToken);
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({ uuid: linker.userUuid, discord: other.username, discordNickname: null });
    // That Discord account now signs in as the linker.
    expect((await discordCall('discord-auth', other)).body).toMatchObject({ created: false, userUuid: linker.userUuid });
    // Linking someone else's Discord account is refused.
    expect((await discordCall('link-discord', person, linker.accessToken)).body).toMatchObject({
      statusCode: 409,
      message: 'This Discord account is linked to another user',
    });
    const guest = (await call('GET', `${U}/auth/guest`)).body;
    expect((await discordCall('link-discord', discordUser(), guest.accessToken)).status).toBe(403);
    // Discord's token endpoint was called with the app's Basic credentials, form-encoded.
    const tokenCall = oauth.requests.filter((r) => r.path === '/discord/api/oauth2/token').at(-1)!;
    expect(tokenCall.headers.authorization).toBe(
      `Basic ${Buffer.from(`${OAUTH_APPS.discord.id}:${OAUTH_APPS.discord.secret}`).toString('base64')}`,
    );
  });

  it('Agora: signed PUBLISHER and SUBSCRIBER tokens for the caller on the channel; none for guests', async () => {
    const user = await signUp();
    const guest = (await call('GET', `${U}/auth/guest`)).body;
    expect(
      (await call('POST', `${U}/agora/token`, { token: guest.accessToken, body: { channelName: 'room-1', role: 'SUBSCRIBER' } })).status,
    ).toBe(403);
    expect(
      (await call('POST', `${U}/agora/token`, { token: user.accessToken, body: { channelName: 'room-1', role: 'HOST' } })).status,
    ).toBe(400);

    const privileges: Record<string, number[]> = {};
    for (const role of ['PUBLISHER', 'SUBSCRIBER'] as const) {
      const answer = await call('POST', `${U}/agora/token`, { token: user.accessToken, body: { channelName: 'room-1', role } });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ appId: AGORA.appId, uid: user.userUuid, expiresIn: 3600 });
      const parsed = new AccessToken2();
      expect(parsed.from_string(answer.body.token)).toBe(true);
      expect(parsed.verifySignature(AGORA.certificate)).toBe(true);
      expect(parsed.verifySignature('0'.repeat(32))).toBe(false);
      const [rtc] = parsed.getServices(kRtcServiceType);
      expect(String(rtc.__channel_name)).toBe('room-1');
      expect(String(rtc.__uid)).toBe(user.userUuid);
      privileges[role] = Object.keys(rtc.__privileges).map(Number).sort();
    }
    // Join channel (1) for both; publishing audio, video and data (2, 3, 4) for the publisher only.
    expect(privileges).toEqual({ PUBLISHER: [1, 2, 3, 4], SUBSCRIBER: [1] });
  });

  it('chat provider: a ghost token reads as a guest; create-users for admins and services only', async () => {
    const user = await signUp();
    const ghost = await call('GET', `${U}/comet-chat/ghost-token`, { token: user.accessToken });
    expect(ghost.status).toBe(200);
    const claims = JSON.parse(Buffer.from(ghost.body.cometAuthToken.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ sub: user.userUuid, role: 'guest', use: 'chat', capabilities: [] });

    const unknown = '00000000-0000-4000-8000-000000000000';
    const body = { userUuids: [user.userUuid, unknown] };
    expect((await call('POST', `${U}/comet-chat/create-users`, { token: user.accessToken, body })).body).toMatchObject({
      statusCode: 403,
      message: 'Only admins and services may create chat users',
    });
    for (const token of [await signedToken('admin'), await signedToken('service', 'service:chat')]) {
      const created = await call('POST', `${U}/comet-chat/create-users`, { token, body });
      expect(created.status).toBe(200);
      expect(created.body).toEqual({
        users: [{ uid: user.userUuid, name: expect.any(String), avatar: expect.any(String), role: 'user' }],
        unknownUuids: [unknown],
      });
    }
  });
});

describe('provider adapters keep tokens, codes and secrets out of the logs', () => {
  let oauth: OAuthStandIns;
  beforeAll(async () => {
    oauth = await OAuthStandIns.start();
  });
  afterAll(() => oauth.close());

  it('logs a refusal by its OAuth error code only', async () => {
    const lines: string[] = [];
    const logger = createLogger('user', { level: 'debug' }, { write: (line: string) => lines.push(line) });
    const spotify = new OAuthTokenEndpoint(
      {
        label: 'Spotify',
        tokenUrl: `${oauth.url}/spotify/api/token`,
        clientId: OAUTH_APPS.spotify.id,
        clientSecret: OAUTH_APPS.spotify.secret,
        clientAuth: { authorization_code: 'basic', refresh_token: 'basic', client_credentials: 'basic' },
      },
      { fetch, timeoutMs: 5000, logger },
    );
    const code = oauth.issueCode('spotify', REDIRECT);
    await expect(spotify.exchangeCode({ code, redirectUri: 'https://elsewhere.test/cb' })).rejects.toMatchObject({ status: 400 });
    const granted = await spotify.exchangeCode({ code: oauth.issueCode('spotify', REDIRECT), redirectUri: REDIRECT });
    await expect(spotify.refresh('spotify-refresh-unknown')).rejects.toMatchObject({ status: 400 });
    const wrongSecret = new OAuthTokenEndpoint(
      {
        label: 'Spotify',
        tokenUrl: `${oauth.url}/spotify/api/token`,
        clientId: OAUTH_APPS.spotify.id,
        clientSecret: 'a-wrong-secret-value',
        clientAuth: { authorization_code: 'basic', refresh_token: 'basic', client_credentials: 'basic' },
      },
      { fetch, timeoutMs: 5000, logger },
    );
    await expect(wrongSecret.clientCredentials()).rejects.toMatchObject({ status: 502 });

    // Unreachable: the caller's 502, the log names the failure and not the code.
    const unreachable = new OAuthTokenEndpoint(
      {
        label: 'Spotify',
        tokenUrl: 'http://127.0.0.1:1/api/token',
        clientId: OAUTH_APPS.spotify.id,
        clientSecret: OAUTH_APPS.spotify.secret,
        clientAuth: { authorization_code: 'basic', refresh_token: 'basic', client_credentials: 'basic' },
      },
      { fetch, timeoutMs: 5000, logger },
    );
    await expect(unreachable.exchangeCode({ code, redirectUri: REDIRECT })).rejects.toMatchObject({
      status: 502,
      message: 'Spotify did not answer as expected',
    });

    expect(lines.length).toBe(4);
    const log = lines.join('\n');
    expect(log).toContain('"error":"invalid_grant"');
    expect(log).toContain('"error":"invalid_client"');
    for (const secret of [
      code,
      granted.accessToken,
      granted.refreshToken!,
      'spotify-refresh-unknown',
      'a-wrong-secret-value',
      OAUTH_APPS.spotify.secret,
    ]) {
      expect(log).not.toContain(secret);
    }
  });
});
