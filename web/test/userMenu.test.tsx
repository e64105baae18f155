import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserMenu } from '../src/rooms/UserMenu';
import { session } from '../src/session/session';
import { emptyState } from './fixtures';

describe("a moderator's menu for someone in the room", () => {
  let grants: Array<{ path: string; body: unknown }>;
  beforeEach(() => {
    session.signIn('token', 'mod', 'user');
    grants = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const path = new URL(url, 'http://x').pathname;
        if (init?.method === 'POST') grants.push({ path, body: JSON.parse(init.body as string) });
        return new Response(JSON.stringify({}), { status: 201 });
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    session.signOut();
  });

  const open = () =>
    render(
      <QueryClientProvider client={new QueryClient()}>
        <UserMenu uuid="pat" state={emptyState()} slug="club" canModerate isMe={false} onClose={() => {}} onRemoveDj={() => {}} />
      </QueryClientProvider>,
    );

  it('asks before a ban, bans nobody when cancelled, and bans on Yes', async () => {
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Ban' }));
    const question = screen.getByRole('alertdialog', { name: 'Ban' });
    expect(grants).toEqual([]);
    fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Ban' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, ban' }));
    await waitFor(() => expect(grants).toHaveLength(1));
    expect(grants[0]!.body).toMatchObject({ userUuid: 'pat', role: 'banned' });
  });
});
