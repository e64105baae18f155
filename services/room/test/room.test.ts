import { describe, expect, it } from 'vitest';
import { authorityToChange, normalizeSlug, settingsBeyond, settingsProblems, slugCandidate, slugify } from '../src/domain/room.js';

describe('slugs', () => {
  it('derives a lower-case slug from the name', () => {
    expect(slugify('Spinroom Lounge')).toBe('spinroom-lounge');
    expect(slugify('  Café   del Mar!! ')).toBe('cafe-del-mar');
    expect(slugify('!!!')).toBe('room');
    expect(slugify('x'.repeat(100))).toHaveLength(64);
  });

  it('adds -2, -3, ... on a clash and steps around reserved slugs', () => {
    expect(slugCandidate('lounge', 0)).toBe('lounge');
    expect(slugCandidate('lounge', 1)).toBe('lounge-2');
    expect(slugCandidate('public', 0)).toBe('public-room');
    expect(slugCandidate('a'.repeat(64), 2)).toBe(`${'a'.repeat(62)}-3`);
  });

  it('lower-cases a chosen slug and refuses malformed or reserved ones', () => {
    expect(normalizeSlug('My-Room')).toBe('my-room');
    expect(() => normalizeSlug('my room')).toThrow(/slug must be/);
    expect(() => normalizeSlug('-x')).toThrow(/slug must be/);
    expect(() => normalizeSlug('Promoted-Rooms')).toThrow('The slug "promoted-rooms" is reserved');
  });
});

describe('settings', () => {
  it('names every problem', () => {
    expect(
      settingsProblems({
        numberOfDjs: 0,
        songsPerDj: 1.5,
        design: 'SPACESHIP',
        musicProviderKeys: ['myspace'],
        password: 'abc',
        posterUrl: 'ftp://x',
      }),
    ).toEqual([
      'design must be one of BARN, BARN_UA, CHAT_ONLY, CLUB, CLUB_UA, FERRY_BUILDING, FESTIVAL, STADIUM, THEATER, TOMORROWLAND, UNDERGROUND, YACHT',
      'numberOfDjs must be a whole number from 1 to 10',
      'songsPerDj must be a whole number from 0 to 100',
      'musicProviderKeys must be among apple, audius, napster, soundCloudPublic, spotify, uploadService, youtube',
      'password must be 4 to 128 characters',
      'posterUrl must be an http(s) URL',
    ]);
    expect(settingsProblems({ numberOfDjs: 10, songsPerDj: 0, password: null, pinnedMessages: [{ message: { message: 'hi' } }] })).toEqual(
      [],
    );
    expect(settingsProblems({ pinnedMessages: ['hi'] })).toEqual(['each pinned message must be {message: {message, userName, ...}}']);
  });

  it('leaves the stage to moderators, the room to owners and coOwners, promotion to global roles', () => {
    expect(authorityToChange('songsPerDj')).toBe('moderator');
    expect(authorityToChange('djType')).toBe('coOwner');
    expect(authorityToChange('promoted')).toBe('global');
    expect(settingsBeyond('moderator', { songsPerDj: 1, name: 'x', promoted: true })).toEqual(['name', 'promoted']);
    expect(settingsBeyond('owner', { name: 'x', password: null })).toEqual([]);
  });
});
