import { describe, expect, it } from 'vitest';
import type { Song } from '../src/api/types';
import { moveSong, newPlaylistName, optimisticEdit, positionsDiffer, removeSong } from '../src/crates/crateEdits';

const songs = (...names: string[]): Song[] =>
  names.map((n, i) => ({ trackName: n, artistName: 'a', duration: 1, crateSongUuid: n, position: i }));
const order = (list: Song[] | undefined) => list?.map((s) => `${s.position}:${s.trackName}`);

describe('crate edits', () => {
  it('moves a song and renumbers positions densely', () => {
    expect(order(moveSong(songs('a', 'b', 'c', 'd'), 'd', 1))).toEqual(['0:a', '1:d', '2:b', '3:c']);
    expect(order(moveSong(songs('a', 'b', 'c'), 'a', 99))).toEqual(['0:b', '1:c', '2:a']);
    expect(order(removeSong(songs('a', 'b', 'c'), 'b'))).toEqual(['0:a', '1:c']);
  });

  it('applies an edit at once and keeps it when the server agrees', async () => {
    let cache: Song[] | undefined = songs('a', 'b', 'c');
    let refetch = false;
    let resolveSend!: (s: Song[]) => void;
    const done = optimisticEdit({
      read: () => cache,
      write: (s) => (cache = s),
      next: (s) => moveSong(s, 'c', 0),
      send: () => new Promise<Song[]>((r) => (resolveSend = r)),
      settle: (answer, optimistic) => (refetch = positionsDiffer(optimistic, answer)),
    });
    expect(order(cache)).toEqual(['0:c', '1:a', '2:b']); // before the server answers
    resolveSend(moveSong(songs('a', 'b', 'c'), 'c', 0));
    await done;
    expect(order(cache)).toEqual(['0:c', '1:a', '2:b']);
    expect(refetch).toBe(false);
  });

  it('rolls back on error', async () => {
    let cache: Song[] | undefined = songs('a', 'b', 'c');
    await expect(
      optimisticEdit({
        read: () => cache,
        write: (s) => (cache = s),
        next: (s) => moveSong(s, 'c', 0),
        send: () => Promise.reject(new Error('409')),
      }),
    ).rejects.toThrow('409');
    expect(order(cache)).toEqual(['0:a', '1:b', '2:c']);
  });

  it('asks for a refetch when the server positions differ', () => {
    const local = moveSong(songs('a', 'b', 'c'), 'c', 0);
    expect(positionsDiffer(local, songs('a', 'c', 'b'))).toBe(true);
    expect(positionsDiffer(local, local)).toBe(false);
    expect(positionsDiffer(local, songs('a', 'b'))).toBe(true);
  });

  it("names a new playlist 'New Playlist #' plus the lowest free number", () => {
    expect(newPlaylistName([])).toBe('New Playlist #1');
    expect(newPlaylistName([{ crateName: 'New Playlist #1' }, { crateName: 'New Playlist #3' }, { crateName: 'Queue' }])).toBe(
      'New Playlist #2',
    );
  });
});
