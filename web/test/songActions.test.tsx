import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Crate, Song } from '../src/api/types';
import { grabTargets, LIKES, songToAdd, uploadAsSong } from '../src/crates/music';
import { PlayingSong, QueueStart } from '../src/crates/RoomMusic';
import { SongActions } from '../src/crates/SongActions';
import { session } from '../src/session/session';

const song = (trackName: string, extra: Partial<Song> = {}): Song => ({ trackName, artistName: 'Band', duration: 200, ...extra });
const mine: Crate = { crateUuid: '11111111-1111-4111-8111-111111111111', crateName: 'Road trip', userUuid: 'me', special: '' };

describe('what to send and where to grab', () => {
  it('adds by catalogue id, else as the provider knows the song', () => {
    expect(songToAdd(song('A', { songId: 'cat-1', musicProviders: { spotify: 'sp' } }))).toEqual({ songId: 'cat-1' });
    expect(songToAdd(song('A', { songId: 'cat-1', musicProviders: { spotify: 'sp' }, isrc: 'X1' }), 'spotify')).toEqual({
      musicProvider: 'spotify',
      songId: 'sp',
      trackName: 'A',
      artistName: 'Band',
      duration: 200,
      isrc: 'X1',
    });
    // A played song without a catalogue id: its first provider.
    expect(songToAdd(song('A', { musicProviders: { youtube: 'yt' } }))).toMatchObject({ musicProvider: 'youtube', songId: 'yt' });
  });

  it('grabs into likes first, then the own crates, never the queue', () => {
    expect(grabTargets(undefined)).toEqual([LIKES]);
    const queue = { ...mine, crateUuid: 'q', special: 'queue' as const };
    const likes = { ...mine, crateUuid: 'l', crateName: 'Likes', special: 'likes' as const };
    expect(grabTargets([queue, likes, mine]).map((c) => c.crateUuid)).toEqual(['l', mine.crateUuid]);
  });

  it('takes an upload as the song catalogued from it', () => {
    expect(
      uploadAsSong({ songId: 'u1', trackName: null, artistName: null, duration: 40, status: 'VERIFIED', fileName: 'a.mp3', createdAt: '' }),
    ).toEqual({ trackName: 'a.mp3', artistName: '', duration: 40, musicProviders: { uploadService: 'u1' } });
  });
});

describe('adding and grabbing songs', () => {
  let queue: Song[];
  let posts: Array<{ path: string; body: { songs: unknown[] } }>;
  let puts: string[];
  let notFoundFirst: number;

  beforeEach(() => {
    session.signIn('token', 'me', 'user');
    queue = [song('Already here', { songId: 'q1', isrc: 'GB1', crateSongUuid: 'e1' })];
    posts = [];
    puts = [];
    notFoundFirst = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const { pathname: path, search } = new URL(url, 'http://x');
        const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
        if (path.endsWith('/crate/user')) return json({ crates: [mine], count: 1 });
        if (init?.method === 'POST' && path.endsWith('/songs')) {
          if (notFoundFirst > 0) {
            notFoundFirst -= 1;
            return json({ statusCode: 404, message: 'Song not found', error: 'Not Found' }, 404);
          }
          posts.push({ path, body: JSON.parse(init.body as string) });
          return json({ songs: [], count: 1 }, 201);
        }
        if (path.endsWith('/crate/special/queue/songs')) return json({ songs: queue, count: queue.length });
        if (path.endsWith('/songs')) return json({ songs: [], count: 0 });
        if (path.endsWith('/crate/public')) return json({ crates: [{ ...mine, crateName: 'Demo', crateSongsNumber: 2 }], total: 1 });
        if (init?.method === 'PUT' && path.endsWith('/copy')) {
          puts.push(`${path}${search}`);
          return json({ ...mine, special: 'queue', crateSongsNumber: 2, songsAdded: 2 }, 201);
        }
        return json({ statusCode: 404, message: 'Not Found', error: 'Not Found' }, 404);
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    session.signOut();
  });
  const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrap = (node: ReactNode, queries = client()) => render(<QueryClientProvider client={queries}>{node}</QueryClientProvider>);

  it('adds a new song to the queue at once', async () => {
    wrap(<SongActions song={song('Fresh', { songId: 'f1' })} toAdd={{ songId: 'f1' }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add to queue: Fresh' }));
    await screen.findByRole('status');
    expect(posts).toEqual([{ path: '/api/playlist-service/crate/special/queue/songs', body: { songs: [{ songId: 'f1' }], append: true } }]);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('warns before adding a song the queue already has, by the sameness rule, and adds it only when asked again', async () => {
    // Another id, the same isrc: the same song.
    wrap(<SongActions song={song('Same isrc', { songId: 'other', isrc: 'gb1' })} toAdd={{ songId: 'other' }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add to queue: Same isrc' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('is already in Your queue (as Already here — Band)');
    expect(posts).toEqual([]);
    fireEvent.click(within(alert).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(posts).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Add to queue: Same isrc' }));
    fireEvent.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Add anyway' }));
    await screen.findByRole('status');
    expect(posts).toHaveLength(1);
  });

  it('grabs into likes by default, or into the crate chosen', async () => {
    wrap(<SongActions song={song('Snag me', { songId: 's1' })} toAdd={{ songId: 's1' }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Grab: Snag me' }));
    const form = screen.getByRole('form', { name: 'Grab: Snag me' });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByRole('status');
    expect(posts.map((p) => p.path)).toEqual(['/api/playlist-service/crate/special/likes/songs']);

    fireEvent.click(screen.getByRole('button', { name: 'Grab: Snag me' }));
    const again = screen.getByRole('form', { name: 'Grab: Snag me' });
    await waitFor(() => expect(within(again).getAllByRole('option')).toHaveLength(2));
    fireEvent.change(within(again).getByLabelText('Save to'), { target: { value: mine.crateUuid } });
    fireEvent.click(within(again).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(posts.map((p) => p.path)).toContain(`/api/playlist-service/crate/${mine.crateUuid}/songs`));
  });

  it('waits for a just-verified upload to reach the catalogue (the add answers 404 until it has)', async () => {
    notFoundFirst = 1;
    const upload = {
      songId: 'u1',
      trackName: 'Mine',
      artistName: 'Me',
      duration: 40,
      status: 'VERIFIED',
      fileName: 'm.mp3',
      createdAt: '',
    };
    wrap(<SongActions song={uploadAsSong(upload)} toAdd={{ songId: 'u1' }} addText="Add to my queue" waitForCatalogue />);
    fireEvent.click(screen.getByRole('button', { name: 'Add to my queue: Mine' }));
    await waitFor(() => expect(posts).toHaveLength(1), { timeout: 3000 });
    expect(posts[0]!.body.songs).toEqual([{ songId: 'u1' }]);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers public crates beside an empty queue: one click puts one in the queue, then says to take a seat', async () => {
    const queries = client();
    const view = wrap(<QueueStart queue={[]} seated={false} />, queries);
    fireEvent.click(await screen.findByRole('button', { name: 'Add to my queue: Demo' }));
    await waitFor(() => expect(puts).toEqual([`/api/playlist-service/crate/${mine.crateUuid}/copy?into=queue`]));
    // The queue refreshes with the songs: the offer goes, the next step shows until the seat is taken.
    const withQueue = (seated: boolean) => (
      <QueryClientProvider client={queries}>
        <QueueStart queue={[song('A')]} seated={seated} />
      </QueryClientProvider>
    );
    view.rerender(withQueue(false));
    expect(screen.queryByRole('button', { name: 'Add to my queue: Demo' })).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Songs from Demo are in your queue: take a seat to play them.');
    view.rerender(withQueue(true));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('offers nothing beside an empty queue when there is no public crate', async () => {
    const empty = vi.fn(async () => new Response(JSON.stringify({ crates: [], total: 0 }), { status: 200 }));
    vi.stubGlobal('fetch', empty);
    const view = wrap(<QueueStart queue={[]} seated={false} />);
    await waitFor(() => expect(empty).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(view.container.innerHTML).toBe('');
  });

  it('offers the playing song to add or grab', () => {
    wrap(<PlayingSong playing={song('On air', { songId: 'p1' })} />);
    const region = screen.getByRole('region', { name: 'The song playing: On air' });
    expect(within(region).getByRole('button', { name: 'Add to queue: On air' })).toBeTruthy();
    expect(within(region).getByRole('button', { name: 'Grab: On air' })).toBeTruthy();
  });
});
