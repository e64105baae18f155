import type { AppError } from '@spinroom/platform';
import { describe, expect, it } from 'vitest';
import {
  activeRoles,
  authorityOf,
  canDj,
  checkChangeOwner,
  checkGrant,
  checkRemoval,
  grantActionType,
  highestRole,
  isActive,
  isBanned,
  type RoomRoleName,
} from '../src/domain/room-roles.js';

const roles = (...names: RoomRoleName[]) => names.map((role) => ({ role }));
const status = (fn: () => void) => {
  try {
    fn();
    return 200;
  } catch (error) {
    return (error as AppError).status;
  }
};

describe('role expiry', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  it('counts a role until its expiration time, and forever without one', () => {
    expect(isActive({ expirationTime: null }, now)).toBe(true);
    expect(isActive({ expirationTime: new Date('2026-11-23T12:00:01Z') }, now)).toBe(true);
    expect(isActive({ expirationTime: new Date('2026-11-23T12:00:00Z') }, now)).toBe(false);
    expect(isActive({ expirationTime: new Date('2026-11-23T11:00:00Z') }, now)).toBe(false);
  });

  it('ignores expired roles everywhere once filtered', () => {
    const held = [
      { role: 'banned' as const, expirationTime: new Date('2026-11-23T11:59:00Z') },
      { role: 'dj' as const, expirationTime: null },
    ];
    const active = activeRoles(held, now);
    expect(active.map((r) => r.role)).toEqual(['dj']);
    expect(isBanned(active)).toBe(false);
    expect(isBanned(held)).toBe(true);
  });
});

describe('the ladder', () => {
  it('ranks global roles above the owner, then coOwner, moderator, everyone', () => {
    expect(authorityOf(roles('owner'), 'admin')).toBe('global');
    expect(authorityOf([], 'globalModerator')).toBe('global');
    expect(authorityOf(roles('dj', 'coOwner', 'moderator'), 'user')).toBe('coOwner');
    expect(authorityOf(roles('dj'), 'user')).toBe('everyone');
    expect(authorityOf([], 'moderator')).toBe('everyone'); // a token moderator is not a room moderator
    expect(highestRole(roles('dj', 'moderator', 'banned'))).toBe('moderator');
    expect(highestRole(roles('banned'))).toBeNull();
  });

  it('lets moderators grant dj and restrictions to users below them only', () => {
    expect(status(() => checkGrant('moderator', 'm', 'dj', 'everyone', 'u'))).toBe(200);
    expect(status(() => checkGrant('moderator', 'm', 'banned', 'everyone', 'u'))).toBe(200);
    expect(status(() => checkGrant('moderator', 'm', 'kicked', 'moderator', 'u'))).toBe(403);
    expect(status(() => checkGrant('moderator', 'm', 'moderator', 'everyone', 'u'))).toBe(403);
    expect(status(() => checkGrant('moderator', 'm', 'coOwner', 'everyone', 'u'))).toBe(403);
    expect(status(() => checkGrant('everyone', 'x', 'dj', 'everyone', 'u'))).toBe(403);
  });

  it('lets coOwners also grant moderator, the owner coOwner, global roles restrict owners', () => {
    expect(status(() => checkGrant('coOwner', 'c', 'moderator', 'everyone', 'u'))).toBe(200);
    expect(status(() => checkGrant('coOwner', 'c', 'coOwner', 'everyone', 'u'))).toBe(403);
    expect(status(() => checkGrant('owner', 'o', 'coOwner', 'everyone', 'u'))).toBe(200);
    expect(status(() => checkGrant('owner', 'o', 'banned', 'owner', 'o'))).toBe(403);
    expect(status(() => checkGrant('global', 'a', 'banned', 'owner', 'o'))).toBe(200);
    expect(status(() => checkGrant('global', 'a', 'owner', 'everyone', 'u'))).toBe(403);
  });

  it('removes along the same ladder; anyone may give up their own positive role', () => {
    expect(status(() => checkRemoval('moderator', 'm', 'banned', 'everyone', 'u'))).toBe(200);
    expect(status(() => checkRemoval('moderator', 'm', 'coOwner', 'coOwner', 'c'))).toBe(403);
    expect(status(() => checkRemoval('coOwner', 'c', 'moderator', 'coOwner', 'c2'))).toBe(403);
    expect(status(() => checkRemoval('owner', 'o', 'coOwner', 'coOwner', 'c'))).toBe(200);
    expect(status(() => checkRemoval('everyone', 'd', 'dj', 'everyone', 'd'))).toBe(200);
    expect(status(() => checkRemoval('moderator', 'm', 'chatDisabled', 'moderator', 'm'))).toBe(403);
  });

  it('hands ownership over by the owner or a global role', () => {
    expect(status(() => checkChangeOwner('owner'))).toBe(200);
    expect(status(() => checkChangeOwner('global'))).toBe(200);
    expect(status(() => checkChangeOwner('coOwner'))).toBe(403);
  });

  it("names spec 002's action types", () => {
    expect(grantActionType('banned', null)).toBe('banUser');
    expect(grantActionType('banned', new Date())).toBe('temporaryBan');
    expect(grantActionType('kicked', new Date())).toBe('kickUser');
    expect(grantActionType('moderator', null)).toBe('grantRole');
  });
});

describe('canDj', () => {
  const room = (djType: 'EVERYONE' | 'INVITE_ONLY' | 'PRO_PLAN_OWNER' | 'VERIFIED_ONLY') => ({ djType });

  it('EVERYONE: anyone but guests', () => {
    expect(canDj(room('EVERYONE'), [], 'user')).toBe(true);
    expect(canDj(room('EVERYONE'), [], 'bot')).toBe(true);
    expect(canDj(room('EVERYONE'), [], 'guest')).toBe(false);
  });

  it('INVITE_ONLY: dj, moderator, coOwner and owner holders', () => {
    expect(canDj(room('INVITE_ONLY'), [], 'user')).toBe(false);
    for (const held of ['dj', 'moderator', 'coOwner', 'owner'] as const) expect(canDj(room('INVITE_ONLY'), roles(held), 'user')).toBe(true);
  });

  it('PRO_PLAN_OWNER: the owner only (and global roles)', () => {
    expect(canDj(room('PRO_PLAN_OWNER'), roles('coOwner'), 'user')).toBe(false);
    expect(canDj(room('PRO_PLAN_OWNER'), roles('owner'), 'user')).toBe(true);
    expect(canDj(room('PRO_PLAN_OWNER'), [], 'admin')).toBe(true);
  });

  it('VERIFIED_ONLY: the VERIFIED badge, or an invitation', () => {
    expect(canDj(room('VERIFIED_ONLY'), [], 'user', ['PLATINUM'])).toBe(false);
    expect(canDj(room('VERIFIED_ONLY'), [], 'user', ['VERIFIED'])).toBe(true);
    expect(canDj(room('VERIFIED_ONLY'), roles('dj'), 'user')).toBe(true);
  });

  it('never for banned or djDisabled users, whatever else they hold', () => {
    expect(canDj(room('EVERYONE'), roles('djDisabled'), 'user')).toBe(false);
    expect(canDj(room('EVERYONE'), roles('owner', 'banned'), 'admin')).toBe(false);
  });
});
