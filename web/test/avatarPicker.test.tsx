import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CatalogueAvatar } from '../src/api/points';
import { en } from '../src/i18n/en';
import { es } from '../src/i18n/es';
import { setLocale } from '../src/i18n/i18n';
import { lockReason, splitCatalogue } from '../src/profile/CatalogueAvatars';
import { ProfileScreen } from '../src/profile/ProfileScreen';
import { session } from '../src/session/session';

const avatar = (slug: string, name: string, status: CatalogueAvatar['status'], extra: Partial<CatalogueAvatar> = {}): CatalogueAvatar => ({
  slug,
  name,
  status,
  discordOnly: false,
  seasonId: null,
  rankThreshold: null,
  ...extra,
});
const SEASON = { id: '11111111-1111-4111-8111-111111111111', name: 'Autumn' };
const disco = avatar('disco-ball', 'Disco Ball', 'PUBLIC');
const bought = avatar('gold-mic', 'Gold Mic', 'SUBSCRIBER_ONLY');
const vip = avatar('vip', 'VIP', 'SUBSCRIBER_ONLY');
const champion = avatar('champion', 'Champion', 'SEASON_AWARD', { seasonId: SEASON.id, rankThreshold: 3 });
const veteran = avatar('veteran', 'Veteran', 'SEASON_AWARD', { seasonId: 'old', rankThreshold: 10 });
const discord = avatar('wumpus', 'Wumpus', 'PUBLIC', { discordOnly: true });

describe('the avatar picker', () => {
  let saved: unknown[];
  beforeEach(() => {
    session.signIn('token', 'me', 'user');
    saved = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const path = new URL(url, 'http://x').pathname;
        const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
        if (path.endsWith('/users/profile') && init?.method === 'POST') {
          saved.push(JSON.parse(init.body as string));
          return json({ uuid: 'me', nickname: 'Ana', avatarId: 'gold-mic', color: '#8B5CF6' });
        }
        if (path.endsWith('/users/profile')) return json({ uuid: 'me', nickname: 'Ana', avatarId: 'raver', color: '#8B5CF6' });
        if (path.endsWith('/merch-service/avatars')) return json([disco, bought]);
        if (path.endsWith('/all-avatars')) return json([disco, bought, vip, champion, veteran, discord]);
        if (path.endsWith('/seasons/current')) return json({ ...SEASON, start: '2026-09-01T00:00:00Z', end: null });
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

  it('offers the owned catalogue avatars beside the house set and explains each locked one', async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ProfileScreen />
      </QueryClientProvider>,
    );
    const owned = await screen.findByRole('group', { name: 'Yours from the catalogue' });
    expect(
      within(owned)
        .getAllByRole('radio')
        .map((r) => (r as HTMLInputElement).value),
    ).toEqual(['disco-ball', 'gold-mic']);
    const locked = screen.getByRole('region', { name: 'Avatars to earn' });
    await within(locked).findByText(/Awarded to the top 3 of Autumn/);
    const items = within(locked).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'VIP 🔒 For subscribers Subscribe to wear it',
      'Champion 🔒 Awarded to the top 3 of Autumn',
      "Veteran 🔒 A season's award to its top 10",
      'Wumpus 🔒 Only in the Discord activity',
    ]);
    expect(within(locked).queryAllByRole('radio')).toHaveLength(0);
    // A subscribers' avatar leads to the shop's Subscription section; the others have nothing to buy.
    expect(
      within(locked)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([['Subscribe to wear it', '#/shop/subscription']]);
    fireEvent.click(within(owned).getAllByRole('radio')[1]!);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toEqual([expect.objectContaining({ avatarId: 'gold-mic' })]));
  });

  it('splits the catalogue and words the locks in Spanish', () => {
    expect(splitCatalogue([disco, vip], [disco])).toEqual({ mine: [disco], locked: [vip] });
    // The house looks the demo catalogue also lists are not offered twice.
    const raver = avatar('raver', 'Raver', 'PUBLIC');
    expect(splitCatalogue([raver, disco], [raver, disco])).toEqual({ mine: [disco], locked: [] });
    expect(lockReason(champion, es, SEASON)).toBe('Premio a los 3 primeros de Autumn');
    expect(lockReason(veteran, es, SEASON)).toBe('Premio de una temporada a sus 10 primeros');
    expect(lockReason(avatar('x', 'X', 'PRIVATE'), en)).toBe('Given or sold separately: not yours yet');
  });
});
