// The social service's rules, on stores held in memory: who may do what,
// blocks refusing invitations, invitations answered once and by their
// recipient, pages of 12, devices' registrations, and address books kept only
// as HMACs of their normalised values.
import { randomUUID } from 'node:crypto';
import { AppError } from '@spinroom/platform/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TAKE, MAX_TAKE, pageOf, type Actor } from '../src/domain/actors.js';
import { Blocks, type BlockStore } from '../src/domain/blocks.js';
import { ContactHasher, Contacts, hashContacts, normaliseEmail, normalisePhone, type ContactStore } from '../src/domain/contacts.js';
import { checkDevice, Devices, type DeviceStore } from '../src/domain/devices.js';
import { DjFans, type DjFanStore } from '../src/domain/dj-fans.js';
import { Friends, type FriendInvitation, type FriendStore } from '../src/domain/friends.js';
import type { PushEndpointRules } from '../src/notifications/notification.js';

const user = (userUuid = randomUUID()): Actor => ({ userUuid, role: 'user', kind: 'user' });
const guest: Actor = { userUuid: randomUUID(), role: 'guest', kind: 'guest' };
const service: Actor = { userUuid: 'service:chat', role: 'service', kind: 'service' };
const admin: Actor = { userUuid: randomUUID(), role: 'admin', kind: 'user' };

/** The status and message of what a call threw, or 'ok'. */
async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return `${error.status} ${String(error.message)}`;
    throw error;
  }
}

/** Blocks and invitations in memory, enough for the rules. */
function memoryStores() {
  const blocks: Array<{ blocker: string; blocked: string }> = [];
  const invitations = new Map<string, FriendInvitation>();
  const friendships = new Set<string>();
  const pair = (a: string, b: string) => [a, b].sort().join('/');
  const blockStore: Pick<BlockStore, 'between'> = {
    async between(a, b) {
      return {
        userBlockedOther: blocks.some((x) => x.blocker === a && x.blocked === b),
        otherBlockedUser: blocks.some((x) => x.blocker === b && x.blocked === a),
      };
    },
  };
  const friendStore = {
    async invite(from: string, to: string, now: Date) {
      if (friendships.has(pair(from, to))) return 'friends' as const;
      if ([...invitations.values()].some((i) => i.status === 'PENDING' && pair(i.fromUuid, i.toUuid) === pair(from, to)))
        return 'pending' as const;
      const invitation: FriendInvitation = {
        id: randomUUID(),
        fromUuid: from,
        toUuid: to,
        status: 'PENDING',
        createdAt: now,
        answeredAt: null,
      };
      invitations.set(invitation.id, invitation);
      return invitation;
    },
    async findInvitation(id: string) {
      return invitations.get(id);
    },
    async answer(id: string, accept: boolean, now: Date) {
      const invitation = invitations.get(id);
      if (invitation?.status !== 'PENDING') return undefined;
      Object.assign(invitation, { status: accept ? 'ACCEPTED' : 'REJECTED', answeredAt: now });
      if (accept) friendships.add(pair(invitation.fromUuid, invitation.toUuid));
      return { invitation };
    },
    async deleteInvitation(id: string) {
      return invitations.delete(id);
    },
  } as unknown as FriendStore;
  return { blocks, friendships, blockStore, friendStore };
}

describe('pages', () => {
  it('are 12 long unless asked otherwise, at most 100, never before the start', () => {
    expect(pageOf(undefined)).toEqual({ skip: 0, take: DEFAULT_TAKE });
    expect(DEFAULT_TAKE).toBe(12);
    expect(pageOf({ skip: 24, take: 0 })).toEqual({ skip: 24, take: 12 });
    expect(pageOf({ skip: -3, take: 5000 })).toEqual({ skip: 0, take: MAX_TAKE });
  });
});

describe('blocks', () => {
  const store = {
    block: async (blocker: string, blocked: string, now: Date) => ({
      block: { id: randomUUID(), blockerUuid: blocker, blockedUuid: blocked, createdAt: now },
      created: true,
    }),
  } as unknown as BlockStore;
  const blocks = new Blocks(store);

  it('are made by members, of someone else, named by a uuid', async () => {
    const alice = user();
    expect(await outcome(() => blocks.block(alice, randomUUID()))).toBe('ok');
    expect(await outcome(() => blocks.block(alice, alice.userUuid))).toBe('400 You cannot block yourself');
    expect(await outcome(() => blocks.block(guest, randomUUID()))).toBe('403 Forbidden');
    expect(await outcome(() => blocks.block(service, randomUUID()))).toBe('403 Forbidden');
    expect(await outcome(() => blocks.block(alice, 'bob'))).toBe('404 User not found');
  });

  it('are told to services, admins and the two users, to no one else', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const between = new Blocks({ between: async () => ({ userBlockedOther: true, otherBlockedUser: false }) } as unknown as BlockStore);
    expect(await between.between(service, a, b)).toEqual({ blocked: true, userBlockedOther: true, otherBlockedUser: false });
    expect(await outcome(() => between.between(user(a), a, b))).toBe('ok');
    expect(await outcome(() => between.between(user(b), a, b))).toBe('ok');
    expect(await outcome(() => between.between(admin, a, b))).toBe('ok');
    expect(await outcome(() => between.between(user(), a, b))).toBe('403 Forbidden');
  });
});

describe('friend invitations', () => {
  it('are refused between blocked users, whoever blocked whom, and to oneself', async () => {
    const { blocks, blockStore, friendStore } = memoryStores();
    const friends = new Friends(friendStore, blockStore);
    const [alice, bob] = [user(), user()];
    blocks.push({ blocker: bob.userUuid, blocked: alice.userUuid });
    expect(await outcome(() => friends.invite(alice, bob.userUuid))).toBe('403 You cannot invite this user');
    expect(await outcome(() => friends.invite(bob, alice.userUuid))).toBe('403 You cannot invite this user');
    expect(await outcome(() => friends.invite(alice, alice.userUuid))).toBe('400 You cannot invite yourself');
    expect(await outcome(() => friends.invite(guest, bob.userUuid))).toBe('403 Forbidden');
  });

  it('go one at a time between two users, are answered once and only by their recipient', async () => {
    const { blocks, friendships, blockStore, friendStore } = memoryStores();
    const friends = new Friends(friendStore, blockStore);
    const [alice, bob, carol] = [user(), user(), user()];
    const invitation = await friends.invite(alice, bob.userUuid);
    expect(await outcome(() => friends.invite(bob, alice.userUuid))).toBe('409 A friend invitation between you is already pending');
    expect(await outcome(() => friends.answer(carol, invitation.id, 'ACCEPTED'))).toBe('404 Friend invitation not found');
    expect(await outcome(() => friends.answer(alice, invitation.id, 'ACCEPTED'))).toBe(
      '403 Only the invited user can answer a friend invitation',
    );
    expect(await outcome(() => friends.answer(bob, invitation.id, 'MAYBE'))).toBe('400 status must be ACCEPTED or REJECTED');
    expect((await friends.answer(bob, invitation.id, 'ACCEPTED')).invitation.status).toBe('ACCEPTED');
    expect(friendships.size).toBe(1);
    expect(await outcome(() => friends.answer(bob, invitation.id, 'REJECTED'))).toBe('409 This friend invitation was already answered');
    expect(await outcome(() => friends.invite(bob, alice.userUuid))).toBe('409 You are already friends');

    // A block made while an invitation waits keeps it from being accepted.
    const second = await friends.invite(carol, bob.userUuid);
    blocks.push({ blocker: carol.userUuid, blocked: bob.userUuid });
    expect(await outcome(() => friends.answer(bob, second.id, 'ACCEPTED'))).toBe('403 You cannot invite this user');
    expect((await friends.answer(bob, second.id, 'REJECTED')).invitation.status).toBe('REJECTED');
  });
});

describe('DJ fans', () => {
  const fans = new DjFans({} as DjFanStore);

  it('follow someone else, as members; the devices of fans are for services and admins', async () => {
    const alice = user();
    expect(await outcome(() => fans.follow(alice, alice.userUuid))).toBe('400 You cannot follow yourself');
    expect(await outcome(() => fans.follow(guest, randomUUID()))).toBe('403 Forbidden');
    expect(await outcome(() => fans.follow(alice, 'dj'))).toBe('404 DJ not found');
    expect(await outcome(() => fans.fanDevices(alice, randomUUID(), '', 10))).toBe('403 Forbidden');
    expect(await outcome(() => fans.adminDjs(alice, { skip: 0, take: 12 }))).toBe('403 Forbidden');
    expect(await fans.fanDevices(service, 'not-a-dj', '', 10)).toEqual([]);
  });
});

describe('devices', () => {
  const PUSH: PushEndpointRules = { hosts: ['push.example', '*.notify.windows.com'], plainHttpOrigins: ['http://127.0.0.1:9000'] };

  it('are a push token for phones and a Web Push subscription for browsers', () => {
    expect(checkDevice({ token: ' abc ', type: 'ios' }, PUSH)).toEqual({
      token: 'abc',
      type: 'ios',
      webPushP256dh: null,
      webPushAuth: null,
    });
    expect(() => checkDevice({ token: 'abc', type: 'windows' }, PUSH)).toThrow('type must be one of ios, android, web');
    expect(() => checkDevice({ token: '', type: 'android' }, PUSH)).toThrow('token must be 1 to 2048 characters');
    expect(() => checkDevice({ token: 'not a url', type: 'web', webPushP256dh: 'BA', webPushAuth: 'x' }, PUSH)).toThrow(/endpoint/);
    expect(() => checkDevice({ token: 'https://push.example/abc', type: 'web' }, PUSH)).toThrow(/p256dh and auth/);
    expect(
      checkDevice({ token: 'https://push.example/abc', type: 'web', webPushP256dh: 'BNc_x-1', webPushAuth: 'tBHI' }, PUSH),
    ).toMatchObject({
      webPushP256dh: 'BNc_x-1',
      webPushAuth: 'tBHI',
    });
    // Only a push service delivery may post to: a known host over https, or an allowed local origin.
    const keys = { webPushP256dh: 'BNc_x-1', webPushAuth: 'tBHI' };
    expect(checkDevice({ token: 'https://wns2-bl2p.notify.windows.com/w/?token=1', type: 'web', ...keys }, PUSH).type).toBe('web');
    expect(checkDevice({ token: 'http://127.0.0.1:9000/push/1', type: 'web', ...keys }, PUSH).type).toBe('web');
    for (const token of [
      'https://evil.example/abc',
      'http://push.example/abc',
      'http://127.0.0.1:9001/push/1',
      'https://user:pw@push.example/x',
    ]) {
      expect(() => checkDevice({ token, type: 'web', ...keys }, PUSH), token).toThrow(
        "A web device's endpoint must be a browser's push service",
      );
    }
  });

  it("are removed by token from the caller's own, or from anyone's by services and admins", async () => {
    const removed: Array<[string, string | undefined]> = [];
    const devices = new Devices(
      {
        remove: async (token: string, owner?: string) => {
          removed.push([token, owner]);
          return true;
        },
      } as unknown as DeviceStore,
      PUSH,
    );
    const alice = user();
    await devices.remove(alice, 't1');
    await devices.remove(service, 't2');
    await devices.remove(admin, 't3');
    expect(removed).toEqual([
      ['t1', alice.userUuid],
      ['t2', undefined],
      ['t3', undefined],
    ]);
    expect(await outcome(() => devices.list(user(), alice.userUuid))).toBe('403 Forbidden');
  });
});

describe('address books', () => {
  it('normalise emails and phone numbers before hashing', () => {
    expect(normaliseEmail('  Alice@Example.COM ')).toBe('alice@example.com');
    expect(normaliseEmail('alice')).toBeUndefined();
    expect(normalisePhone('+1 (555) 123-4567')).toBe('+15551234567');
    expect(normalisePhone('0044 20 7946 0958')).toBe('+442079460958');
    expect(normalisePhone('555 1234')).toBeUndefined();
    expect(normalisePhone('call me')).toBeUndefined();
  });

  it('keep only an HMAC under the deployment secret, the same for the same contact however it is written', () => {
    const hasher = new ContactHasher('s'.repeat(32));
    const { hashed, skipped } = hashContacts(hasher, [
      { phoneNumbers: ['+1 555 123 4567', '+15551234567', 'nope'], emails: ['A@B.co', 'a@b.co'] },
    ]);
    expect(skipped).toBe(1);
    expect(hashed).toHaveLength(2);
    for (const { hash } of hashed) expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(hashed)).not.toContain('555');
    // Another deployment's secret gives other hashes.
    expect(new ContactHasher('t'.repeat(32)).hash('email', 'a@b.co')).not.toBe(hasher.hash('email', 'a@b.co'));
    expect(() => hashContacts(hasher, [{ phoneNumbers: [], emails: Array.from({ length: 5001 }, (_, i) => `${i}@x.io`) }])).toThrow(
      /At most 5000/,
    );
  });

  it('answer 503 without the secret, and are for members', async () => {
    const store = { store: async () => ({ stored: 0, total: 0 }) } as unknown as ContactStore;
    expect(await outcome(() => new Contacts(store, undefined).save(user(), [], false))).toBe('503 Contacts are not available');
    expect(new Contacts(store, undefined).directoryEntry('a@b.co')).toBeUndefined();
    const contacts = new Contacts(store, new ContactHasher('s'.repeat(32)));
    expect(await outcome(() => contacts.save(guest, [], false))).toBe('403 Forbidden');
    expect(await outcome(() => contacts.adminList(user(), randomUUID(), { skip: 0, take: 12 }))).toBe('403 Forbidden');
    expect(contacts.directoryEntry('A@B.co')).toEqual({ kind: 'email', hash: new ContactHasher('s'.repeat(32)).hash('email', 'a@b.co') });
  });
});
