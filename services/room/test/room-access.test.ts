import { describe, expect, it } from 'vitest';
import { ACCESS_MESSAGES, decideAccess, doorOf, entryObstacle, hasDoor, isInsider, seesEveryRoom } from '../src/domain/room-access.js';
import type { RoomRoleName } from '../src/domain/room-roles.js';

type Door = { type: 'PUBLIC' | 'PRIVATE'; passwordHash: string | null; guestPasswordHash: string | null };
const open: Door = { type: 'PUBLIC', passwordHash: null, guestPasswordHash: null };
const locked: Door = { type: 'PUBLIC', passwordHash: '$argon2id$one', guestPasswordHash: null };
const hidden: Door = { type: 'PRIVATE', passwordHash: null, guestPasswordHash: null };
const until = new Date(Date.now() + 60_000);
const roles = (...names: RoomRoleName[]) => names.map((role) => ({ role, expirationTime: role === 'kicked' ? until : null }));
const decide = (room: Door, held: ReturnType<typeof roles> = [], options: { tokenRole?: string; passedDoor?: string | null } = {}) =>
  decideAccess({ room, roles: held, tokenRole: options.tokenRole ?? 'user', passedDoor: options.passedDoor ?? null });

describe('room access: the one rule', () => {
  it('lets everyone into a room without a door', () => {
    expect(hasDoor(open)).toBe(false);
    expect(decide(open)).toEqual({ mayRead: true, mayEnter: true, refusal: null, kickedUntil: null });
    expect(decide(open, [], { tokenRole: 'guest' }).mayEnter).toBe(true);
  });

  it('keeps banned users out of reading and entering, everywhere and before anything else', () => {
    for (const room of [open, locked, hidden]) {
      expect(decide(room, roles('banned'))).toMatchObject({ mayRead: false, mayEnter: false, refusal: 'banned' });
      expect(decide(room, roles('banned', 'owner'), { passedDoor: doorOf(room) }).refusal).toBe('banned');
    }
    expect(decide(open, roles('banned'), { tokenRole: 'admin' }).refusal).toBe('banned');
  });

  it('lets kicked users read what they may but not enter (nor post) until the kick ends', () => {
    expect(decide(open, roles('kicked'))).toEqual({ mayRead: true, mayEnter: false, refusal: 'kicked', kickedUntil: until });
    expect(decide(locked, roles('kicked'), { passedDoor: doorOf(locked) })).toMatchObject({
      mayRead: true,
      mayEnter: false,
      refusal: 'kicked',
    });
    expect(decide(locked, roles('kicked'))).toMatchObject({ mayRead: false, mayEnter: false, refusal: 'kicked' });
  });

  it('asks for the password behind a password door, and PRIVATE rooms let in only those admitted', () => {
    expect(decide(locked)).toEqual({ mayRead: false, mayEnter: false, refusal: 'passwordRequired', kickedUntil: null });
    expect(decide({ ...hidden, passwordHash: '$argon2id$two' }).refusal).toBe('passwordRequired');
    expect(decide(hidden)).toMatchObject({ mayRead: false, mayEnter: false, refusal: 'private' });
    expect(decide(locked, [], { tokenRole: 'guest' }).refusal).toBe('passwordRequired');
    expect(decide(locked, [], { passedDoor: doorOf(locked) })).toMatchObject({ mayRead: true, mayEnter: true, refusal: null });
    expect(decide(hidden, [], { passedDoor: doorOf(hidden) }).mayEnter).toBe(true);
  });

  it('counts room role holders and global roles as behind the door, restrictions and token moderators not', () => {
    for (const role of ['owner', 'coOwner', 'moderator', 'dj'] as const) expect(decide(hidden, roles(role)).mayEnter).toBe(true);
    for (const role of ['chatDisabled', 'djDisabled'] as const) expect(decide(locked, roles(role)).refusal).toBe('passwordRequired');
    for (const tokenRole of ['admin', 'superUser', 'globalModerator', 'staff'])
      expect(decide(hidden, [], { tokenRole }).mayRead).toBe(true);
    expect(isInsider([], 'moderator')).toBe(false);
    expect(decide(hidden, [], { tokenRole: 'service' }).mayRead).toBe(false); // a service asks about a user, not as one
  });

  it('closes the door to earlier admissions when the password, guest password or type changes', () => {
    const passed = doorOf(locked);
    expect(doorOf({ ...locked })).toBe(passed);
    expect(decide({ ...locked, passwordHash: '$argon2id$new' }, [], { passedDoor: passed }).refusal).toBe('passwordRequired');
    expect(decide({ ...locked, guestPasswordHash: '$argon2id$guest' }, [], { passedDoor: passed }).refusal).toBe('passwordRequired');
    expect(decide({ ...locked, type: 'PRIVATE' }, [], { passedDoor: passed }).refusal).toBe('passwordRequired');
    expect(decide(hidden, [], { passedDoor: passed }).refusal).toBe('private');
  });

  it('entering: banned and kicked users are refused, a password door asks for the password, a PRIVATE door opens to its link', () => {
    expect(entryObstacle(decide(open))).toBeNull();
    expect(entryObstacle(decide(locked, roles('banned')))).toBe('banned');
    expect(entryObstacle(decide(hidden, roles('kicked')))).toBe('kicked');
    expect(entryObstacle(decide(locked))).toBe('password');
    expect(entryObstacle(decide(hidden))).toBeNull();
    expect(entryObstacle(decide(locked, [], { passedDoor: doorOf(locked) }))).toBeNull();
    expect(ACCESS_MESSAGES.passwordRequired).toBe('This room requires a password');
  });

  it('shows every room in directories only to services and global roles', () => {
    expect(seesEveryRoom('service')).toBe(true);
    expect(seesEveryRoom('admin')).toBe(true);
    expect(seesEveryRoom('user')).toBe(false);
    expect(seesEveryRoom('guest')).toBe(false);
  });
});
