import { describe, expect, it } from 'vitest';
import { applyProfilePatch, defaultNickname, normalizeColor } from '../src/domain/profiles.js';
import { tokenRole, type User } from '../src/domain/user.js';

const user: User = {
  id: 1,
  uuid: '6f1c7a4e-7d3b-4a43-9d39-2f5c6a1b2c3d',
  kind: 'user',
  email: 'a@b.co',
  passwordHash: 'h',
  roles: ['user'],
  capabilities: [],
  badges: [],
  nickname: 'a',
  color: '#8A2BE2',
  avatarId: 'default',
  displayPronouns: false,
  createdAt: new Date(0),
  updatedAt: new Date(0),
};

describe('profile rules', () => {
  it('updates only the given fields and clears empty text', () => {
    const next = applyProfilePatch({ ...user, twitter: '@old' }, { nickname: '  DJ Ana ', color: 'ff00aa', twitter: '', zodiac: 'leo' });
    expect(next).toMatchObject({ nickname: 'DJ Ana', color: '#FF00AA', twitter: null, zodiac: 'leo', avatarId: 'default' });
  });

  it('refuses bad nicknames, colours and avatar ids', () => {
    expect(() => applyProfilePatch(user, { nickname: '   ' })).toThrow('Nickname must be between 1 and 32 characters');
    expect(() => applyProfilePatch(user, { nickname: 'x'.repeat(33) })).toThrow('Nickname must be between 1 and 32 characters');
    expect(() => normalizeColor('purple')).toThrow('Color must be a hex colour like #A1B2C3');
    expect(() => applyProfilePatch(user, { avatarId: '../etc' })).toThrow('avatarId must be an avatar slug');
    expect(() => applyProfilePatch(user, { facebook: 'x'.repeat(256) })).toThrow('facebook must be at most 255 characters');
  });

  it('keeps guests as ghosts', () => {
    expect(() => applyProfilePatch({ ...user, kind: 'guest' }, { nickname: 'me' })).toThrow('Guests cannot edit a profile');
  });

  it('derives a default nickname from the email', () => {
    expect(defaultNickname('dj.ana+rooms@example.com')).toBe('dj.anarooms');
    expect(defaultNickname('+++@example.com')).toBe('user');
  });

  it('puts the most privileged role in the token', () => {
    expect(tokenRole({ kind: 'user', roles: ['user', 'admin'] })).toBe('admin');
    expect(tokenRole({ kind: 'user', roles: ['user'] })).toBe('user');
    expect(tokenRole({ kind: 'guest', roles: ['guest'] })).toBe('guest');
    expect(tokenRole({ kind: 'bot', roles: ['bot'] })).toBe('bot');
  });
});
