import { ADMIN_ROLES as PLATFORM_ADMIN_ROLES } from '@spinroom/platform/vocabulary';
import { describe, expect, it } from 'vitest';
import { ADMIN_ROLES, adminUsersQuery, isAdminToken } from '../src/api/account';

const tokenWith = (claims: object) => `x.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.y`;

describe('the account screens’ rules', () => {
  it("shows the admin screens to the platform's admin roles only", () => {
    expect([...ADMIN_ROLES].sort()).toEqual([...PLATFORM_ADMIN_ROLES].sort());
    expect(isAdminToken(tokenWith({ role: 'admin' }))).toBe(true);
    expect(isAdminToken(tokenWith({ role: 'superUser' }))).toBe(true);
    expect(isAdminToken(tokenWith({ role: 'moderator' }))).toBe(false);
    expect(isAdminToken(tokenWith({ role: 'user' }))).toBe(false);
    expect(isAdminToken(null)).toBe(false);
  });

  it('asks the admin users list in the @nestjsx/crud syntax: a page, newest first, a search in email or nickname', () => {
    expect(adminUsersQuery('  ', 2)).toEqual({
      fields: 'id,uuid,kind,email,nickname,roles,capabilities,badges,createdAt',
      sort: 'id,DESC',
      limit: '20',
      page: '2',
    });
    expect(JSON.parse(adminUsersQuery(' Ana ', 1).s!)).toEqual({ $or: [{ email: { $contL: 'Ana' } }, { nickname: { $contL: 'Ana' } }] });
  });
});
