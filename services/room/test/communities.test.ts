import { randomUUID } from 'node:crypto';
import { NotificationRequested } from '@spinroom/contracts/events/v1/notifications';
import { type AppError, createLogger, dropDatabase, openServiceDatabase, type MikroORM } from '@spinroom/platform';
import { uniqueDatabaseUrl } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgCommunityStore } from '../src/db/community-store.js';
import { roomDatabase } from '../src/db/database.js';
import { PgRoomStore } from '../src/db/room-store.js';
import { Communities } from '../src/domain/communities.js';
import {
  checkMemberChange,
  checkMemberRemoval,
  checkSlug,
  checkSpecialChange,
  derivedSlug,
  communityAuthority,
  eventFields,
  eventStatus,
  liveDecision,
} from '../src/domain/community-rules.js';
import type { LiveRoomPort } from '../src/domain/live-room-port.js';
import { ROOM_DEFAULTS, type Room } from '../src/domain/room.js';
import type { Rooms } from '../src/domain/rooms.js';

const refusal = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (error) {
    return `${(error as AppError).status} ${(error as AppError).message}`;
  }
};

describe('community rules', () => {
  it('ranks global roles above the owner, then moderators and members', () => {
    expect(communityAuthority('admin', null)).toBe('global');
    expect(communityAuthority('staff', 'member')).toBe('global');
    expect(communityAuthority('user', 'moderator')).toBe('moderator');
    expect(communityAuthority('user', null)).toBe('none');
  });

  it('lets staff add members, only the owner name moderators, and never touches the owner', () => {
    expect(checkMemberChange('moderator', { current: null, wanted: 'member' })).toBe('member');
    expect(refusal(() => checkMemberChange('moderator', { current: null, wanted: 'moderator' }))).toBe(
      "403 Only the community's owner can choose its moderators",
    );
    expect(refusal(() => checkMemberChange('moderator', { current: 'moderator', wanted: 'member' }))).toBe(
      "403 Only the community's owner can choose its moderators",
    );
    expect(checkMemberChange('owner', { current: 'member', wanted: 'moderator' })).toBe('moderator');
    expect(checkMemberChange('global', { current: 'moderator', wanted: 'member' })).toBe('member');
    expect(refusal(() => checkMemberChange('member', { current: null, wanted: 'member' }))).toBe(
      "403 Only the community's owner and moderators can change its members",
    );
    expect(refusal(() => checkMemberChange('global', { current: 'owner', wanted: 'member' }))).toMatch(/^403 The community's owner cannot/);
    expect(refusal(() => checkMemberChange('owner', { current: null, wanted: 'owner' }))).toBe('400 role must be one of member, moderator');
  });

  it('removes members themselves or by someone strictly above them, never the owner', () => {
    expect(refusal(() => checkMemberRemoval('member', true, 'member'))).toBe('ok');
    expect(refusal(() => checkMemberRemoval('owner', true, 'owner'))).toBe('403 The owner cannot leave the community');
    expect(refusal(() => checkMemberRemoval('global', false, 'owner'))).toMatch(/^403 The community's owner cannot be removed/);
    expect(refusal(() => checkMemberRemoval('moderator', false, 'member'))).toBe('ok');
    expect(refusal(() => checkMemberRemoval('moderator', false, 'moderator'))).toBe('403 You are not allowed to remove this member');
    expect(refusal(() => checkMemberRemoval('owner', false, 'moderator'))).toBe('ok');
    expect(refusal(() => checkMemberRemoval('member', false, 'member'))).toBe('403 You are not allowed to remove this member');
  });

  it('keeps the special communities and refuses slugs that read as ids', () => {
    expect(refusal(() => checkSpecialChange({ slug: 'jqbx' }, { deleted: true }))).toBe('403 This community cannot be deleted');
    expect(refusal(() => checkSpecialChange({ slug: 'web3' }, { slug: 'web4' }))).toBe("403 This community's slug cannot change");
    expect(refusal(() => checkSpecialChange({ slug: 'web3' }, { slug: 'web3' }))).toBe('ok');
    expect(refusal(() => checkSpecialChange({ slug: 'house' }, { deleted: true }))).toBe('ok');
    expect(checkSlug(' House-Music ')).toBe('house-music');
    expect(refusal(() => checkSlug('1234'))).toBe('400 The slug "1234" is reserved');
    expect(refusal(() => checkSlug('upcoming'))).toBe('400 The slug "upcoming" is reserved');
    expect(refusal(() => checkSlug(randomUUID()))).toMatch(/^400 The slug ".*" is reserved$/);
    expect(refusal(() => checkSlug('a--b'))).toMatch(/^400 slug must be/);
    // Derived slugs never read as an id or a fixed path, and stay within 64 characters.
    expect(derivedSlug('Déjà Vu!', 0, 'community')).toBe('deja-vu');
    expect(derivedSlug('Déjà Vu!', 2, 'community')).toBe('deja-vu-3');
    expect(derivedSlug('2026', 0, 'event')).toBe('2026-event');
    expect(derivedSlug('Upcoming', 0, 'event')).toBe('upcoming-event');
    expect(derivedSlug('!!!', 0, 'community')).toBe('community');
    const long = derivedSlug('9'.repeat(80), 0, 'community');
    expect([long.length, checkSlug(long)]).toEqual([64, long]);
  });

  it('times events: two hours by default, the end after the start, a move keeping the length', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const start = new Date('2026-01-02T20:00:00Z');
    const created = eventFields({ name: 'Show', startTime: start }, null, now);
    expect(created.endTime).toEqual(new Date('2026-01-02T22:00:00Z'));
    expect(refusal(() => eventFields({ name: 'Show', startTime: start, endTime: start }, null, now))).toBe(
      '400 endTime must be after startTime',
    );
    expect(refusal(() => eventFields({ name: 'Show' }, null, now))).toBe('400 startTime is required');
    expect(refusal(() => eventFields({ name: 'Show', startTime: new Date('2029-01-01T00:00:00Z') }, null, now))).toBe(
      '400 startTime must be a date within two years',
    );
    const current = { startTime: start, endTime: new Date('2026-01-02T23:00:00Z') };
    const moved = eventFields({ startTime: new Date('2026-01-03T20:00:00Z') }, current, now);
    expect(moved).toEqual({ startTime: new Date('2026-01-03T20:00:00Z'), endTime: new Date('2026-01-03T23:00:00Z') });
    expect(eventFields({ description: 'x' }, current, now)).toEqual({ description: 'x' });
    expect(refusal(() => eventFields({ endTime: new Date('2026-01-02T19:00:00Z') }, current, now))).toBe(
      '400 endTime must be after startTime',
    );
  });

  it('says whether an event is upcoming, live or ended, and whether its start still makes the room live', () => {
    const event = { startTime: new Date(1000), endTime: new Date(2000) };
    expect(eventStatus(event, new Date(999))).toBe('upcoming');
    expect(eventStatus(event, new Date(1000))).toBe('live');
    expect(eventStatus(event, new Date(2000))).toBe('ended');
    expect(liveDecision(event, new Date(1500))).toBe('goLive');
    expect(liveDecision(event, new Date(2000))).toBe('missed');
  });
});

describe('events going live on PostgreSQL', () => {
  const databaseUrl = uniqueDatabaseUrl('room_communities');
  let orm: MikroORM;
  let roomStore: PgRoomStore;
  let store: PgCommunityStore;
  const changed: string[] = [];
  const live = { onChanged: async (change: { roomUuid: string }) => void changed.push(change.roomUuid) } as unknown as LiveRoomPort;
  const logger = createLogger('test', { level: 'silent' });
  const replica = (now: () => Date) => new Communities(store, roomStore, undefined as unknown as Rooms, live, logger, now);

  async function room(slug: string): Promise<Room> {
    return roomStore.write(async (tx) => {
      const created = (await roomStore.insert(tx, {
        ...ROOM_DEFAULTS,
        passwordHash: null,
        guestPasswordHash: null,
        posterUrl: null,
        externalUrl: null,
        discordGuildId: null,
        name: slug,
        slug,
      }))!;
      await roomStore.upsertRole(tx, created.id, randomUUID(), 'owner', null);
      return created;
    });
  }

  async function outbox(type: string): Promise<Array<{ key: string; payload: Buffer }>> {
    return orm.em
      .fork()
      .execute<Array<{ key: string; payload: Buffer }>>(
        `select "key", "payload" from "outbox_message" where "event_type" = ? order by "seq"`,
        [type],
      );
  }

  beforeAll(async () => {
    orm = await openServiceDatabase('room', databaseUrl, roomDatabase);
    roomStore = new PgRoomStore(orm);
    store = new PgCommunityStore(orm, roomStore);
  });
  afterAll(async () => {
    await orm?.close();
    await dropDatabase(databaseUrl);
  });

  it('has the special communities from the migration', async () => {
    expect((await store.findCommunity({ slug: 'jqbx' }))?.name).toBe('JQBX');
    expect((await store.findCommunity({ slug: 'web3' }))?.name).toBe('Web3');
  });

  it('makes the room live once across racing replicas, with the members notified in the same transaction', async () => {
    const stage = await room('event-stage');
    const members = Array.from({ length: 3 }, () => randomUUID());
    const { community, event } = await store.write(async (tx) => {
      const community = (await store.insertCommunity(tx, {
        name: 'House',
        slug: 'house',
        description: '',
        imageUrl: null,
        ownerUuid: members[0]!,
      }))!;
      await store.setOwnerMembership(tx, community.id, members[0]!);
      for (const member of members.slice(1)) await store.putMember(tx, community.id, member, 'member');
      const event = (await store.insertEvent(tx, {
        name: 'Friday night',
        slug: 'friday-night',
        description: '',
        imageUrl: null,
        startTime: new Date(Date.now() + 60_000),
        endTime: new Date(Date.now() + 3_600_000),
        roomId: stage.id,
        communityId: community.id,
        createdBy: members[0]!,
      }))!;
      return { community, event };
    });

    // Before its start: nothing is due.
    expect(await replica(() => new Date()).goLiveDue()).toBe(0);
    expect((await roomStore.find({ id: stage.id }))!.isLive).toBe(false);

    // At its start, three replicas race: one claims it.
    const at = () => new Date(event.startTime.getTime() + 1000);
    const claimed = await Promise.all([replica(at).goLiveDue(), replica(at).goLiveDue(), replica(at).goLiveDue()]);
    expect(claimed.reduce((a, b) => a + b, 0)).toBe(1);
    expect((await roomStore.find({ id: stage.id }))!.isLive).toBe(true);
    expect((await store.findEvent({ id: event.id }))!.liveAt).not.toBeNull();
    expect(changed).toEqual([stage.uuid]);

    const notes = await outbox('notification.requested');
    expect(notes.map((n) => n.key).sort()).toEqual([...members].sort());
    const message = NotificationRequested.decode(notes[0]!.payload);
    expect(message).toMatchObject({
      kind: 'eventLive',
      title: 'Friday night is live now',
      body: 'Friday night is live now in event-stage',
      data: {
        type: 'eventLive',
        eventUuid: event.uuid,
        eventSlug: 'friday-night',
        roomUuid: stage.uuid,
        roomSlug: 'event-stage',
        communityUuid: community.uuid,
        communitySlug: 'house',
      },
    });
    expect(notes.map((n) => NotificationRequested.decode(n.payload).recipientUserUuid).sort()).toEqual([...members].sort());
    const updates = (await outbox('room.updated')).filter((row) => row.key === stage.uuid);
    expect(updates).toHaveLength(1);

    // Later beats (a restart included) find nothing more to do.
    expect(await replica(at).goLiveDue()).toBe(0);
    expect(await outbox('notification.requested')).toHaveLength(3);
  });

  it('only marks an event that ended while no replica ran', async () => {
    const stage = await room('missed-stage');
    const event = await store.write(
      async (tx) =>
        (await store.insertEvent(tx, {
          name: 'Gone',
          slug: 'gone',
          description: '',
          imageUrl: null,
          startTime: new Date(Date.now() - 7_200_000),
          endTime: new Date(Date.now() - 3_600_000),
          roomId: stage.id,
          communityId: null,
          createdBy: randomUUID(),
        }))!,
    );
    const before = (await outbox('notification.requested')).length;
    expect(await replica(() => new Date()).goLiveDue()).toBe(1);
    expect((await store.findEvent({ id: event.id }))!.liveAt).not.toBeNull();
    expect((await roomStore.find({ id: stage.id }))!.isLive).toBe(false);
    expect(await outbox('notification.requested')).toHaveLength(before);
  });
});
