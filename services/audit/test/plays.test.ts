// The audit service's plain rules: what a play counts for, and which
// /kinesis records are taken (spec 002 "Play tracking" and "Audit and analytics").
import { randomUUID } from 'node:crypto';
import type { Caller } from '@spinroom/platform';
import { describe, expect, it } from 'vitest';
import { validateRecord } from '../src/domain/analytics.js';
import { firstOfEachPlay, playDelta, playedSeconds, type PlayEvent } from '../src/domain/plays.js';
import { playRecord } from './support.js';

const caller = (userUuid = randomUUID(), kind: Caller['kind'] = 'user'): Caller => ({
  userUuid,
  role: kind === 'guest' ? 'guest' : 'user',
  kind,
  capabilities: [],
  token: '',
});

function play(kind: PlayEvent['kind'], overrides: Partial<PlayEvent> = {}): PlayEvent {
  return {
    kind,
    playId: 'p1',
    userUuid: 'u1',
    songId: 's1',
    djUuid: 'd1',
    roomSlug: 'r1',
    startedDate: new Date(0),
    updatedDate: new Date(100_000),
    duration: 0,
    ...overrides,
  };
}

const status = (run: () => unknown) => {
  try {
    run();
    return 'ok';
  } catch (error) {
    return `${(error as { status?: number }).status} ${(error as Error).message}`;
  }
};

describe('play totals', () => {
  it("counts the time listened up to the song's length and 5 s, never below 0 nor above a day", () => {
    expect(playedSeconds({ startedDate: new Date(0), updatedDate: new Date(40_000), duration: 30 })).toBe(35);
    expect(playedSeconds({ startedDate: new Date(0), updatedDate: new Date(20_400), duration: 30 })).toBe(20);
    expect(playedSeconds({ startedDate: new Date(10_000), updatedDate: new Date(0), duration: 0 })).toBe(0);
    expect(playedSeconds({ startedDate: new Date(0), updatedDate: new Date(3 * 86_400_000), duration: 0 })).toBe(86_400);
  });

  it('adds a play per kind, and the time listened for total-played events only', () => {
    expect(playDelta(play('totalPlayed'))).toEqual({ totalPlayed: 1, playedSeconds: 100, fifteenSecondPlays: 0, thirtySecondPlays: 0 });
    expect(playDelta(play('played15Sec'))).toEqual({ totalPlayed: 0, playedSeconds: 0, fifteenSecondPlays: 1, thirtySecondPlays: 0 });
    expect(playDelta(play('played30Sec'))).toEqual({ totalPlayed: 0, playedSeconds: 0, fifteenSecondPlays: 0, thirtySecondPlays: 1 });
  });

  it('keeps the first of each play id and kind within a batch', () => {
    const events = [play('totalPlayed'), play('totalPlayed'), play('played15Sec'), play('totalPlayed', { playId: 'p2' })];
    expect(firstOfEachPlay(events).map((e) => `${e.playId}/${e.kind}`)).toEqual(['p1/totalPlayed', 'p1/played15Sec', 'p2/totalPlayed']);
  });
});

describe('/kinesis records', () => {
  it('takes a play of its caller with device data, and refuses other users, other topics and broken records', () => {
    const me = caller();
    const record = playRecord(me.userUuid, 'totalPlayed');
    expect(validateRecord(me, 'play-tracking', JSON.stringify(record))).toMatchObject({ topic: 'play-tracking', userUuid: me.userUuid });
    expect(status(() => validateRecord(me, 'play-tracking', JSON.stringify(playRecord(randomUUID(), 'totalPlayed'))))).toBe(
      '403 A record may only be sent for its own user',
    );
    expect(status(() => validateRecord(me, 'clicks', JSON.stringify(record)))).toBe(
      '400 topic: must be one of play-tracking, page-views, app-events',
    );
    expect(status(() => validateRecord(me, 'play-tracking', '{'))).toBe('400 record: must be a JSON object');
    expect(status(() => validateRecord(me, 'play-tracking', JSON.stringify({ ...record, device: undefined })))).toMatch(/^400 /);
    expect(status(() => validateRecord(me, 'play-tracking', JSON.stringify({ ...record, playId: '' })))).toMatch(/^400 /);
    expect(status(() => validateRecord(me, 'play-tracking', 'x'.repeat(20_000)))).toBe('400 record: at most 16384 bytes of JSON');
    const service: Caller = { ...caller(), kind: 'service', role: 'service' };
    expect(status(() => validateRecord(service, 'play-tracking', JSON.stringify(record)))).toBe('403 Records come from users');
  });

  it("checks a play's times: in order, not ahead of now, long enough for its event", () => {
    const me = caller();
    const now = new Date('2026-01-01T00:01:00Z');
    const at = (event: 'totalPlayed' | 'played15Sec' | 'played30Sec', startedSecondsAgo: number, updatedSecondsAgo = 0) =>
      JSON.stringify(
        playRecord(me.userUuid, event, {
          startedDate: new Date(now.getTime() - startedSecondsAgo * 1000).toISOString(),
          updatedDate: new Date(now.getTime() - updatedSecondsAgo * 1000).toISOString(),
        }),
      );
    expect(status(() => validateRecord(me, 'play-tracking', at('played15Sec', 10), now))).toBe('ok');
    expect(status(() => validateRecord(me, 'play-tracking', at('played15Sec', 9), now))).toBe(
      '400 record: a 15-second play needs 10 s played',
    );
    expect(status(() => validateRecord(me, 'play-tracking', at('played30Sec', 25), now))).toBe('ok');
    expect(status(() => validateRecord(me, 'play-tracking', at('played30Sec', 24), now))).toBe(
      '400 record: a 30-second play needs 25 s played',
    );
    expect(status(() => validateRecord(me, 'play-tracking', at('totalPlayed', 5, 10), now))).toBe(
      '400 record.updatedDate: must not be before startedDate',
    );
    expect(status(() => validateRecord(me, 'play-tracking', at('totalPlayed', 0, -600), now))).toBe(
      '400 record.updatedDate: must not be in the future',
    );
    // Milliseconds since 1970 are dates too.
    const millis = { ...JSON.parse(at('totalPlayed', 60)), startedDate: now.getTime() - 60_000, updatedDate: now.getTime() };
    expect(status(() => validateRecord(me, 'play-tracking', JSON.stringify(millis), now))).toBe('ok');
  });

  it('takes page views and app events of guests too, for their own user', () => {
    const guest = caller(randomUUID(), 'guest');
    const view = validateRecord(guest, 'page-views', JSON.stringify({ path: '/rooms/x', query: { a: '1' }, device: {} }));
    expect(view).toMatchObject({ topic: 'page-views', userUuid: guest.userUuid, name: '/rooms/x', properties: { a: '1' } });
    expect(status(() => validateRecord(guest, 'page-views', JSON.stringify({ path: 'rooms', device: {} })))).toMatch(/^400 /);
    expect(validateRecord(guest, 'app-events', JSON.stringify({ name: 'shop.opened', device: { os: 'iOS' } }))).toMatchObject({
      topic: 'app-events',
      name: 'shop.opened',
    });
    expect(status(() => validateRecord(guest, 'app-events', JSON.stringify({ name: 'has space', device: {} })))).toMatch(/^400 /);
  });
});
