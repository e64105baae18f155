import { describe, expect, it } from 'vitest';
import { isAdminRole, isContentModeratorRole, isGlobalRole, isRoomRole, isUuid, pageOf, ROLES } from '../src/vocabulary/index.js';

describe('shared vocabulary', () => {
  it('pages: 0 is the default, 1 to 100 allowed, a negative offset refused', () => {
    expect(pageOf({ limit: 0, offset: 0 })).toEqual({ limit: 20, offset: 0 });
    expect(pageOf({ limit: 0, offset: 5 }, 50)).toEqual({ limit: 50, offset: 5 });
    expect(pageOf({ limit: 100, offset: 0 })).toEqual({ limit: 100, offset: 0 });
    for (const bad of [
      { limit: 101, offset: 0 },
      { limit: -1, offset: 0 },
      { limit: 10, offset: -1 },
    ]) {
      expect(() => pageOf(bad)).toThrow('limit must be 1 to 100 and offset 0 or more');
    }
  });

  it('knows a uuid in any case, and nothing else', () => {
    expect(isUuid('0B9E2A35-3c4d-4e5f-8a9b-0c1d2e3f4a5b')).toBe(true);
    expect(isUuid('0b9e2a35-3c4d-4e5f-8a9b-0c1d2e3f4a5b ')).toBe(false);
    expect(isUuid('not-a-uuid')).toBe(false);
  });

  it('names each role set by what it allows', () => {
    expect(ROLES.filter(isGlobalRole)).toEqual(['globalModerator', 'admin', 'staff', 'superUser']);
    expect(ROLES.filter(isAdminRole)).toEqual(['admin', 'superUser']);
    expect(ROLES.filter(isContentModeratorRole)).toEqual(['globalModerator', 'admin', 'moderator', 'superUser']);
    expect(isGlobalRole(undefined)).toBe(false);
    expect(isRoomRole('coOwner')).toBe(true);
    expect(isRoomRole('admin')).toBe(false);
  });
});
