import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type LimitSettings } from '@spinroom/platform';
import { afterAll, describe, expect, it } from 'vitest';
import { bffConfig } from '../../bff/src/config.js';
import { chatServiceConfig } from '../../services/chat/src/config.js';
import { roomServiceConfig } from '../../services/room/src/config.js';
import { uploadServiceConfig } from '../../services/upload/src/config.js';
import { userServiceConfig } from '../../services/user/src/config.js';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, usePlatform } from '../support/platform.js';

/** Every LIMIT_* variable of every config schema, with its default as parsed. */
const LIMIT_SCHEMAS = Object.fromEntries(
  [bffConfig, userServiceConfig, roomServiceConfig, chatServiceConfig, uploadServiceConfig].flatMap((shape) =>
    Object.entries(shape).filter(([name]) => name.startsWith('LIMIT_')),
  ),
);
const DEFAULTS = loadConfig(LIMIT_SCHEMAS, {}) as Record<string, LimitSettings>;

const tight = (points: number, durationSeconds: number, blockSeconds = 0): LimitSettings => ({ points, durationSeconds, blockSeconds });
const PASSWORD = 'correct horse battery';

/** A client address of its own (documentation range), sent as a loopback proxy would: the BFF trusts it. */
const address = () => `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
const from = (ip: string) => ({ 'x-forwarded-for': ip });

/** The ISO time a limit's message names; it must match Retry-After. */
function expectUntil(message: string, retryAfter: string | null, expectedSeconds: number) {
  const seconds = Number(retryAfter);
  expect(seconds).toBeGreaterThan(expectedSeconds - 10);
  expect(seconds).toBeLessThanOrEqual(expectedSeconds);
  const until = Date.parse(/(\d{4}-\d\d-\d\dT[\d:.]+Z)/.exec(message)![1]!);
  expect(Math.abs(until - (Date.now() + seconds * 1000))).toBeLessThan(5_000);
}

describe('limits: each answers 429 with Retry-After and says when it ends', () => {
  const { call, platform } = usePlatform({
    // The login lockout at its default (100 failed logins an hour, then an hour locked); the rest tight.
    user: { LIMIT_LOGIN_FAILURES_PER_ACCOUNT: DEFAULTS.LIMIT_LOGIN_FAILURES_PER_ACCOUNT },
    bffLimits: {
      LIMIT_LOGIN_FAILURES_PER_ADDRESS: tight(5, 3600, 3600),
      LIMIT_GUEST_TOKENS_PER_ADDRESS: tight(5, 3600),
      LIMIT_SIGN_UPS_PER_ADDRESS: tight(3, 3600),
      LIMIT_MAILS_PER_ADDRESS: tight(3, 3600),
    },
    room: { LIMIT_ROOM_PASSWORD_FAILURES: tight(3, 900, 900) },
    chat: { LIMIT_CHAT_MESSAGES_PER_USER: tight(5, 60) },
    upload: { LIMIT_UPLOADS_PER_USER: tight(2, 3600) },
  });

  /** A new account, signed up from an address of its own (sign-ups per address are limited too). */
  const signUp = async (nickname = 'Limits') => {
    const email = freshEmail();
    const { status, body } = await call('POST', '/api/user-service/users/sign-up', {
      body: { email, password: PASSWORD, nickname },
      headers: from(address()),
    });
    expect(status).toBe(201);
    return { email, token: body.accessToken as string, uuid: body.userUuid as string };
  };
  const logIn = (email: string, password: string, ip = address()) =>
    call('POST', '/api/user-service/auth/login', { body: { email, password }, headers: from(ip) });

  it('uses the documented defaults: 100 failed logins an hour per account, then locked for an hour', () => {
    expect(DEFAULTS.LIMIT_LOGIN_FAILURES_PER_ACCOUNT).toEqual({ points: 100, durationSeconds: 3600, blockSeconds: 3600 });
  });

  it('locks an account after 100 failed logins: 150 wrong passwords end in 429s, and the right one waits too', async () => {
    const victim = await signUp('Victim');
    const bystander = await signUp('Bystander');
    const statuses: number[] = [];
    let firstRefusal: Awaited<ReturnType<typeof logIn>> | undefined;
    // From 150 addresses, as a spread-out attacker would: the lockout is per account.
    for (let i = 0; i < 150; i += 1) {
      const res = await logIn(victim.email, `wrong password ${i}`);
      statuses.push(res.status);
      if (res.status === 429) firstRefusal ??= res;
    }
    expect(statuses.slice(0, 100)).toEqual(Array(100).fill(401));
    expect(statuses.slice(100)).toEqual(Array(50).fill(429));
    expect(firstRefusal!.body).toMatchObject({
      statusCode: 429,
      error: 'Too Many Requests',
      message: expect.stringMatching(/^Too many failed logins for this account: it is locked until \d{4}-/),
    });
    expectUntil(firstRefusal!.body.message, firstRefusal!.headers.get('retry-after'), 3600);

    const right = await logIn(victim.email, PASSWORD);
    expect(right.status).toBe(429);
    expect(right.body.message).toMatch(/^Too many failed logins for this account: it is locked until /);
    expectUntil(right.body.message, right.headers.get('retry-after'), 3600);
    // The email's case does not open a second door.
    expect((await logIn(victim.email.toUpperCase(), PASSWORD)).status).toBe(429);
    // Other accounts are not locked, and the victim's sessions still work.
    expect((await logIn(bystander.email, PASSWORD)).status).toBe(200);
    expect((await call('GET', '/api/user-service/auth/session', { token: victim.token })).status).toBe(200);
  }, 180_000);

  it('counts only failed logins: successful ones never add up to a lockout', async () => {
    const user = await signUp();
    for (let i = 0; i < 8; i += 1) expect((await logIn(user.email, PASSWORD)).status).toBe(200);
  });

  it('limits failed logins per address, across accounts, even for a right password', async () => {
    const ip = address();
    const user = await signUp();
    for (let i = 0; i < 5; i += 1) expect((await logIn(freshEmail(), 'not the password', ip)).status).toBe(401);
    const refused = await logIn(freshEmail(), 'not the password', ip);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Too many failed logins from this address: try again after /);
    expectUntil(refused.body.message, refused.headers.get('retry-after'), 3600);
    expect((await logIn(user.email, PASSWORD, ip)).status).toBe(429);
    expect((await logIn(user.email, PASSWORD)).status).toBe(200);
  });

  it('limits guest tokens per address', async () => {
    const ip = address();
    for (let i = 0; i < 5; i += 1) expect((await call('GET', '/api/user-service/auth/guest', { headers: from(ip) })).status).toBe(200);
    const refused = await call('GET', '/api/user-service/auth/guest', { headers: from(ip) });
    expect(refused).toMatchObject({ status: 429, body: { statusCode: 429, error: 'Too Many Requests' } });
    expect(refused.body.message).toMatch(/^Too many guest sessions from this address: try again after /);
    expectUntil(refused.body.message, refused.headers.get('retry-after'), 3600);
    expect((await call('GET', '/api/user-service/auth/guest', { headers: from(address()) })).status).toBe(200);
  });

  it('limits sign-ups per address', async () => {
    const ip = address();
    for (let i = 0; i < 3; i += 1) {
      expect(
        (await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: PASSWORD }, headers: from(ip) }))
          .status,
      ).toBe(201);
    }
    const refused = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: freshEmail(), password: PASSWORD },
      headers: from(ip),
    });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Too many sign-ups from this address: try again after /);
    expectUntil(refused.body.message, refused.headers.get('retry-after'), 3600);
  });

  it('limits mails asked for per address: magic links, password resets and verification codes together, whatever the addresses', async () => {
    const ip = address();
    const user = await signUp();
    const asks = [
      () => call('GET', `/api/user-service/auth/magic-link?email=${encodeURIComponent(freshEmail())}`, { headers: from(ip) }),
      () => call('POST', '/api/user-service/users/forgot-password', { body: { email: freshEmail() }, headers: from(ip) }),
      () =>
        call('POST', '/api/user-service/users/emails/verification-email', {
          token: user.token,
          body: { email: user.email },
          headers: from(ip),
        }),
    ];
    expect((await asks[0]!()).status).toBe(200);
    expect((await asks[1]!()).status).toBe(200);
    // The sign-up already mailed this address its code: the service's own minimum interval answers 403, and the ask counts.
    expect((await asks[2]!()).status).toBe(403);
    for (const ask of asks) {
      const refused = await ask();
      expect(refused).toMatchObject({
        status: 429,
        body: { message: expect.stringMatching(/^Too many mails asked for from this address: try again after /) },
      });
      expectUntil(refused.body.message, refused.headers.get('retry-after'), 3600);
    }
    expect(
      (await call('POST', '/api/user-service/users/forgot-password', { body: { email: freshEmail() }, headers: from(address()) })).status,
    ).toBe(200);
  });

  it('limits wrong room passwords per user and room: password matching, REST join and the feed join', async () => {
    const owner = await signUp('Owner');
    const guesser = await signUp('Guesser');
    const friend = await signUp('Friend');
    const created = await call('POST', '/api/room-service/rooms/infrastructure', {
      token: owner.token,
      body: { name: `Vault ${randomUUID().slice(0, 8)}`, type: 'PUBLIC', password: 'open sesame' },
    });
    expect(created.status).toBe(201);
    const { uuid, slug } = created.body as { uuid: string; slug: string };
    const match = (token: string, password: string) => call('POST', '/api/room-service/rooms/list', { token, body: { slug, password } });

    for (let i = 0; i < 3; i += 1)
      expect(await match(guesser.token, `guess ${i}`)).toMatchObject({ status: 403, body: { message: 'Wrong room password' } });
    const refused = await match(guesser.token, 'guess 3');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Too many wrong passwords for this room: try again after /);
    expectUntil(refused.body.message, refused.headers.get('retry-after'), 900);
    // The right password waits too, on every path into the room.
    expect((await match(guesser.token, 'open sesame')).status).toBe(429);
    const join = await call('POST', `/api/room-service/rooms/${slug}/join`, { token: guesser.token, body: { password: 'open sesame' } });
    expect(join.status).toBe(429);
    expect(join.headers.get('retry-after')).toBeTruthy();
    await expect(FeedListener.join(platform().baseUrl, guesser.token, guesser.uuid, uuid, 'open sesame')).rejects.toMatch(
      /^Too many wrong passwords for this room: try again after /,
    );
    // Another user is not held back.
    expect((await match(friend.token, 'open sesame')).status).toBe(200);
  });

  it('limits chat messages per user', async () => {
    const owner = await signUp('Chatty');
    const room = (
      await call('POST', '/api/room-service/rooms/infrastructure', {
        token: owner.token,
        body: { name: `Chat flood ${randomUUID().slice(0, 8)}` },
      })
    ).body.uuid as string;
    const chatToken = (await call('GET', '/api/user-service/comet-chat/user-token', { token: owner.token })).body.cometAuthToken as string;
    const chat = (method: string, path: string, body?: unknown) =>
      call(method, `/chat${path}`, { body, headers: { appid: 'spinroom', authtoken: chatToken } });
    expect((await chat('POST', `/v3.0/groups/${room}/members`, {})).status).toBe(200);
    const send = (text: string) =>
      chat('POST', '/v3.0/messages', {
        type: 'text',
        receiverType: 'group',
        category: 'message',
        receiver: room,
        data: { text, metadata: { chatMessage: { message: text } } },
      });
    for (let i = 0; i < 5; i += 1) expect((await send(`hello ${i}`)).status).toBe(200);
    const refused = await send('one too many');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({
      code: 'ERR_TOO_MANY_REQUESTS',
      message: expect.stringMatching(/^You are sending messages too fast: try again after /),
    });
    expectUntil(refused.body.error.message, refused.headers.get('retry-after'), 60);
    // The refused message was not stored.
    const history = await chat('GET', `/v3.0/groups/${room}/messages?per_page=50&id=0&affix=append`);
    expect(history.body.data.map((m: { data: { text: string } }) => m.data.text)).not.toContain('one too many');
  });

  describe('uploads', () => {
    const work = mkdtempSync(join(tmpdir(), 'spinroom-e2e-limits-'));
    afterAll(() => rmSync(work, { recursive: true, force: true }));

    it('limits song uploads per user', async () => {
      const path = join(work, 'tone.mp3');
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-c:a', 'libmp3lame', path]);
      const bytes = readFileSync(path);
      const uploader = await signUp('Uploader');
      const upload = async () => {
        const form = new FormData();
        form.append('file', new Blob([bytes], { type: 'audio/mpeg' }), 'tone.mp3');
        const res = await fetch(`${platform().baseUrl}/api/upload-service/upload/song`, {
          method: 'POST',
          headers: { authorization: `Bearer ${uploader.token}` },
          body: form,
        });
        return { status: res.status, headers: res.headers, body: (await res.json()) as { message: string } };
      };
      expect((await upload()).status).toBe(201);
      expect((await upload()).status).toBe(201);
      const refused = await upload();
      expect(refused).toMatchObject({
        status: 429,
        body: { statusCode: 429, error: 'Too Many Requests', message: expect.stringMatching(/^Too many uploads: try again after /) },
      });
      expectUntil(refused.body.message, refused.headers.get('retry-after'), 3600);
    });
  });
});

describe('limits: the README lists each one with its default', () => {
  it('names every LIMIT_* variable and its default', () => {
    const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Limits'));
    expect(readme).toContain('## Limits');
    const names = Object.keys(LIMIT_SCHEMAS);
    expect(names.length).toBeGreaterThanOrEqual(7);
    for (const name of names) {
      const row = section.split('\n').find((line) => line.includes(`\`${name}\``));
      expect(row, name).toBeDefined();
      const { fallback } = LIMIT_SCHEMAS[name] as { fallback: string };
      expect(row, name).toContain(`\`${fallback}\``);
    }
  });
});
