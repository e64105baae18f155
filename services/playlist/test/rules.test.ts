import { describe, expect, it } from 'vitest';
import { newPlaylistName } from '../src/domain/crate.js';
import { moveItem, shuffle } from '../src/domain/positions.js';
import { isSameSong, SameSongSet, type SongIdentity } from '../src/domain/song.js';

const base = { trackName: 'Midnight City', artistName: 'M83', duration: 243 };

describe('song sameness (spec 002)', () => {
  it('matches on ids, isrc or a shared provider id', () => {
    expect(isSameSong({ ...base, crateSongUuid: 'c1' }, { trackName: 'x', artistName: 'y', duration: 1, crateSongUuid: 'c1' })).toBe(true);
    expect(isSameSong({ ...base, songId: 's1' }, { trackName: 'x', artistName: 'y', duration: 1, songId: 's1' })).toBe(true);
    expect(isSameSong({ ...base, songShortId: 'ab' }, { trackName: 'x', artistName: 'y', duration: 1, songShortId: 'ab' })).toBe(true);
    expect(isSameSong({ ...base, isrc: 'gbumv1100047' }, { trackName: 'x', artistName: 'y', duration: 1, isrc: 'GBUMV1100047' })).toBe(
      true,
    );
    expect(
      isSameSong(
        { ...base, musicProviders: { spotify: '6GyFP1' } },
        { trackName: 'x', artistName: 'y', duration: 1, musicProviders: { spotify: '6GyFP1', apple: '9' } },
      ),
    ).toBe(true);
    expect(
      isSameSong(
        { ...base, musicProviders: { spotify: '1' } },
        { trackName: 'x', artistName: 'y', duration: 1, musicProviders: { apple: '1' } },
      ),
    ).toBe(false);
  });

  it('matches names case-insensitively within 5 seconds, and not beyond', () => {
    expect(isSameSong(base, { trackName: 'midnight city', artistName: 'm83 ', duration: 248 })).toBe(true);
    expect(isSameSong(base, { trackName: 'Midnight City', artistName: 'M83', duration: 249 })).toBe(false);
    expect(isSameSong(base, { trackName: 'Midnight City (Remix)', artistName: 'M83', duration: 243 })).toBe(false);
    expect(isSameSong({ ...base, isrc: '' }, { ...base, duration: 100, isrc: '' })).toBe(false);
  });
});

describe('a set of songs under the sameness rule', () => {
  // Songs that share one thing each with some others: ids, isrc, provider ids, names and durations.
  const songs: SongIdentity[] = [
    { trackName: 'Midnight City', artistName: 'M83', duration: 243, songId: 'a', isrc: 'GBUMV1100047' },
    { trackName: 'midnight city ', artistName: 'm83', duration: 247 },
    { trackName: 'Midnight City', artistName: 'M83', duration: 250, musicProviders: { spotify: 'sp1' } },
    { trackName: 'Other', artistName: 'Band', duration: 100, musicProviders: { apple: 'sp1' } },
    { trackName: 'Other', artistName: 'Band', duration: 300, isrc: 'gbumv1100047' },
    { trackName: 'Third', artistName: 'Band', duration: 10, songShortId: 'short' },
    { trackName: 'Fourth', artistName: 'Band', duration: 10, songShortId: 'short', musicProviders: { spotify: 'sp1' } },
    { trackName: 'Fifth', artistName: 'Band', duration: 10, songId: '', isrc: '', musicProviders: { youtube: '' } },
    { trackName: 'Sixth', artistName: 'Band', duration: 10, songId: '', isrc: '', musicProviders: { youtube: '' } },
  ];

  it('answers has() as isSameSong does against any song in it', () => {
    for (let split = 0; split <= songs.length; split += 1) {
      const set = new SameSongSet(songs.slice(0, split));
      for (const song of songs) {
        expect(set.has(song), `${song.trackName} among the first ${split}`).toBe(songs.slice(0, split).some((s) => isSameSong(s, song)));
      }
    }
  });
});

describe("'New Playlist #' naming", () => {
  it('takes the lowest free positive number', () => {
    expect(newPlaylistName([])).toBe('New Playlist #1');
    expect(newPlaylistName(['New Playlist #1', 'New Playlist #2', 'Queue'])).toBe('New Playlist #3');
    expect(newPlaylistName(['New Playlist #2', 'New Playlist #3'])).toBe('New Playlist #1');
    expect(newPlaylistName(['New Playlist #1', 'New Playlist #3', 'New Playlist #x'])).toBe('New Playlist #2');
  });
});

describe('positions', () => {
  it('moves an item and keeps the rest in order', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 1, 99)).toEqual(['a', 'c', 'b']);
  });

  it('shuffles a permutation of the same items', () => {
    const items = Array.from({ length: 50 }, (_, i) => i);
    const shuffled = shuffle(items);
    expect([...shuffled].sort((a, b) => a - b)).toEqual(items);
    expect(shuffled).not.toEqual(items); // 1 in 50! to fail
  });
});
