import { GLOBAL_ROLES as PLATFORM_GLOBAL_ROLES } from '@spinroom/platform/vocabulary';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { AdminCommunities } from '../src/admin/AdminCommunities';
import { AdminEvents } from '../src/admin/AdminEvents';
import { AdminNotifications } from '../src/admin/AdminNotifications';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminPanel } from '../src/admin/AdminPanel';
import { adminListQuery, roomKeysOf } from '../src/api/communities';
import { GLOBAL_ROLES, moderationQuery, panelSections } from '../src/api/panel';
import { href, parseRoute, type Route } from '../src/app/router';
import { CommunityScreen } from '../src/communities/CommunityScreen';
import { setLocale } from '../src/i18n/i18n';
import { session } from '../src/session/session';

const tokenWith = (claims: object) => `x.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.y`;
const MO = '11111111-1111-4111-8111-111111111111';
const BO = '22222222-2222-4222-8222-222222222222';
const ROOM_UUID = '77777777-7777-4777-8777-777777777777';

describe('the admin panel’s rules', () => {
  it('opens each section to the roles its service allows, and nothing to anyone else', () => {
    expect([...GLOBAL_ROLES].sort()).toEqual([...PLATFORM_GLOBAL_ROLES].sort());
    const all = ['rooms', 'communities', 'events', 'moderation', 'djs', 'users', 'notifications'];
    expect(panelSections('superUser')).toEqual(all);
    expect(panelSections('admin')).toEqual(all);
    for (const staff of ['globalModerator', 'staff'])
      expect(panelSections(staff)).toEqual(['rooms', 'communities', 'events', 'moderation']);
    for (const nobody of ['moderator', 'promoter', 'user', 'guest', undefined]) expect(panelSections(nobody)).toEqual([]);
  });

  it('asks the moderation log in the crud syntax: newest first, by type, by user on either side, by days', () => {
    expect(moderationQuery({ type: '', user: '', from: '', to: '' }, 2)).toEqual({ sort: 'createdAt,DESC', limit: '20', page: '2' });
    expect(JSON.parse(moderationQuery({ type: 'banUser', user: '', from: '', to: '' }, 1).s!)).toEqual({ actionType: { $eq: 'banUser' } });
    const q = moderationQuery({ type: 'grantRole', user: ` ${MO} `, from: '2026-11-01', to: '2026-11-02' }, 1);
    expect(JSON.parse(q.s!)).toEqual({
      $and: [
        { actionType: { $eq: 'grantRole' } },
        { $or: [{ actorUuid: { $eq: MO } }, { targetUuid: { $eq: MO } }] },
        { createdAt: { $gte: new Date(2026, 10, 1).toISOString() } },
        { createdAt: { $lte: new Date(new Date(2026, 10, 3).getTime() - 1).toISOString() } },
      ],
    });
  });

  it('lists communities and events newest first with a search in name or slug, and reads room keys once each', () => {
    expect(adminListQuery(' ', 3)).toEqual({ sort: 'id,DESC', limit: '20', page: '3' });
    expect(JSON.parse(adminListQuery('Jazz', 1, 'startTime,DESC').s!)).toEqual({
      $or: [{ name: { $contL: 'Jazz' } }, { slug: { $contL: 'Jazz' } }],
    });
    expect(roomKeysOf('Late-Night\n late-night, chill-room  other ')).toEqual(['late-night', 'chill-room', 'other']);
    expect(roomKeysOf(' \n ')).toEqual([]);
  });

  it('has hash routes for the panel, communities and events', () => {
    expect(parseRoute('#/admin')).toEqual({ name: 'admin' });
    expect(parseRoute('#/admin/moderation')).toEqual({ name: 'admin', section: 'moderation' });
    expect(parseRoute('#/admin/nothing')).toEqual({ name: 'admin' });
    expect(parseRoute('#/admin/users')).toEqual({ name: 'adminUsers' });
    expect(parseRoute('#/communities/Night-Owls')).toEqual({ name: 'community', slug: 'night-owls' });
    expect(parseRoute('#/events')).toEqual({ name: 'communities' });
    const routes: Route[] = [
      { name: 'admin' },
      { name: 'admin', section: 'djs' },
      { name: 'communities' },
      { name: 'community', slug: 'jqbx' },
      { name: 'event', slug: 'launch-party' },
    ];
    for (const route of routes) expect(parseRoute(href(route))).toEqual(route);
  });
});

describe('the admin panel and a community page', () => {
  let requests: string[];
  let bodies: Array<{ path: string; body: unknown }>;
  let member: boolean;
  beforeEach(() => {
    requests = [];
    bodies = [];
    member = false;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const { pathname, search } = new URL(url, 'http://x');
        requests.push(`${init?.method ?? 'GET'} ${pathname}${decodeURIComponent(search)}`);
        if (init?.body) bodies.push({ path: pathname, body: JSON.parse(init.body as string) });
        const json = (body: unknown, s = 200) => new Response(JSON.stringify(body), { status: s });
        if (pathname.endsWith('/info-admin/user-events-names')) return json(['totalPlayed', 'banUser', 'grantRole']);
        if (pathname.endsWith('/moderation-actions')) {
          const action = {
            id: '33333333-3333-4333-8333-333333333333',
            actionType: 'grantRole',
            previousRole: null,
            role: 'dj',
            roomUuid: null,
            actorUuid: MO,
            targetUuid: BO,
            actorTokenRole: 'globalModerator',
            expirationTime: null,
            createdAt: '2026-11-26T06:00:00.000Z',
            source: 'kafka',
          };
          return json({ data: [action], count: 1, total: 1, page: 1, pageCount: 1 });
        }
        if (pathname.endsWith('/users/profiles')) {
          const names: Record<string, string> = { [MO]: 'Mo', [BO]: 'Bo' };
          return json(new URLSearchParams(search).getAll('users').map((u) => ({ userProfile: { uuid: u, nickname: names[u] ?? u } })));
        }
        if (pathname.startsWith('/api/room-service/communities/owls')) {
          if (pathname.endsWith('/join')) member = true;
          if (pathname.endsWith('/leave')) member = false;
          if (pathname.endsWith('/rooms')) return json({ rooms: [], total: 0 });
          if (pathname.endsWith('/users')) return json({ users: [], total: 0 });
          return json({
            id: 7,
            uuid: '44444444-4444-4444-8444-444444444444',
            slug: 'owls',
            name: 'Night Owls',
            description: '',
            imageUrl: null,
            ownerUuid: null,
            membersCount: member ? 1 : 0,
            roomsCount: 0,
            createdAt: '',
            updatedAt: '',
            isMember: member,
            memberRole: member ? 'member' : null,
          });
        }
        if (pathname.endsWith('/events/upcoming')) return json({ events: [], total: 0 });
        if (pathname.endsWith('/admin/communities') || pathname.endsWith('/admin/events')) {
          if (init?.method === 'POST') {
            const body = JSON.parse(init.body as string) as { name: string };
            return json({ id: 9, uuid: '55555555-5555-4555-8555-555555555555', slug: 'made', name: body.name }, 201);
          }
          const community = { id: 7, uuid: '44444444-4444-4444-8444-444444444444', slug: 'owls', name: 'Night Owls', ownerUuid: null };
          return json({ data: pathname.endsWith('communities') ? [community] : [], count: 1, total: 1, page: 1, pageCount: 1 });
        }
        if (pathname === '/api/room-service/communities/7/add') return json({ community: {}, changed: 2 });
        if (pathname === '/api/room-service/events' && init?.method === 'POST') {
          return json({ id: 3, uuid: '66666666-6666-4666-8666-666666666666', slug: 'late-set', name: 'Late set' }, 201);
        }
        if (pathname === '/api/room-service/rooms/late-room') return json({ id: 1, uuid: ROOM_UUID, slug: 'late-room', name: 'Late room' });
        if (pathname.endsWith('/notifications/custom-message-from-room')) return json({ queued: 3, fanoutId: null, accepted: true }, 202);
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
  const show = (node: React.ReactNode) => render(<QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>);

  it('tells a user without a staff role that the panel is not for them, and asks nothing', () => {
    session.signIn(tokenWith({ sub: BO, role: 'user', kind: 'user' }), BO, 'user');
    show(<AdminPanel />);
    expect(screen.getByRole('alert').textContent).toContain('The admin panel is for staff, moderators and admins');
    expect(screen.getByRole('alert').textContent).toContain('Your account has none of these roles');
    expect(requests).toEqual([]);
  });

  it("shows a global moderator their sections only, and the moderation log's who, what, to whom and when, filtered", async () => {
    session.signIn(tokenWith({ sub: MO, role: 'globalModerator', kind: 'user' }), MO, 'user');
    show(<AdminPanel section="moderation" />);
    const tabs = screen.getByRole('navigation', { name: 'Admin' });
    expect(
      within(tabs)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Rooms', 'Communities', 'Events', 'Moderation log']);
    const table = await screen.findByRole('table');
    await within(table).findByText('Mo');
    const row = within(table).getAllByRole('row')[1]!;
    expect(row.textContent).toContain('grantRole');
    expect(row.textContent).toContain('Bo');
    expect(row.textContent).toContain('(globalModerator)');
    // Play events are not moderation actions.
    const type = await screen.findByRole('option', { name: 'banUser' });
    expect(screen.queryByRole('option', { name: 'totalPlayed' })).toBeNull();
    fireEvent.change(type.closest('select')!, { target: { value: 'banUser' } });
    fireEvent.change(screen.getByLabelText("A user's id (who acted or was acted on)"), { target: { value: BO } });
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await vi.waitFor(() =>
      expect(requests.some((r) => r.includes('/moderation-actions?') && r.includes('"banUser"') && r.includes(BO))).toBe(true),
    );
  });

  it('refuses a section the role may not open', () => {
    session.signIn(tokenWith({ sub: MO, role: 'staff', kind: 'user' }), MO, 'user');
    show(<AdminPanel section="notifications" />);
    expect(screen.getByRole('alert').textContent).toBe('Your role cannot open this section of the admin panel.');
  });

  it('joins and leaves a community', async () => {
    session.signIn(tokenWith({ sub: BO, role: 'user', kind: 'user' }), BO, 'user');
    show(<CommunityScreen slug="owls" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Join' }));
    await screen.findByText('You are a member (member)');
    fireEvent.click(screen.getByRole('button', { name: 'Leave' }));
    await screen.findByRole('button', { name: 'Join' });
    expect(requests.filter((r) => r.startsWith('POST'))).toEqual([
      'POST /api/room-service/communities/owls/join',
      'POST /api/room-service/communities/owls/leave',
    ]);
  });

  it('creates a community and adds rooms to one in bulk, each key once', async () => {
    session.signIn(tokenWith({ sub: MO, role: 'globalModerator', kind: 'user' }), MO, 'user');
    show(<AdminCommunities />);
    const create = screen.getByRole('form', { name: 'New community' });
    fireEvent.change(within(create).getByLabelText('Name'), { target: { value: 'Night Owls' } });
    fireEvent.change(within(create).getByLabelText('Description'), { target: { value: 'After midnight' } });
    fireEvent.submit(create);
    await within(create).findByText('Night Owls is created:', { exact: false });
    // No slug or owner typed: none sent (the service makes the slug from the name).
    expect(bodies.find((b) => b.path.endsWith('/admin/communities'))?.body).toEqual({ name: 'Night Owls', description: 'After midnight' });
    const row = await screen.findByRole('listitem', { name: 'Night Owls' });
    fireEvent.click(within(row).getByRole('button', { name: 'Add rooms Night Owls' }));
    fireEvent.change(within(row).getByLabelText('Room slugs or ids, one per line'), { target: { value: 'late-room\nLATE-ROOM, chill' } });
    fireEvent.submit(within(row).getByRole('form', { name: 'Add rooms Night Owls' }));
    await within(row).findByText('2 rooms added');
    expect(bodies.find((b) => b.path.endsWith('/communities/7/add'))?.body).toEqual({ rooms: ['late-room', 'chill'] });
  });

  it('schedules an event at the instants the viewer typed in their clock', async () => {
    session.signIn(tokenWith({ sub: MO, role: 'staff', kind: 'user' }), MO, 'user');
    show(<AdminEvents />);
    const create = screen.getByRole('form', { name: 'New event' });
    fireEvent.change(within(create).getByLabelText('Name'), { target: { value: 'Late set' } });
    fireEvent.change(within(create).getByLabelText("The room's slug"), { target: { value: 'late-room' } });
    fireEvent.change(within(create).getByLabelText("The community's slug (optional)"), { target: { value: 'owls' } });
    fireEvent.change(within(create).getByLabelText('Starts'), { target: { value: '2026-12-01T22:30' } });
    fireEvent.submit(create);
    await within(create).findByText('Late set is created:', { exact: false });
    expect(bodies.find((b) => b.path === '/api/room-service/events')?.body).toEqual({
      name: 'Late set',
      room: 'late-room',
      description: '',
      community: 'owls',
      startTime: new Date(2026, 11, 1, 22, 30).toISOString(),
    });
  });

  it("sends a custom message to a room's people by the room's uuid, found from its slug", async () => {
    session.signIn(tokenWith({ sub: MO, role: 'admin', kind: 'user' }), MO, 'user');
    show(<AdminNotifications />);
    const form = screen.getByRole('form', { name: "Message a room's people" });
    fireEvent.change(within(form).getByLabelText("The room's slug"), { target: { value: 'Late-Room' } });
    fireEvent.change(within(form).getByLabelText('Message'), { target: { value: 'Starting soon' } });
    fireEvent.submit(form);
    await within(form).findByText('Sent to 3 people');
    expect(bodies).toEqual([
      { path: '/api/social-service/notifications/custom-message-from-room', body: { roomUuid: ROOM_UUID, message: 'Starting soon' } },
    ]);
  });
});
