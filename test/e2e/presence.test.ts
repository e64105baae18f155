// Presence that is true (issue 15): someone who leaves on purpose (the leave
// button, a closed tab, a reload: a socket their client closes plainly, or the
// feed's roomLeave) is off the floor at once for everyone else; only a dropped
// connection (no close frame) keeps them for the grace period, in case they
// come back. The grace here is 4 s, long enough to tell the two apart.
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, usePlatform } from '../support/platform.js';

const GRACE_MS = 4_000;
type Json = any;

/** A bare feed socket (the `ws` package), so a test can drop it without a close frame. */
async function bareJoin(baseUrl: string, token: string, roomUuid: string): Promise<WebSocket> {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/primus?token=${encodeURIComponent(token)}&_primuscb=t`);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const answered = new Promise<Json>((resolve) => {
    ws.on('message', (data: Buffer) => {
      const frame: Json = JSON.parse(data.toString('utf8'));
      if (frame?.context === 'response' && frame.messageId === 1) resolve(frame);
    });
  });
  ws.send(JSON.stringify({ event: 'action', params: { action: 'joinRoom', roomUuid }, messageId: 1 }));
  const answer = await answered;
  expect(answer.error, JSON.stringify(answer)).toBeUndefined();
  return ws;
}

describe('presence in a live room', () => {
  const { call, platform } = usePlatform({ room: { LIVE_LEAVE_GRACE_MS: GRACE_MS } });
  const open: Array<{ close(): void }> = [];
  afterEach(() => {
    for (const o of open.splice(0)) o.close();
  });

  const person = async () => {
    const body = (
      await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'a long enough passphrase 7' } })
    ).body as { accessToken: string; userUuid: string };
    return { token: body.accessToken, uuid: body.userUuid };
  };
  const roomOf = async (token: string) => {
    const created = await call('POST', '/api/room-service/rooms/infrastructure', { token, body: { name: `Presence ${Math.random()}` } });
    expect(created.status).toBe(201);
    return created.body.uuid as string;
  };
  const listen = async (who: { token: string; uuid: string }, roomUuid: string) => {
    const listener = await FeedListener.join(platform().baseUrl, who.token, who.uuid, roomUuid);
    open.push(listener);
    return listener;
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('takes someone who closes their socket off the floor before the grace period ends', async () => {
    const owner = await person();
    const walker = await person();
    const roomUuid = await roomOf(owner.token);
    const o = await listen(owner, roomUuid);
    const w = await listen(walker, roomUuid);
    await o.until((s) => !!s.allUserData[walker.uuid], 'walker joined');
    const closedAt = Date.now();
    w.close();
    await o.until((s) => !s.allUserData[walker.uuid] && !s.floorUsers.some((u: Json) => u.uuid === walker.uuid), 'walker gone');
    // Gone well before a grace period would have let them go.
    expect(Date.now() - closedAt).toBeLessThan(GRACE_MS / 2);
    expect(o.named('userLeft')).toHaveLength(1);
  });

  it("takes someone off the floor at once on the feed's roomLeave", async () => {
    const owner = await person();
    const walker = await person();
    const roomUuid = await roomOf(owner.token);
    const o = await listen(owner, roomUuid);
    const ws = await bareJoin(platform().baseUrl, walker.token, roomUuid);
    open.push(ws);
    await o.until((s) => !!s.allUserData[walker.uuid], 'walker joined');
    const leftAt = Date.now();
    ws.send(JSON.stringify({ event: 'roomLeave', params: { roomUuid }, messageId: 2 }));
    await o.until((s) => !s.allUserData[walker.uuid], 'walker gone');
    expect(Date.now() - leftAt).toBeLessThan(GRACE_MS / 2);
  });

  it('keeps someone whose connection dropped for the grace period, then lets them go', async () => {
    const owner = await person();
    const dropper = await person();
    const roomUuid = await roomOf(owner.token);
    const o = await listen(owner, roomUuid);
    const ws = await bareJoin(platform().baseUrl, dropper.token, roomUuid);
    await o.until((s) => !!s.allUserData[dropper.uuid], 'dropper joined');
    ws.terminate(); // the TCP connection ends without a close frame, as a lost network does
    await sleep(GRACE_MS / 2);
    expect(o.state.allUserData[dropper.uuid], 'still there within the grace period').toBeDefined();
    expect(o.named('userLeft')).toHaveLength(0);
    await o.until((s) => !s.allUserData[dropper.uuid], 'dropper gone after the grace period');
  });
});
