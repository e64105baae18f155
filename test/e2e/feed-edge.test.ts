import { describe, expect, it } from 'vitest';
import { eventually } from '@spinroom/platform/testing';
import { freshEmail, usePlatform } from '../support/platform.js';

type Json = any;

/** A raw WebSocket to the feed, for what the published client never sends. */
async function rawSocket(url: string, headers: Record<string, string> = {}) {
  const { WebSocket } = await import('ws');
  const ws = new WebSocket(url, { headers });
  const received: Json[] = [];
  const closed = new Promise<{ code: number }>((resolve) => ws.once('close', (code) => resolve({ code })));
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- ws's default binaryType 'nodebuffer' always delivers a Buffer
  ws.on('message', (data) => received.push(JSON.parse(data.toString())));
  return { ws, received, closed, opened };
}

describe('the room feed at its edges', () => {
  const { call, platform } = usePlatform({ feed: { pingIntervalMs: 300, messagesPerSecond: 1, messageBurst: 5, maxFrameBytes: 2048 } });
  const signUp = async () =>
    (await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery' } })).body;
  const feedUrl = (token?: string) => `${platform().baseUrl.replace('http', 'ws')}/primus?_primuscb=x${token ? `&token=${token}` : ''}`;

  it('refuses upgrades without a valid token, or from a browser origin it does not know', async () => {
    await expect((await rawSocket(feedUrl())).opened).rejects.toThrow('HTTP 401');
    await expect((await rawSocket(feedUrl('not.a.token'))).opened).rejects.toThrow('HTTP 401');
    const me = await signUp();
    await expect((await rawSocket(feedUrl(me.accessToken), { origin: 'https://evil.example' })).opened).rejects.toThrow('HTTP 403');
    const sameOrigin = await rawSocket(feedUrl(me.accessToken), { origin: platform().baseUrl });
    await sameOrigin.opened;
    sameOrigin.ws.close();
  });

  it("answers a refusal with the room service's code beside the error text, over the feed and REST alike", async () => {
    const owner = await signUp();
    const guest = await signUp();
    const created = await call('POST', '/api/room-service/rooms/infrastructure', {
      token: owner.accessToken,
      body: { name: 'Coded door', password: 'open sesame' },
    });
    expect(created.status).toBe(201);
    const { uuid, slug } = created.body as { uuid: string; slug: string };
    const socket = await rawSocket(feedUrl(guest.accessToken));
    await socket.opened;
    socket.ws.send(JSON.stringify({ event: 'action', messageId: 7, params: { action: 'joinRoom', roomUuid: uuid } }));
    socket.ws.send(JSON.stringify({ event: 'action', messageId: 8, params: { action: 'joinRoom', roomUuid: uuid, password: 'wrong' } }));
    await eventually(async () => (socket.received.filter((m) => m.context === 'response').length >= 2 ? true : undefined));
    expect(socket.received.filter((m) => m.context === 'response')).toEqual([
      { context: 'response', messageId: 7, error: 'This room requires a password', code: 'ROOM_PASSWORD_REQUIRED' },
      { context: 'response', messageId: 8, error: 'Wrong room password', code: 'ROOM_PASSWORD_WRONG' },
    ]);
    socket.ws.close();
    const refused = await call('POST', `/api/room-service/rooms/${slug}/join`, { token: guest.accessToken });
    expect(refused).toMatchObject({ status: 403 });
    expect(refused.body).toEqual({
      statusCode: 403,
      message: 'This room requires a password',
      error: 'Forbidden',
      code: 'ROOM_PASSWORD_REQUIRED',
    });
  });

  it('pings in the Primus way and drops a client that never answers', async () => {
    const me = await signUp();
    const quiet = await rawSocket(feedUrl(me.accessToken));
    await quiet.opened;
    await eventually(async () => (quiet.received.some((m) => typeof m === 'string' && m.startsWith('primus::ping::')) ? true : undefined));
    // It never answers with primus::pong: dropped after two missed pings.
    expect((await quiet.closed).code).toBe(1006);

    const polite = await rawSocket(feedUrl(me.accessToken));
    await polite.opened;
    polite.ws.on('message', (data) => {
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- ws's default binaryType 'nodebuffer' always delivers a Buffer
      const text = JSON.parse(data.toString());
      if (typeof text === 'string' && text.startsWith('primus::ping::')) polite.ws.send(JSON.stringify(text.replace('ping', 'pong')));
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(polite.ws.readyState).toBe(polite.ws.OPEN);
    polite.ws.close();
  });

  it('answers malformed messages with an error, and closes on non-JSON, oversized frames and floods', async () => {
    const me = await signUp();
    const socket = await rawSocket(feedUrl(me.accessToken));
    await socket.opened;
    socket.ws.send(JSON.stringify({ event: 42 }));
    socket.ws.send(JSON.stringify({ event: 'action', messageId: 1, params: { action: 'addDj', roomUuid: 'nope' } }));
    socket.ws.send(
      JSON.stringify({ event: 'action', messageId: 2, params: { action: 'addDj', roomUuid: '4b1d0a4e-5d1c-4f37-9a11-2c1e0b6c9d10' } }),
    );
    await eventually(async () => (socket.received.filter((m) => m.context === 'response').length >= 3 ? true : undefined));
    expect(socket.received.filter((m) => m.context === 'response')).toEqual([
      { context: 'response', error: 'Malformed message', code: 'FEED_MALFORMED_MESSAGE' },
      { context: 'response', messageId: 1, error: 'roomUuid must be a room uuid', code: 'FEED_INVALID_ACTION' },
      { context: 'response', messageId: 2, error: 'Join the room first.', code: 'FEED_NOT_JOINED' },
    ]);
    // A flood: past the burst, refusals; then the socket closes (1008).
    for (let i = 0; i < 20; i += 1) socket.ws.send(JSON.stringify({ event: 'detailsView', messageId: 100 + i }));
    expect((await socket.closed).code).toBe(1008);
    expect(socket.received.some((m) => m.error === 'Too many messages, slow down.' && m.code === 'FEED_TOO_MANY_MESSAGES')).toBe(true);

    const big = await rawSocket(feedUrl(me.accessToken));
    await big.opened;
    big.ws.send(JSON.stringify({ event: 'action', params: { pad: 'x'.repeat(4096) } }));
    expect((await big.closed).code).toBe(1009);

    const garbage = await rawSocket(feedUrl(me.accessToken));
    await garbage.opened;
    garbage.ws.send('{not json');
    expect((await garbage.closed).code).toBe(1007);
  });

  it('counts Primus strings (pongs) against the message budget: a flood of them closes the socket', async () => {
    const me = await signUp();
    const socket = await rawSocket(feedUrl(me.accessToken));
    await socket.opened;
    for (let i = 0; i < 20; i += 1) socket.ws.send(JSON.stringify(`primus::pong::${i}`));
    expect((await socket.closed).code).toBe(1008);
    expect(socket.received.some((m) => m.error === 'Too many messages, slow down.')).toBe(true);
  });
});
