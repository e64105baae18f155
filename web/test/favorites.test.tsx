import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Room } from '../src/api/types';
import { LobbyScreen } from '../src/rooms/LobbyScreen';
import { session } from '../src/session/session';

const room = (uuid: string, name: string): Room => ({ uuid, slug: uuid, name, design: 'CLUB', numberOfUsersInRoom: 0 }) as Room;

describe('favouriting in the lobby', () => {
  let favorites: Array<{ id: number; roomUuid: string }>;
  let release: () => void;
  beforeEach(() => {
    session.signIn('token', 'me', 'user');
    favorites = [];
    const club = room('r1', 'Club');
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const path = new URL(url, 'http://x').pathname;
        const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
        if (path.endsWith('/rooms/public')) return json({ rooms: [club], total: 1 });
        if (path.endsWith('/rooms/owned-rooms/list') || path.endsWith('/rooms/recent')) return json([club]);
        if (path.endsWith('/rooms/promoted-rooms')) return json([]);
        if (path.endsWith('/rooms/favorites')) return json(favorites.length ? [club] : []);
        if (path.endsWith('/room-favorites') && init?.method === 'POST') {
          // The server answers only when the test lets it: the flags must flip before.
          await new Promise<void>((r) => (release = r));
          favorites.push({ id: 1, roomUuid: 'r1' });
          return json({ id: 1, roomUuid: 'r1' }, 201);
        }
        if (path.endsWith('/room-favorites')) return json(favorites);
        return json({ statusCode: 404, message: 'Not Found', error: 'Not Found' }, 404);
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    session.signOut();
  });

  it('flips the flag in every list at once, then keeps it after the refresh', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <LobbyScreen />
      </QueryClientProvider>,
    );
    const stars = () => screen.queryAllByRole('button', { name: /favourites: Club/ });
    await waitFor(() => expect(stars()).toHaveLength(3)); // public, own, recent
    expect(stars().every((b) => b.getAttribute('aria-pressed') === 'false')).toBe(true);

    fireEvent.click(stars()[0]!);
    await waitFor(() => expect(stars()).toHaveLength(4)); // ... and now the favourites list
    expect(stars().every((b) => b.getAttribute('aria-pressed') === 'true')).toBe(true);
    expect(within(screen.getByRole('region', { name: 'Favourite rooms' })).getByText('Club')).toBeTruthy();

    await act(async () => release());
    await waitFor(() => expect(client.isFetching()).toBe(0));
    expect(stars()).toHaveLength(4);
    expect(stars().every((b) => b.getAttribute('aria-pressed') === 'true')).toBe(true);
  });
});
