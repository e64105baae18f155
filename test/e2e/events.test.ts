import { randomUUID } from 'node:crypto';
import { NotificationRequested } from '@spinroom/contracts/events/v1/notifications';
import { eventually } from '@spinroom/platform/testing';
import { describe, expect, it } from 'vitest';
import { signedToken, usePlatform, useTopic } from '../support/platform.js';

const BASE = '/api/room-service';

async function person(role: Parameters<typeof signedToken>[0] = 'user') {
  const uuid = randomUUID();
  return { uuid, token: await signedToken(role, uuid) };
}

const unique = (word: string) => `${word}-${randomUUID().slice(0, 8)}`;
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

describe('events through the BFF', () => {
  // A second room-service replica: both run the events' clock.
  const { call } = usePlatform({ room: { EVENT_CLOCK_POLL_MS: 100 }, extraRoomReplicas: 1 });
  const notifications = useTopic('notifications');

  async function setting() {
    const admin = await person('admin');
    const owner = await person();
    const slug = unique('club');
    const community = (
      await call('POST', `${BASE}/admin/communities`, { token: admin.token, body: { name: 'Club', slug, ownerUuid: owner.uuid } })
    ).body as { id: number; uuid: string; slug: string };
    const room = (await call('POST', `${BASE}/rooms/infrastructure`, { token: owner.token, body: { name: unique('Club Room') } })).body as {
      slug: string;
      uuid: string;
      id: number;
    };
    return { admin, owner, community, room };
  }

  it('schedules, reads, lists, changes and deletes events, as the room and community allow', async () => {
    const { admin, owner, community, room } = await setting();
    const stranger = await person();
    const slug = unique('opening-night');

    expect(
      await call('POST', `${BASE}/events`, { token: stranger.token, body: { name: 'Mine', room: room.slug, startTime: inMinutes(60) } }),
    ).toMatchObject({ status: 403, body: { message: "Only the room's owner, coOwners and moderators can schedule its events" } });
    // A room of the stranger's own, under a community they do not run.
    const strangersRoom = (
      await call('POST', `${BASE}/rooms/infrastructure`, { token: stranger.token, body: { name: unique('Stranger') } })
    ).body;
    expect(
      await call('POST', `${BASE}/events`, {
        token: stranger.token,
        body: { name: 'Mine', room: strangersRoom.slug, community: community.slug, startTime: inMinutes(60) },
      }),
    ).toMatchObject({ status: 403, body: { message: "Only the community's owner and moderators can schedule its events" } });
    expect(
      await call('POST', `${BASE}/events`, {
        token: owner.token,
        body: { name: 'Nowhere', room: unique('no-room'), startTime: inMinutes(60) },
      }),
    ).toMatchObject({ status: 404, body: { message: 'Room not found' } });
    expect(
      await call('POST', `${BASE}/events`, {
        token: owner.token,
        body: { name: 'Backwards', room: room.slug, startTime: inMinutes(60), endTime: inMinutes(30) },
      }),
    ).toMatchObject({ status: 400, body: { message: 'endTime must be after startTime' } });
    expect(await call('POST', `${BASE}/events`, { token: owner.token, body: { name: 'No time', room: room.slug } })).toMatchObject({
      status: 400,
    });

    const start = inMinutes(60);
    const created = await call('POST', `${BASE}/events`, {
      token: owner.token,
      body: { name: 'Opening Night', slug, description: 'Doors at nine', room: room.slug, community: community.slug, startTime: start },
    });
    expect(created).toMatchObject({
      status: 201,
      body: {
        slug,
        name: 'Opening Night',
        description: 'Doors at nine',
        roomUuid: room.uuid,
        roomSlug: room.slug,
        communityUuid: community.uuid,
        communitySlug: community.slug,
        startTime: start,
        endTime: new Date(Date.parse(start) + 2 * 3_600_000).toISOString(),
        liveAt: null,
        status: 'upcoming',
        createdBy: owner.uuid,
      },
    });
    const event = created.body as { id: number; uuid: string };
    expect(
      await call('POST', `${BASE}/events`, { token: owner.token, body: { name: 'Twice', slug, room: room.slug, startTime: start } }),
    ).toMatchObject({ status: 409, body: { message: 'An event with this slug already exists' } });

    for (const key of [String(event.id), event.uuid, slug]) {
      expect(await call('GET', `${BASE}/events/${key}`, { token: stranger.token })).toMatchObject({
        status: 200,
        body: { uuid: event.uuid },
      });
    }
    expect(await call('GET', `${BASE}/events/slug/${slug}`, { token: stranger.token })).toMatchObject({
      status: 200,
      body: { id: event.id },
    });
    expect(await call('GET', `${BASE}/events/slug/${unique('none')}`, { token: stranger.token })).toMatchObject({
      status: 404,
      body: { message: 'Event not found' },
    });

    // Lists: the community's events; upcoming leaves out those ended.
    const earlier = (
      await call('POST', `${BASE}/events`, {
        token: admin.token,
        body: { name: 'Warm-up', room: room.slug, community: community.uuid, startTime: inMinutes(30) },
      })
    ).body;
    expect(earlier.slug).toMatch(/^warm-up/);
    const upcoming = await call('GET', `${BASE}/events/upcoming?community=${community.slug}`, { token: stranger.token });
    expect(upcoming).toMatchObject({ status: 200, body: { total: 2 } });
    expect(upcoming.body.events.map((e: { uuid: string }) => e.uuid)).toEqual([earlier.uuid, event.uuid]);
    expect(
      (await call('GET', `${BASE}/events/upcoming?community=${community.id}&limit=1&offset=1`, { token: stranger.token })).body,
    ).toMatchObject({ total: 2, events: [{ uuid: event.uuid }] });
    const all = await call('GET', `${BASE}/events?limit=100`, { token: stranger.token });
    expect(all.body.events.map((e: { uuid: string }) => e.uuid)).toEqual(expect.arrayContaining([earlier.uuid, event.uuid]));
    expect(await call('GET', `${BASE}/events?community=${unique('none')}`, { token: stranger.token })).toMatchObject({ status: 404 });

    // Events in a private room stay with those who may see it listed.
    const secret = (
      await call('POST', `${BASE}/rooms/infrastructure`, { token: owner.token, body: { name: unique('Secret'), type: 'PRIVATE' } })
    ).body;
    const hidden = (
      await call('POST', `${BASE}/events`, { token: owner.token, body: { name: 'Hidden', room: secret.slug, startTime: inMinutes(45) } })
    ).body;
    expect(await call('GET', `${BASE}/events/${hidden.uuid}`, { token: stranger.token })).toMatchObject({ status: 404 });
    expect(await call('GET', `${BASE}/events/${hidden.uuid}`, { token: owner.token })).toMatchObject({ status: 200 });
    expect(
      (await call('GET', `${BASE}/events/upcoming?limit=100`, { token: stranger.token })).body.events.map((e: { uuid: string }) => e.uuid),
    ).not.toContain(hidden.uuid);

    // Changes: as who may schedule; a move keeps the length.
    expect(await call('PATCH', `${BASE}/events/${event.id}`, { token: stranger.token, body: { name: 'Taken' } })).toMatchObject({
      status: 403,
    });
    const moved = inMinutes(120);
    expect(
      await call('PATCH', `${BASE}/events/${slug}`, { token: owner.token, body: { startTime: moved, community: null } }),
    ).toMatchObject({
      status: 200,
      body: { startTime: moved, endTime: new Date(Date.parse(moved) + 2 * 3_600_000).toISOString(), communityUuid: null },
    });

    // The admin paths.
    expect(await call('GET', `${BASE}/admin/events`, { token: owner.token })).toMatchObject({ status: 403 });
    const adminList = await call('GET', `${BASE}/admin/events?filter=roomId||$eq||${room.id}&sort=startTime,DESC&fields=slug,startTime`, {
      token: admin.token,
    });
    expect(adminList).toMatchObject({ status: 200, body: { total: 2 } });
    expect(adminList.body.data).toEqual([
      { id: event.id, uuid: event.uuid, slug, startTime: moved },
      { id: earlier.id, uuid: earlier.uuid, slug: earlier.slug, startTime: earlier.startTime },
    ]);
    expect(
      await call('GET', `${BASE}/admin/events?filter=liveAt||$isnull&filter=roomId||$eq||${room.id}`, { token: admin.token }),
    ).toMatchObject({
      body: { total: 2 },
    });
    expect(await call('GET', `${BASE}/admin/events?filter=nope||$eq||1`, { token: admin.token })).toMatchObject({ status: 400 });
    expect(await call('GET', `${BASE}/admin/events/${event.id}`, { token: admin.token })).toMatchObject({ status: 200, body: { slug } });
    expect(await call('GET', `${BASE}/admin/events/${event.id}`, { token: owner.token })).toMatchObject({ status: 403 });

    expect(await call('DELETE', `${BASE}/events/${event.uuid}`, { token: stranger.token })).toMatchObject({ status: 403 });
    expect(await call('DELETE', `${BASE}/events/${event.uuid}`, { token: owner.token })).toMatchObject({ status: 200 });
    expect(await call('GET', `${BASE}/events/${event.uuid}`, { token: owner.token })).toMatchObject({ status: 404 });
  });

  it("makes the event's room live at its start, once across replicas, and notifies the community's members", async () => {
    const { owner, community, room } = await setting();
    const fans = await Promise.all([person(), person()]);
    for (const fan of fans) await call('POST', `${BASE}/communities/${community.slug}/join`, { token: fan.token });

    const startTime = new Date(Date.now() + 2500).toISOString();
    const created = await call('POST', `${BASE}/events`, {
      token: owner.token,
      body: { name: 'Launch Party', room: room.uuid, community: community.slug, startTime },
    });
    expect(created.status).toBe(201);
    const event = created.body as { uuid: string; slug: string };
    expect((await call('GET', `${BASE}/rooms/${room.slug}`, { token: owner.token })).body.isLive).toBe(false);

    const live = await eventually(async () => {
      const answer = await call('GET', `${BASE}/events/slug/${event.slug}`, { token: fans[0].token });
      expect(answer.body.status).toBe('live');
      expect(answer.body.liveAt).not.toBeNull();
      return answer.body as { liveAt: string };
    }, 15_000);
    expect(Date.parse(live.liveAt)).toBeGreaterThanOrEqual(Date.parse(startTime));
    expect((await call('GET', `${BASE}/rooms/${room.slug}`, { token: owner.token })).body.isLive).toBe(true);

    // One notification per member (the owner is one), keyed by the member, as the social service reads them.
    const members = [owner.uuid, ...fans.map((f) => f.uuid)].sort();
    const mine = () =>
      notifications
        .filter((m) => m.headers['event-type'] === 'notification.requested')
        .map((m) => ({ key: m.key, message: NotificationRequested.decode(m.value) }))
        .filter((m) => m.message.data.eventUuid === event.uuid);
    const notes = await eventually(async () => {
      expect(mine()).toHaveLength(3);
      return mine();
    }, 20_000);
    expect(notes.map((n) => n.key).sort()).toEqual(members);
    expect(notes.map((n) => n.message.recipientUserUuid).sort()).toEqual(members);
    expect(notes[0]!.message).toMatchObject({
      kind: 'eventLive',
      title: 'Launch Party is live now',
      data: {
        eventSlug: event.slug,
        roomUuid: room.uuid,
        roomSlug: room.slug,
        communityUuid: community.uuid,
        communitySlug: community.slug,
      },
    });
    // Both replicas kept beating: still one each.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(mine()).toHaveLength(3);
    expect((await call('GET', `${BASE}/events/upcoming?community=${community.slug}`, { token: owner.token })).body).toMatchObject({
      total: 1,
      events: [{ uuid: event.uuid, status: 'live' }],
    });
  });
});
