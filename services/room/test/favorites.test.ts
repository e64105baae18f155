import { describe, expect, it } from 'vitest';
import { favoritesListing } from '../src/domain/rooms.js';

const fan = { userUuid: '0b9e2a35-3c4d-4e5f-8a9b-0c1d2e3f4a5b', role: 'user' };
const other = '1c9e2a35-3c4d-4e5f-8a9b-0c1d2e3f4a5b';

describe('the favourite-rooms listing rule', () => {
  it("shows a user their own private favourites, others' only to administrators, and none to guests", () => {
    expect(favoritesListing(fan, undefined, true)).toEqual({ kind: 'favorites', userUuid: fan.userUuid, includePrivate: true });
    expect(favoritesListing(fan, other, true)).toEqual({ kind: 'favorites', userUuid: other, includePrivate: false });
    expect(favoritesListing({ userUuid: fan.userUuid, role: 'admin' }, other, true)).toEqual({
      kind: 'favorites',
      userUuid: other,
      includePrivate: true,
    });
    expect(favoritesListing(fan, undefined, false)).toMatchObject({ includePrivate: false });
    expect(() => favoritesListing({ userUuid: fan.userUuid, role: 'guest' }, undefined, false)).toThrow(
      'Guests cannot keep favourite rooms',
    );
  });
});
