import { describe, expect, it } from 'vitest';
import { isSameSong as serviceRule } from '../../services/playlist/src/domain/song';
import { duplicatesIn, findSameSong, isSameSong, type SongIdentity } from '../src/crates/sameness';

const song = (overrides: Partial<SongIdentity> = {}): SongIdentity => ({
  trackName: 'Midnight City',
  artistName: 'M83',
  duration: 243,
  ...overrides,
});
const other = (overrides: Partial<SongIdentity> = {}): SongIdentity => ({ trackName: 'x', artistName: 'y', duration: 1, ...overrides });

// Spec 002 §5, case by case: [what, a, b, same?].
const CASES: Array<[string, SongIdentity, SongIdentity, boolean]> = [
  ['the same crate entry', song({ crateSongUuid: 'c1' }), other({ crateSongUuid: 'c1' }), true],
  ['different crate entries, nothing else alike', song({ crateSongUuid: 'c1' }), other({ crateSongUuid: 'c2' }), false],
  ['the same songId', song({ songId: 's1' }), other({ songId: 's1' }), true],
  ['the same songShortId', song({ songShortId: 'ab' }), other({ songShortId: 'ab' }), true],
  ['the same isrc in another case', song({ isrc: 'gbumv1100047' }), other({ isrc: 'GBUMV1100047' }), true],
  [
    'a provider id in common',
    song({ musicProviders: { spotify: '6GyFP1' } }),
    other({ musicProviders: { apple: '9', spotify: '6GyFP1' } }),
    true,
  ],
  ['one id under two providers', song({ musicProviders: { spotify: '1' } }), other({ musicProviders: { apple: '1' } }), false],
  [
    'an upload named by its songId and the song catalogued from it',
    song({ musicProviders: { uploadService: 'u1' } }),
    other({ songId: 'cat', musicProviders: { uploadService: 'u1' } }),
    true,
  ],
  ['names in another case and spacing, 5 s apart', song(), song({ trackName: 'midnight city', artistName: ' m83 ', duration: 248 }), true],
  ['names equal, 6 s apart', song(), song({ duration: 249 }), false],
  ['another track name', song(), song({ trackName: 'Midnight City (Remix)' }), false],
  ['another artist', song(), song({ artistName: 'M84' }), false],
  ['empty ids are not ids', song({ songId: '', isrc: '', songShortId: '' }), other({ songId: '', isrc: '', songShortId: '' }), false],
  ['an empty provider id is not an id', song({ musicProviders: { youtube: '' } }), other({ musicProviders: { youtube: '' } }), false],
  ['a null isrc (the feed sends them)', song({ isrc: null }), other({ isrc: null }), false],
];

describe('song sameness (spec 002 §5)', () => {
  it.each(CASES)('%s', (_what, a, b, same) => {
    expect(isSameSong(a, b)).toBe(same);
    expect(isSameSong(b, a)).toBe(same);
  });

  it('is the rule the playlist service applies', () => {
    for (const [what, a, b] of CASES) {
      const asService = (s: SongIdentity) => ({ ...s, isrc: s.isrc ?? undefined });
      expect(serviceRule(asService(a), asService(b)), what).toBe(isSameSong(a, b));
    }
  });

  it('names the first same song of a list', () => {
    const list = [other({ songId: 'a' }), song({ duration: 245 }), song({ isrc: 'X' })];
    expect(findSameSong(song(), list)).toBe(list[1]);
    expect(findSameSong(other({ songId: 'b', trackName: 'z' }), list)).toBeUndefined();
  });

  it('marks each entry that repeats an earlier one, with the first it repeats', () => {
    const queue = [
      song({ crateSongUuid: 'e1', songId: 's1' }),
      other({ crateSongUuid: 'e2', songId: 's2', trackName: 'two' }),
      song({ crateSongUuid: 'e3', songId: 's1' }),
      other({ crateSongUuid: 'e4', songId: 's3', trackName: 'four', musicProviders: { spotify: 'p' } }),
      song({ crateSongUuid: 'e5', songId: 's4', duration: 240 }),
      other({ crateSongUuid: 'e6', songId: 's5', trackName: 'six', musicProviders: { spotify: 'p' } }),
    ];
    expect([...duplicatesIn(queue)]).toEqual([
      [2, 0],
      [4, 0],
      [5, 3],
    ]);
    expect(duplicatesIn(queue.slice(0, 2)).size).toBe(0);
  });
});
