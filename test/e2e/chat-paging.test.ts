import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshEmail, usePlatform } from '../support/platform.js';

/** a..b, both included; empty when b < a. */
const ids = (a: number, b: number) => Array.from({ length: Math.max(b - a + 1, 0) }, (_, i) => a + i);

// CometChat v3's List Group Messages through the BFF (services/chat/README.md,
// Listing): the platform's chat database is fresh, so the room's messages are
// 1..120 and the pages cross 9 -> 10 and 99 -> 100.
describe("chat: history paging and the direct-message paths' checks under /chat", () => {
  const { call, platform } = usePlatform();
  const LAST = 120;
  /** Message n is dated T0 + floor(n / 10) seconds and a half: 1..9 in second 0, 10..19 in second 1, ..., 120 in second 12. */
  const T0 = Math.floor(Date.now() / 1000) - 3600;
  let user: { uuid: string; accessToken: string; chatToken: string };
  let room: string;

  const chat = (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
    call(method, `/chat${path}`, { body, headers: { appid: 'spinroom', authtoken: token, ...headers } });
  const send = async (text: string) => {
    const { status, body } = await chat('POST', '/v3.0/messages', user.chatToken, {
      type: 'text',
      receiverType: 'group',
      category: 'message',
      receiver: room,
      data: { text, metadata: { chatMessage: { message: text } } },
    });
    expect(status).toBe(200);
    return body.data as { id: string; sentAt: number };
  };
  /** The ids of one page, as numbers (the answer's ids are numeric strings). */
  const page = async (query: string, prefix = '/v3.0') => {
    const { status, body } = await chat('GET', `${prefix}/groups/${room}/messages?${query}`, user.chatToken);
    expect(status, JSON.stringify(body)).toBe(200);
    const answered = body.data.map((m: { id: string }) => m.id) as string[];
    expect(answered.every((id) => /^\d+$/.test(id))).toBe(true);
    expect(body.meta.current.count).toBe(answered.length);
    return answered.map(Number);
  };

  beforeAll(async () => {
    const { body } = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: freshEmail(), password: 'correct horse battery', nickname: 'Pager' },
    });
    const chatToken = (await call('GET', '/api/user-service/comet-chat/user-token', { token: body.accessToken })).body.cometAuthToken;
    user = { uuid: body.userUuid, accessToken: body.accessToken, chatToken };
    const created = await call('POST', '/api/room-service/rooms/infrastructure', {
      token: user.accessToken,
      body: { name: `Paging ${randomUUID().slice(0, 8)}` },
    });
    expect(created.status).toBe(201);
    room = created.body.uuid;
    expect((await chat('POST', `/v3.0/groups/${room}/members`, user.chatToken, {})).status).toBe(200);
    for (let n = 1; n <= LAST; n++) expect((await send(`message ${n}`)).id).toBe(String(n));
    // Sent within a few seconds; dated back an hour, ten to a second, so that time bounds have exact answers.
    const db = new pg.Client({ connectionString: platform().chat.databaseUrl });
    await db.connect();
    try {
      await db.query(
        `update "chat_message" set "sent_at" = to_timestamp($1 + floor("id" / 10) + 0.5), "updated_at" = to_timestamp($1 + floor("id" / 10) + 0.5)`,
        [T0],
      );
    } finally {
      await db.end();
    }
  }, 120_000);

  it('answers the newest page and walks id cursors by number, across 9 -> 10 and 99 -> 100', async () => {
    expect(await page('per_page=5')).toEqual(ids(116, 120));
    expect(await page('per_page=300')).toEqual(ids(1, 120));
    expect(await page('')).toEqual(ids(21, 120)); // per_page defaults to 100
    expect(await page('per_page=5&affix=append')).toEqual(ids(116, 120)); // no cursor: the newest, not the room's first
    expect(await page('id=8&affix=append&per_page=1')).toEqual([9]);
    expect(await page('id=8&affix=append&per_page=5')).toEqual(ids(9, 13));
    expect(await page('id=9&affix=append&per_page=3')).toEqual([10, 11, 12]);
    expect(await page('id=98&affix=append&per_page=5', '/v3')).toEqual(ids(99, 103));
    expect(await page('id=99&affix=append&per_page=2')).toEqual([100, 101]);
    expect(await page('id=120&affix=append')).toEqual([]);
    expect(await page('id=10&per_page=3')).toEqual([7, 8, 9]); // prepend by default
    expect(await page('id=10&affix=prepend&per_page=3')).toEqual([7, 8, 9]);
    expect(await page('id=100&affix=prepend&per_page=3', '/v3')).toEqual([97, 98, 99]);
    expect(await page('id=101&affix=prepend&per_page=5')).toEqual(ids(96, 100));
    expect(await page('id=11&affix=prepend&per_page=300')).toEqual(ids(1, 10));
    expect(await page('id=1&affix=prepend')).toEqual([]);

    for (const perPage of [7, 10]) {
      const forward: number[] = [];
      for (let got = await page(`id=0&affix=append&per_page=${perPage}`); got.length > 0; ) {
        forward.push(...got);
        got = await page(`id=${got.at(-1)}&affix=append&per_page=${perPage}`);
      }
      expect(forward).toEqual(ids(1, LAST));
      const backward: number[] = [];
      for (let got = await page(`per_page=${perPage}`); got.length > 0; ) {
        backward.unshift(...got);
        got = await page(`id=${got[0]}&affix=prepend&per_page=${perPage}`);
      }
      expect(backward).toEqual(ids(1, LAST));
    }
  });

  it('bounds the send time from below with fromTimestamp and from above with toTimestamp, whatever the affix', async () => {
    // fromTimestamp: sent at or after it.
    expect(await page(`fromTimestamp=${T0 + 10}&per_page=5`)).toEqual(ids(116, 120));
    expect(await page(`fromTimestamp=${T0 + 10}&per_page=300`)).toEqual(ids(100, 120));
    expect(await page(`fromTimestamp=${T0 + 9}&affix=prepend&per_page=300`)).toEqual(ids(90, 120));
    expect(await page(`fromTimestamp=${T0 + 12}`)).toEqual([120]);
    expect(await page(`fromTimestamp=${T0 + 13}`)).toEqual([]);
    expect(await page(`fromTimestamp=${T0 + 9}&affix=append&per_page=12`)).toEqual(ids(90, 101));
    expect(await page(`fromTimestamp=${T0 - 100}&affix=append&per_page=3`)).toEqual([1, 2, 3]);
    // toTimestamp: sent at or before it (a message sent at T.5 s reads back as sentAt T).
    expect(await page(`toTimestamp=${T0}&per_page=300`)).toEqual(ids(1, 9));
    expect(await page(`toTimestamp=${T0}&per_page=5`)).toEqual(ids(5, 9));
    expect(await page(`toTimestamp=${T0 + 9}&per_page=3`, '/v3')).toEqual([97, 98, 99]);
    expect(await page(`toTimestamp=${T0 + 1}&affix=append&per_page=3`)).toEqual([17, 18, 19]);
    expect(await page(`toTimestamp=${T0 - 1}`)).toEqual([]);
    // Both, and with an id cursor.
    expect(await page(`fromTimestamp=${T0 + 1}&toTimestamp=${T0 + 2}&per_page=300`)).toEqual(ids(10, 29));
    expect(await page(`fromTimestamp=${T0 + 1}&toTimestamp=${T0 + 2}&per_page=5`)).toEqual(ids(25, 29));
    expect(await page(`fromTimestamp=${T0 + 1}&toTimestamp=${T0 + 2}&affix=append&per_page=5`)).toEqual(ids(10, 14));
    expect(await page(`fromTimestamp=${T0 + 5}&toTimestamp=${T0 + 4}`)).toEqual([]);
    expect(await page(`id=15&affix=append&toTimestamp=${T0 + 2}&per_page=300`)).toEqual(ids(16, 29));
    expect(await page(`id=5&affix=append&fromTimestamp=${T0 + 10}&per_page=3`)).toEqual([100, 101, 102]);
    expect(await page(`id=105&fromTimestamp=${T0 + 9}&per_page=300`)).toEqual(ids(90, 104));
    expect(await page(`id=105&affix=prepend&fromTimestamp=${T0 + 9}&per_page=3`)).toEqual([102, 103, 104]);
    expect(await page(`id=50&affix=prepend&toTimestamp=${T0 + 2}&per_page=3`)).toEqual([27, 28, 29]);
    expect(await page(`id=95&affix=append&fromTimestamp=${T0 + 9}&toTimestamp=${T0 + 10}&per_page=300`)).toEqual(ids(96, 109));
    // sentAt and updatedAt follow the affix.
    expect(await page(`sentAt=${T0 + 11}&affix=append&per_page=3`)).toEqual([110, 111, 112]);
    expect(await page(`sentAt=${T0 + 1}&per_page=3`)).toEqual([17, 18, 19]);
    expect(await page(`updatedAt=${T0 + 11}&affix=append&per_page=300`)).toEqual(ids(110, 120));
  });

  it('shows a client polling with fromTimestamp the message sent after it', async () => {
    const since = Math.floor(Date.now() / 1000);
    expect(await page(`per_page=50&fromTimestamp=${since}`)).toEqual([]);
    const fresh = await send('new one');
    expect(fresh.id).toBe(String(LAST + 1));
    expect(await page(`per_page=50&fromTimestamp=${since}`)).toEqual([LAST + 1]);
    expect(await page(`per_page=50&fromTimestamp=${fresh.sentAt}&affix=append`)).toEqual([LAST + 1]);
    expect(await page(`per_page=50&fromTimestamp=${T0 + 12}`)).toEqual([LAST, LAST + 1]);
    expect(await page(`per_page=50&toTimestamp=${since - 1}&id=${LAST - 2}&affix=append`)).toEqual([LAST - 1, LAST]);
    expect(await page(`per_page=1&id=${LAST}&affix=append`)).toEqual([LAST + 1]);
  });

  it("refuses malformed paging parameters with 400 in CometChat's shape", async () => {
    for (const query of [
      'toTimestamp=soon',
      'toTimestamp=-1',
      'toTimestamp=1.5',
      'fromTimestamp=yesterday',
      'affix=sideways',
      'per_page=0',
      'per_page=301',
      'id=abc',
      'id=-3',
    ]) {
      const { status, body } = await chat('GET', `/v3.0/groups/${room}/messages?${query}`, user.chatToken);
      expect(status, query).toBe(400);
      expect(body.error, query).toMatchObject({ code: 'ERR_BAD_REQUEST', message: expect.any(String) });
    }
  });

  it('checks the chat token (401) and onBehalfOf (403) on the direct-message paths too', async () => {
    const other = randomUUID();
    const paths: Array<[string, string, unknown?]> = [
      ['GET', `/v3.0/users/${other}/messages?withUser=${user.uuid}&per_page=50`],
      ['GET', `/v3/users/${other}/messages`],
      ['GET', `/v3.0/messages?receiverType=user&sender=${other}`],
      ['GET', `/v3.0/users/${user.uuid}/conversations?conversationType=user`],
      ['GET', `/v3/users/${other}/conversation`],
      ['POST', `/v3/users/${other}/conversation/read`, { messageId: '1' }],
      ['POST', `/v3.0/users/${other}/conversation/read`],
    ];
    for (const [method, path, body] of paths) {
      expect((await call(method, `/chat${path}`, { body, headers: { appid: 'spinroom' } })).body.error.code, path).toBe(
        'AUTH_ERR_EMPTY_AUTH_TOKEN',
      );
      const refused = await chat(method, path, user.accessToken, body);
      expect(refused.status, path).toBe(401);
      expect(refused.body.error.code, path).toBe('AUTH_ERR_AUTH_TOKEN_NOT_FOUND');
      const behalf = await chat(method, path, user.chatToken, body, { onBehalfOf: other });
      expect(behalf.status, path).toBe(403);
      expect(behalf.body.error.code, path).toBe('ERR_ON_BEHALF_OF_NOT_ALLOWED');
    }
  });
});
