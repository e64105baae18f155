import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RoomState, Song } from '../src/api/types';
import type { Heard } from '../src/playback/heard';
import type { PlayEvent, PlayRecord } from '../src/tracking/playTracker';
import { trackRoomPlays } from '../src/tracking/roomTracking';
import { emptyState } from './fixtures';

const DJ = '11111111-1111-4111-8111-111111111111';
const ME = '22222222-2222-4222-8222-222222222222';
const song = (songId: string): Song => ({
  songId,
  trackName: `Track ${songId}`,
  artistName: 'Artist',
  duration: 200,
  isrc: 'USAAA0000001',
  musicProviders: { spotify: 'sp1', youtube: 'yt1' },
});

function harness(initial?: { state: RoomState; heard?: Heard }) {
  let state: RoomState | undefined = initial?.state;
  let heard: Heard | undefined = initial?.heard;
  let volume = 0.8;
  const changes = new Set<(h: Heard | undefined) => void>();
  const sent: Array<[PlayEvent, PlayRecord]> = [];
  const stop = trackRoomPlays({
    roomSlug: 'club',
    roomOwnerUuid: DJ,
    userUuid: ME,
    state: () => state,
    volume: () => volume,
    subscriptionLevel: 'gold',
    send: (event, record) => sent.push([event, record]),
    heard: () => heard,
    onHeardChange: (listener) => {
      changes.add(listener);
      return () => changes.delete(listener);
    },
  });
  return {
    sent,
    stop,
    listeners: changes,
    /** The room plays a song (its end time) and the player reports what it hears. */
    play(songId: string, endTime: number, provider = 'spotify', playing: Song = song(songId)) {
      state = emptyState({
        djs: [{ uuid: DJ }],
        nowPlaying: { song: playing, startTime: endTime - 200_000, endTime },
      });
      heard = { provider, preview: false, endTime, songId };
      for (const l of changes) l(heard);
    },
    silence() {
      heard = undefined;
      for (const l of changes) l(undefined);
    },
    setVolume(v: number) {
      volume = v;
    },
  };
}

describe('play tracking in a room', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.parse('2026-11-26T10:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('reports what the listener hears: 15 s, 30 s and the total, with the DJ, the provider heard and the subscription level', () => {
    const h = harness();
    h.play('s1', Date.now() + 200_000, 'youtube');
    vi.advanceTimersByTime(20_000);
    h.setVolume(0.5);
    vi.advanceTimersByTime(20_000);
    h.silence();
    expect(h.sent.map(([event]) => event)).toEqual(['played15Sec', 'played30Sec', 'totalPlayed']);
    const [, total] = h.sent[2]!;
    expect(total).toMatchObject({
      userUuid: ME,
      roomSlug: 'club',
      roomOwnerUuid: DJ,
      djUuid: DJ,
      userProvider: 'youtube',
      subscriptionLevel: 'gold',
      volumeStart: 80,
      volumeEnd: 50,
      songInfo: { songId: 's1', trackName: 'Track s1', duration: 200, musicProvider: 'spotify', isrc: 'USAAA0000001' },
    });
    expect(Date.parse(total.updatedDate) - Date.parse(total.startedDate)).toBe(40_000);
    // One play id for all three events.
    expect(new Set(h.sent.map(([, r]) => r.playId)).size).toBe(1);
  });

  it('makes the same song played again (a new end time) a new play, and ends the old one first', () => {
    const h = harness();
    const end = Date.now() + 5_000;
    h.play('s1', end);
    vi.advanceTimersByTime(5_000);
    h.play('s1', end + 200_000);
    vi.advanceTimersByTime(12_000);
    h.stop();
    const events = h.sent.map(([event, r]) => `${event}:${r.playId}`);
    expect(events).toHaveLength(3);
    expect(events[0]).toMatch(/^totalPlayed:/);
    expect(events[1]).toMatch(/^played15Sec:/);
    expect(h.sent[0]![1].playId).not.toBe(h.sent[1]![1].playId);
    expect(h.sent[2]![0]).toBe('totalPlayed');
  });

  it('leaves out what the catalogue answers as null (an upload has no ISRC)', () => {
    const h = harness();
    const upload: Song = { ...song('up1'), isrc: null as unknown as string, musicProviders: { uploadService: 'up1' } };
    h.play('up1', Date.now() + 100_000, 'uploadService', upload);
    h.stop();
    expect(h.sent[0]![1].songInfo).toEqual({
      songId: 'up1',
      trackName: 'Track up1',
      artistName: 'Artist',
      duration: 200,
      musicProvider: 'uploadService',
      isrc: undefined,
    });
    expect(JSON.stringify(h.sent[0]![1].songInfo)).not.toContain('isrc');
  });

  it('picks up a song already sounding when it starts, and stops listening when stopped', () => {
    const endTime = Date.now() + 100_000;
    const state = emptyState({
      djs: [{ uuid: DJ }],
      nowPlaying: { song: song('s9'), startTime: endTime - 200_000, endTime },
    });
    const h = harness({ state, heard: { provider: 'apple', preview: false, endTime, songId: 's9' } });
    h.stop();
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]![1]).toMatchObject({ userProvider: 'apple', songInfo: { songId: 's9' } });
    expect(h.listeners.size).toBe(0);
  });

  it('tracks nothing it cannot name: no DJ, a song without an id, or what the room no longer plays', () => {
    const h = harness();
    const endTime = Date.now() + 100_000;
    // The player still reports a song whose end time the room has moved past.
    h.play('s1', endTime);
    h.silence();
    h.sent.length = 0;
    for (const l of h.listeners) l({ provider: 'spotify', preview: false, endTime: endTime + 1, songId: 's1' });
    for (const l of h.listeners) l({ provider: 'spotify', preview: false, endTime });
    vi.advanceTimersByTime(40_000);
    h.stop();
    expect(h.sent).toEqual([]);
  });
});
