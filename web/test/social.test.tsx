// Friends, fans and blocks (web/src/social) and direct messages (web/src/messages)
// against a fetch that answers as the social service and the chat service do.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newestUnreadFrom, type DirectMessage } from '../src/api/messages';
import { FANS_PAGE, nextSkip } from '../src/api/social';
import { href, parseRoute } from '../src/app/router';
import { setLocale } from '../src/i18n/i18n';
import { MessagesScreen } from '../src/messages/MessagesScreen';
import { session } from '../src/session/session';
import { BlockedUsersSection } from '../src/social/BlockedUsersSection';
import { FansScreen } from '../src/social/FansScreen';
import { FriendsScreen } from '../src/social/FriendsScreen';
import { SocialActions } from '../src/social/SocialActions';
import { UserMenu } from '../src/rooms/UserMenu';
import { emptyState } from './fixtures';

const ME = '99999999-9999-4999-8999-999999999999';
const DJ = '11111111-1111-4111-8111-111111111111';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const SOCIAL = '/api/social-service';

interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/** The services' answers by method and path; what is not listed is a 404 like the BFF's. */
type Handler = (call: Call) => { status?: number; body: unknown } | undefined;

let calls: Call[];
let handler: Handler;

const page = <T,>(all: T[], query: URLSearchParams) => {
  const skip = Number(query.get('skip') ?? 0);
  const take = Number(query.get('take') ?? 12);
  return { data: all.slice(skip, skip + take), total: all.length, skip, take };
};

beforeEach(() => {
  session.signIn('token', ME, 'user');
  setLocale('en');
  calls = [];
  handler = () => undefined;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const { pathname, searchParams } = new URL(url, 'http://x');
      const call = {
        method: init?.method ?? 'GET',
        path: pathname,
        query: searchParams,
        body: init?.body ? JSON.parse(init.body as string) : undefined,
      };
      calls.push(call);
      if (pathname === '/api/user-service/users/profiles') {
        return Response.json(
          searchParams.getAll('users').map((u) => ({
            userProfile: { uuid: u, nickname: u === DJ ? 'Dee' : `P${u.slice(-2)}`, avatarId: 'default', color: '#8B5CF6' },
          })),
        );
      }
      if (pathname.startsWith('/api/user-service/profile/')) {
        const u = pathname.split('/').at(-1)!;
        return Response.json({ uuid: u, nickname: u === DJ ? 'Dee' : `P${u.slice(-2)}`, avatarId: 'default', color: '#8B5CF6' });
      }
      if (pathname === '/api/user-service/comet-chat/user-token') return Response.json({ cometAuthToken: 'chat-token' });
      const answer = handler(call);
      if (!answer) return Response.json({ statusCode: 404, message: 'Not found' }, { status: 404 });
      return Response.json(answer.body, { status: answer.status ?? 200 });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  session.signOut();
});

const renderWith = (node: ReactNode) =>
  render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{node}</QueryClientProvider>);

describe('social routes and pages', () => {
  it('reads and writes the friends, fans and messages addresses', () => {
    expect(parseRoute('#/friends')).toEqual({ name: 'friends' });
    expect(parseRoute(`#/profile/${DJ}/followers`)).toEqual({ name: 'fans', userUuid: DJ, list: 'followers' });
    expect(parseRoute(`#/profile/${DJ}/following`)).toEqual({ name: 'fans', userUuid: DJ, list: 'following' });
    expect(parseRoute(`#/profile/${DJ}/other`)).toEqual({ name: 'profile', userUuid: DJ });
    expect(parseRoute('#/messages')).toEqual({ name: 'messages' });
    expect(parseRoute(`#/messages/${DJ}`)).toEqual({ name: 'messages', withUuid: DJ });
    for (const hash of ['#/friends', `#/profile/${DJ}/followers`, `#/profile/${DJ}/following`, '#/messages', `#/messages/${DJ}`]) {
      expect(href(parseRoute(hash))).toBe(hash);
    }
  });

  it('has a next page only while items remain', () => {
    const of = (n: number, skip: number, total: number) => ({ data: Array.from({ length: n }, () => ({})), skip, take: 12, total });
    expect(nextSkip(of(12, 0, 30))).toBe(12);
    expect(nextSkip(of(12, 12, 30))).toBe(24);
    expect(nextSkip(of(6, 24, 30))).toBeUndefined();
    expect(nextSkip(of(12, 0, 12))).toBeUndefined();
    expect(nextSkip(of(0, 0, 0))).toBeUndefined();
    // A list that shrank under the reader: an empty page ends it.
    expect(nextSkip(of(0, 24, 30))).toBeUndefined();
  });

  it("pages a DJ's followers 12 at a time with Show more until the last", async () => {
    const fans = Array.from({ length: 30 }, (_, i) => ({
      id: `f${i}`,
      fanUuid: uuid(i + 1),
      djUuid: DJ,
      createdAt: '2026-01-01T00:00:00.000Z',
    }));
    handler = ({ path, query }) => (path === `${SOCIAL}/dj-fans/dj-fans-paginated/${DJ}` ? { body: page(fans, query) } : undefined);
    renderWith(<FansScreen userUuid={DJ} list="followers" />);
    const list = await screen.findByRole('list', { name: 'Followers of Dee' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(FANS_PAGE));
    expect(await within(list).findByText('P01')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(24));
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(30));
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(screen.getByText('30 of 30')).toBeTruthy();
    const asked = calls.filter((c) => c.path.includes('dj-fans-paginated')).map((c) => `${c.query.get('skip')}/${c.query.get('take')}`);
    expect(asked).toEqual(['0/12', '12/12', '24/12']);
  });

  it('offers no Show more when the first page is everything', async () => {
    const followed = Array.from({ length: 12 }, (_, i) => ({
      id: `f${i}`,
      fanUuid: DJ,
      djUuid: uuid(i + 1),
      createdAt: '2026-01-01T00:00:00.000Z',
    }));
    handler = ({ path, query }) => (path === `${SOCIAL}/dj-fans/${DJ}/djs-followed` ? { body: page(followed, query) } : undefined);
    renderWith(<FansScreen userUuid={DJ} list="following" />);
    const list = await screen.findByRole('list', { name: 'Followed by Dee' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(12));
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });
});

describe("someone's social actions", () => {
  /** A small social service: the caller's follows, invitations, friendship and blocks with DJ. */
  const state = () => {
    const s = { fan: false, friend: false, sentInvitation: false, receivedInvitation: false, blocked: false, fans: 4 };
    const invitation = (fromUuid: string, toUuid: string) => ({
      id: 'inv1',
      fromUuid,
      toUuid,
      status: 'PENDING',
      createdAt: '2026-01-01T00:00:00.000Z',
      answeredAt: null,
    });
    handler = ({ method, path, body }) => {
      const b = body as Record<string, string> | undefined;
      if (method === 'GET' && path === `${SOCIAL}/dj-fans/dj-fan/${DJ}`)
        return s.fan ? { body: { id: 'fan1', fanUuid: ME, djUuid: DJ } } : undefined;
      if (method === 'GET' && path === `${SOCIAL}/dj-fans/count/${DJ}`) return { body: { count: s.fans, fans: s.fans, following: 2 } };
      if (method === 'POST' && path === `${SOCIAL}/dj-fans` && b?.djUuid === DJ) {
        s.fan = true;
        s.fans++;
        return { status: 201, body: { id: 'fan1', fanUuid: ME, djUuid: DJ } };
      }
      if (method === 'DELETE' && path === `${SOCIAL}/dj-fans/${DJ}`) {
        s.fan = false;
        s.fans--;
        return { body: {} };
      }
      if (method === 'GET' && path === `${SOCIAL}/friends/single-friend/${DJ}`)
        return s.friend ? { body: { id: 'fr1', userUuid: DJ, friendUuid: ME } } : undefined;
      if (method === 'GET' && path === `${SOCIAL}/blocked-users/${DJ}`)
        return s.blocked ? { body: { id: 'b1', blockerUuid: ME, blockedUuid: DJ } } : undefined;
      if (method === 'GET' && path === `${SOCIAL}/friend-invitations/user-invitations-from`)
        return { body: { data: s.sentInvitation ? [invitation(ME, DJ)] : [], total: s.sentInvitation ? 1 : 0, skip: 0, take: 100 } };
      if (method === 'GET' && path === `${SOCIAL}/friend-invitations/user-invitations-for`)
        return {
          body: { data: s.receivedInvitation ? [invitation(DJ, ME)] : [], total: s.receivedInvitation ? 1 : 0, skip: 0, take: 100 },
        };
      if (method === 'POST' && path === `${SOCIAL}/friend-invitations` && b?.userUuid === DJ) {
        s.sentInvitation = true;
        return { status: 201, body: invitation(ME, DJ) };
      }
      if (method === 'POST' && path === `${SOCIAL}/friend-invitations/handle-friend`) {
        s.receivedInvitation = false;
        s.friend = b?.status === 'ACCEPTED';
        return { status: 201, body: { invitation: invitation(DJ, ME), friend: null } };
      }
      if (method === 'POST' && path === `${SOCIAL}/blocked-users` && b?.blockedUserUuid === DJ) {
        s.blocked = true;
        s.friend = false;
        return { status: 201, body: { id: 'b1', blockerUuid: ME, blockedUuid: DJ } };
      }
      if (method === 'DELETE' && path === `${SOCIAL}/blocked-users/${DJ}`) {
        s.blocked = false;
        return { body: {} };
      }
      return undefined;
    };
    return s;
  };

  it('follows and unfollows, and the follower count follows', async () => {
    const s = state();
    const { FanCounts } = await import('../src/social/SocialActions');
    renderWith(
      <>
        <FanCounts userUuid={DJ} />
        <SocialActions userUuid={DJ} name="Dee" />
      </>,
    );
    await screen.findByText('4 followers');
    expect(screen.getByRole('link', { name: '4 followers' }).getAttribute('href')).toBe(`#/profile/${DJ}/followers`);
    expect(screen.getByRole('link', { name: '2 following' }).getAttribute('href')).toBe(`#/profile/${DJ}/following`);
    fireEvent.click(await screen.findByRole('button', { name: 'Follow' }));
    await screen.findByRole('button', { name: 'Unfollow' });
    await screen.findByText('5 followers');
    expect(s.fan).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Unfollow' }));
    await screen.findByRole('button', { name: 'Follow' });
    await screen.findByText('4 followers');
    expect(screen.getByRole('link', { name: 'Message' }).getAttribute('href')).toBe(`#/messages/${DJ}`);
  });

  it("follows the DJ from the room's user menu, where the count shows too", async () => {
    const s = state();
    const room = emptyState({
      allUserData: { [DJ]: { userProfile: { uuid: DJ, nickname: 'Dee', avatarId: 'default', color: '#8B5CF6' } } },
    });
    renderWith(<UserMenu uuid={DJ} state={room} slug="club" canModerate={false} isMe={false} onClose={() => {}} onRemoveDj={() => {}} />);
    const menu = screen.getByRole('dialog', { name: 'Dee' });
    await within(menu).findByText('4 followers');
    fireEvent.click(await within(menu).findByRole('button', { name: 'Follow' }));
    await within(menu).findByText('5 followers');
    expect(s.fan).toBe(true);
    expect(within(menu).getByRole('button', { name: 'Add friend' })).toBeTruthy();
    expect(within(menu).getByRole('button', { name: 'Block' })).toBeTruthy();
  });

  it('offers nothing social in the menu of oneself', async () => {
    state();
    renderWith(<UserMenu uuid={ME} state={emptyState()} slug="club" canModerate={false} isMe onClose={() => {}} onRemoveDj={() => {}} />);
    expect(screen.queryByRole('group', { name: 'Friends and fans' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Follow' })).toBeNull();
  });

  it('invites, shows the invitation as sent, and answers one received', async () => {
    const s = state();
    renderWith(<SocialActions userUuid={DJ} name="Dee" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add friend' }));
    await screen.findByText('Friend invitation sent');
    expect(screen.getByRole('button', { name: 'Withdraw the invitation' })).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST' && c.path === `${SOCIAL}/friend-invitations`)?.body).toEqual({ userUuid: DJ });
    cleanup();

    s.sentInvitation = false;
    s.receivedInvitation = true;
    renderWith(<SocialActions userUuid={DJ} name="Dee" />);
    await screen.findByText('Dee wants to be your friend');
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    await screen.findByText('You are friends');
    expect(calls.find((c) => c.path.endsWith('/handle-friend'))?.body).toEqual({ invitationId: 'inv1', status: 'ACCEPTED' });
    expect(screen.getByRole('button', { name: 'Remove friend' })).toBeTruthy();
  });

  it('asks before a block, blocks on Yes and unblocks', async () => {
    const s = state();
    renderWith(<SocialActions userUuid={DJ} name="Dee" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Block' }));
    const question = screen.getByRole('alertdialog', { name: 'Block' });
    fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(s.blocked).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Block' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, block' }));
    await screen.findByText('You blocked this person.');
    expect(screen.queryByRole('button', { name: 'Follow' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Unblock' }));
    await screen.findByRole('button', { name: 'Follow' });
    expect(s.blocked).toBe(false);
  });

  it('shows nothing to guests', () => {
    session.signIn('guest-token', ME, 'guest');
    renderWith(<SocialActions userUuid={DJ} name="Dee" />);
    expect(screen.queryByRole('group')).toBeNull();
    expect(calls).toEqual([]);
  });

  it('lists invitations and friends, and the blocked people in settings', async () => {
    handler = ({ method, path, query }) => {
      if (path.endsWith('/user-invitations-for'))
        return {
          body: page(
            [{ id: 'in1', fromUuid: uuid(1), toUuid: ME, status: 'PENDING', createdAt: '2026-01-01T00:00:00.000Z', answeredAt: null }],
            query,
          ),
        };
      if (path.endsWith('/user-invitations-from'))
        return {
          body: page(
            [{ id: 'out1', fromUuid: ME, toUuid: uuid(2), status: 'PENDING', createdAt: '2026-01-01T00:00:00.000Z', answeredAt: null }],
            query,
          ),
        };
      if (path === `${SOCIAL}/friends/list/${ME}`)
        return { body: page([{ id: 'fr', userUuid: uuid(3), friendUuid: ME, createdAt: '2026-01-01T00:00:00.000Z' }], query) };
      if (method === 'GET' && path === `${SOCIAL}/blocked-users`)
        return { body: page([{ id: 'b', blockerUuid: ME, blockedUuid: uuid(4), createdAt: '2026-01-01T00:00:00.000Z' }], query) };
      if (method === 'DELETE') return { body: {} };
      return undefined;
    };
    renderWith(
      <>
        <FriendsScreen />
        <BlockedUsersSection />
      </>,
    );
    const friends = await screen.findByRole('list', { name: 'Friends' });
    await within(friends).findByText('P03');
    expect(within(friends).getByRole('link', { name: 'Message' }).getAttribute('href')).toBe(`#/messages/${uuid(3)}`);
    await screen.findByText('P01');
    await screen.findByText('P02');
    expect(screen.getByRole('button', { name: 'Accept' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Withdraw the invitation' })).toBeTruthy();
    const blocked = screen.getByRole('list', { name: 'Blocked people' });
    await within(blocked).findByText('P04');
    fireEvent.click(within(blocked).getByRole('button', { name: 'Unblock' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === `${SOCIAL}/blocked-users/${uuid(4)}`)).toBe(true));
  });
});

describe('direct messages', () => {
  const dm = (id: number, from: string, to: string, text: string, readAt?: number): DirectMessage => ({
    id: String(id),
    sentAt: 1_780_000_000 + id,
    sender: from,
    receiver: to,
    receiverType: 'user',
    data: { text },
    ...(readAt ? { readAt } : {}),
  });

  it('finds the newest unread message from the other person', () => {
    expect(newestUnreadFrom([dm(1, DJ, ME, 'a'), dm(2, DJ, ME, 'b'), dm(3, ME, DJ, 'c')], DJ)?.id).toBe('2');
    expect(newestUnreadFrom([dm(1, DJ, ME, 'a'), dm(2, DJ, ME, 'b', 5)], DJ)).toBeUndefined();
    expect(newestUnreadFrom([dm(1, ME, DJ, 'a')], DJ)).toBeUndefined();
  });

  it('groups conversations as Friends and Others, with their unread counts', async () => {
    const conversation = (other: string, name: string, group: string, unread: number) => ({
      conversationId: `${ME}_user_${other}`,
      conversationType: 'user',
      unreadMessageCount: unread,
      createdAt: 1_780_000_000,
      updatedAt: 1_780_000_100,
      lastMessage: dm(9, other, ME, `last from ${name}`),
      conversationWith: { uid: other, name, avatar: 'default', status: 'offline' },
      conversationGroup: group,
    });
    handler = ({ path, query }) => {
      if (path !== `/chat/v3.0/users/${ME}/conversations`) return undefined;
      const data =
        query.get('conversationGroup') === 'friends'
          ? [conversation(DJ, 'Dee', 'friends', 2)]
          : [conversation(uuid(7), 'Stranger', 'others', 0)];
      return { body: { data, meta: { pagination: { total: 1, count: 1, per_page: 30, current_page: 1, total_pages: 1 } } } };
    };
    renderWith(<MessagesScreen />);
    const friends = await screen.findByRole('list', { name: 'Friends' });
    await within(friends).findByText('Dee');
    expect(within(friends).getByText('last from Dee')).toBeTruthy();
    expect(within(friends).getByText('2 unread')).toBeTruthy();
    expect(within(friends).getByRole('link').getAttribute('href')).toBe(`#/messages/${DJ}`);
    const others = screen.getByRole('list', { name: 'Others' });
    await within(others).findByText('Stranger');
    expect(within(others).queryByText(/unread/)).toBeNull();
    const asked = calls.filter((c) => c.path.endsWith('/conversations'));
    expect(asked.every((c) => c.query.get('conversationType') === 'user')).toBe(true);
    expect(new Set(asked.map((c) => c.query.get('conversationGroup')))).toEqual(new Set(['friends', 'others']));
    expect(asked.every((c) => calls.length > 0 && c.method === 'GET')).toBe(true);
  });

  it('shows a conversation, marks what was sent read, sends, and shows a refusal as the server words it', async () => {
    const history = [dm(1, DJ, ME, 'hello there'), dm(2, ME, DJ, 'hi Dee', 1_780_000_010), dm(3, DJ, ME, 'how are you?')];
    let refuse = false;
    handler = ({ method, path, body }) => {
      if (method === 'GET' && path === `/chat/v3.0/users/${DJ}/messages`) return { body: { data: history } };
      if (method === 'POST' && path === `/chat/v3.0/users/${DJ}/conversation/read`) return { body: { data: { success: true, count: 2 } } };
      if (method === 'POST' && path === '/chat/v3.0/messages') {
        if (refuse)
          return {
            status: 403,
            body: {
              error: {
                code: 'ERR_USER_BLOCKED',
                message: 'You cannot send direct messages to this user: one of you has blocked the other',
              },
            },
          };
        const b = body as { data: { text: string } };
        const sent = dm(history.length + 1, ME, DJ, b.data.text);
        history.push(sent);
        return { body: { data: sent } };
      }
      return undefined;
    };
    renderWith(<MessagesScreen withUuid={DJ} />);
    const log = await screen.findByRole('log', { name: 'Messages with Dee' });
    await within(log).findByText('how are you?');
    expect(within(log).getByText(/Seen/)).toBeTruthy();
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/conversation/read'))?.body).toEqual({ messageId: '3' }));

    const box = screen.getByRole('textbox', { name: 'Write to Dee' });
    fireEvent.change(box, { target: { value: 'fine, thanks' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await within(log).findByText('fine, thanks');
    const send = calls.find((c) => c.method === 'POST' && c.path === '/chat/v3.0/messages');
    expect(send?.body).toMatchObject({
      receiver: DJ,
      receiverType: 'user',
      category: 'message',
      type: 'text',
      data: { text: 'fine, thanks' },
    });
    await waitFor(() => expect((box as HTMLTextAreaElement).value).toBe(''));

    refuse = true;
    fireEvent.change(box, { target: { value: 'still there?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'You cannot send direct messages to this user: one of you has blocked the other',
    );
    expect((box as HTMLTextAreaElement).value).toBe('still there?');
  });

  it('leaves what arrives while the page is hidden unread until it is seen', async () => {
    handler = ({ method, path }) => {
      if (method === 'GET' && path === `/chat/v3.0/users/${DJ}/messages`) return { body: { data: [dm(1, DJ, ME, 'psst')] } };
      if (method === 'POST' && path === `/chat/v3.0/users/${DJ}/conversation/read`) return { body: { data: { success: true, count: 1 } } };
      return undefined;
    };
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    try {
      renderWith(<MessagesScreen withUuid={DJ} />);
      await screen.findByText('psst');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(calls.some((c) => c.path.endsWith('/conversation/read'))).toBe(false);
      Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
      await waitFor(() => expect(calls.find((c) => c.path.endsWith('/conversation/read'))?.body).toEqual({ messageId: '1' }));
    } finally {
      Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    }
  });
});
