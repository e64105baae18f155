import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RankingStatus } from '../src/api/points';
import { href, parseRoute } from '../src/app/router';
import { setLocale } from '../src/i18n/i18n';
import { pageSpan, RankingScreen } from '../src/ranking/RankingScreen';
import { session } from '../src/session/session';

const ME = '99999999-9999-4999-8999-999999999999';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const status = (userUuid: string, rank: number): RankingStatus => ({
  id: `s${rank}`,
  userUuid,
  seasonId: 'season',
  seasonName: 'Autumn',
  balance: 1000 - rank,
  rank,
});

describe('the season ranking', () => {
  let requests: string[];
  let mine: number;
  let noSeason: boolean;
  beforeEach(() => {
    session.signIn('token', ME, 'user');
    requests = [];
    mine = 25;
    noSeason = false;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const { pathname, searchParams } = new URL(url, 'http://x');
        requests.push(`${pathname}?${searchParams.toString()}`);
        const json = (body: unknown, s = 200) => new Response(JSON.stringify(body), { status: s });
        if (pathname.endsWith('/points/season-ranking-current')) {
          if (noSeason) return json({ statusCode: 404, message: 'There is no current season' }, 404);
          const skip = Number(searchParams.get('skip'));
          const take = Number(searchParams.get('take'));
          const all = Array.from({ length: 30 }, (_, i) => status(i + 1 === mine ? ME : uuid(i + 1), i + 1));
          return json({
            season: { id: 'season', name: 'Autumn', start: '2026-09-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
            total: 30,
            rankings: all.slice(skip, skip + take),
            me: all[mine - 1],
          });
        }
        if (pathname.endsWith('/users/profiles')) {
          if (searchParams.getAll('users').length > 20) return json({ message: ['users: Invalid input'] }, 400);
          return json(
            searchParams.getAll('users').map((u) => ({
              userProfile: { uuid: u, nickname: u === ME ? 'Ana' : `DJ ${u.slice(-2)}`, avatarId: 'default', color: '#8B5CF6' },
            })),
          );
        }
        return json({ message: 'Not Found' }, 404);
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    session.signOut();
    setLocale('en');
  });
  const show = () =>
    render(
      <QueryClientProvider client={new QueryClient()}>
        <RankingScreen />
      </QueryClientProvider>,
    );

  it('pins the own place above a page that does not hold it, and marks it in the page that does', async () => {
    show();
    const list = await screen.findByRole('list', { name: 'Places 1 to 20' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
    const pinned = screen.getByRole('region', { name: 'Your place' });
    await within(pinned).findByText('Ana');
    expect(within(pinned).getByRole('listitem').textContent).toContain('#25');
    expect(within(pinned).getByRole('listitem').getAttribute('aria-current')).toBe('true');
    screen.getByText('1–20 of 30');
    expect(screen.getByRole('button', { name: 'Previous page' }).hasAttribute('disabled')).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    const second = await screen.findByRole('list', { name: 'Places 21 to 30' });
    expect(requests.some((r) => r.includes('take=20') && r.includes('skip=20'))).toBe(true);
    const own = within(second)
      .getAllByRole('listitem')
      .find((li) => li.getAttribute('aria-current') === 'true');
    expect(own?.textContent).toContain('#25');
    expect(own?.textContent).toContain('you');
    expect(screen.queryByRole('region', { name: 'Your place' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Next page' }).hasAttribute('disabled')).toBe(true);
  });

  it('says when no season runs, in Spanish too', async () => {
    noSeason = true;
    setLocale('es');
    show();
    await screen.findByText('No hay ninguna temporada en curso: la clasificación empieza con la próxima.');
  });

  it('counts places and routes to the page', () => {
    expect(pageSpan(20, 10)).toEqual({ from: 21, to: 30 });
    expect(pageSpan(0, 0)).toEqual({ from: 0, to: 0 });
    expect(parseRoute(href({ name: 'ranking' }))).toEqual({ name: 'ranking' });
  });
});
