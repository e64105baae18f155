import { describe, expect, it } from 'vitest';
import { PlayTracker, type PlayEvent, type PlayRecord } from '../src/tracking/playTracker';

const context = { roomSlug: 'room', djUuid: 'dj', song: { songId: 'song-1', trackName: 'One', duration: 200 } };
const listener = { userUuid: 'me', userProvider: 'youtube', subscriptionLevel: '' };

function tracker() {
  let now = Date.parse('2026-11-26T10:00:00Z');
  let ids = 0;
  const sent: Array<[PlayEvent, PlayRecord]> = [];
  const t = new PlayTracker(
    (event, record) => sent.push([event, record]),
    () => now,
    () => `play-${++ids}`,
  );
  const advance = (seconds: number) => {
    now += seconds * 1000;
  };
  return { t, sent, advance };
}

describe('play tracking', () => {
  it('sends the 15-second event once in 10-20 s, the 30-second one once in 25-35 s, and the total at the end', () => {
    const { t, sent, advance } = tracker();
    t.start(context, listener, 0.5);
    for (let s = 0; s < 40; s += 1) {
      advance(1);
      t.progress('room', 'song-1', s < 20 ? 0.5 : 0.8);
    }
    t.end('room', 'song-1');
    expect(sent.map(([event]) => event)).toEqual(['played15Sec', 'played30Sec', 'totalPlayed']);
    const total = sent[2]![1];
    expect(total).toMatchObject({
      playId: 'play-1',
      userUuid: 'me',
      roomSlug: 'room',
      djUuid: 'dj',
      volumeStart: 50,
      volumeEnd: 80,
      sent15sec: true,
      sent30sec: true,
      userProvider: 'youtube',
      startedDate: '2026-11-26T10:00:00.000Z',
      updatedDate: '2026-11-26T10:00:40.000Z',
    });
    expect(sent[0]![1]).toMatchObject({ sent15sec: true, sent30sec: false, updatedDate: '2026-11-26T10:00:10.000Z' });
  });

  it('sends nothing for a window the player was not heard from in, and ignores other rooms and songs', () => {
    const { t, sent, advance } = tracker();
    t.start(context, listener, 1);
    advance(21); // throttled past the 15-second window
    t.progress('room', 'song-1', 1);
    advance(5);
    t.progress('elsewhere', 'song-1', 1);
    t.progress('room', 'song-2', 1);
    t.end('room', 'song-2');
    expect(sent).toEqual([]);
    t.progress('room', 'song-1', 1);
    expect(sent.map(([event]) => event)).toEqual(['played30Sec']);
  });

  it('closes the open record when another song starts, and does not restart the same one', () => {
    const { t, sent, advance } = tracker();
    t.start(context, listener, 1);
    advance(3);
    t.start(context, listener, 1); // the same song again: one record
    advance(3);
    t.start({ ...context, song: { songId: 'song-2' } }, listener, 1);
    expect(sent.map(([event, record]) => [event, record.playId, record.songInfo.songId])).toEqual([['totalPlayed', 'play-1', 'song-1']]);
    expect(t.current?.playId).toBe('play-2');
  });
});
