import { describe, expect, it } from 'vitest';
import { addBadges, checkBadges, removeBadges } from '../src/domain/profiles/badges.js';
import { checkImageKind, checkImageUpload } from '../src/domain/profiles/images.js';
import { checkUserData, seoPage, USER_DATA_MAX_BYTES } from '../src/domain/profiles/profile-paths.js';

describe('profile rules', () => {
  it('keeps badges known, once each, in the catalogue order', () => {
    expect(checkBadges(['STAFF', 'VERIFIED', 'STAFF'])).toEqual(['VERIFIED', 'STAFF']);
    expect(() => checkBadges(['GOLD'])).toThrow(expect.objectContaining({ status: 400 }));
    expect(addBadges(['JQBX'], ['VERIFIED', 'JQBX'])).toEqual(['VERIFIED', 'JQBX']);
    expect(removeBadges(['VERIFIED', 'JQBX'], ['JQBX', 'PLATINUM'])).toEqual(['VERIFIED']);
    expect(() => removeBadges(['VERIFIED'], ['verified'])).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('takes user data as a JSON object of 16 KB at most', () => {
    expect(checkUserData({ theme: 'dark' })).toEqual({ theme: 'dark' });
    for (const value of [[], null, undefined, 'text', 1]) {
      expect(() => checkUserData(value), String(value)).toThrow(expect.objectContaining({ status: 400 }));
    }
    const big = { x: 'é'.repeat(USER_DATA_MAX_BYTES / 2) }; // under 16 K characters, over 16 KB as JSON
    expect(() => checkUserData(big)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('pages the SEO listings by take (default 100, at most 1000) and skip', () => {
    expect(seoPage(0, 0)).toEqual({ take: 100, skip: 0 });
    expect(seoPage(1000, 20)).toEqual({ take: 1000, skip: 20 });
    expect(() => seoPage(1001, 0)).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => seoPage(10, -1)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('checks a picture kind, declared type and size', () => {
    expect(checkImageKind('coverPicture')).toBe('coverPicture');
    expect(() => checkImageKind('avatar')).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => checkImageKind(undefined)).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => checkImageUpload({ contentType: 'IMAGE/JPEG', content: Buffer.alloc(10) }, 100)).not.toThrow();
    expect(() => checkImageUpload({ contentType: 'image/svg+xml', content: Buffer.alloc(10) }, 100)).toThrow(
      expect.objectContaining({ status: 415 }),
    );
    expect(() => checkImageUpload({ contentType: 'image/png', content: Buffer.alloc(0) }, 100)).toThrow(
      expect.objectContaining({ status: 400 }),
    );
    expect(() => checkImageUpload({ contentType: 'image/png', content: Buffer.alloc(101) }, 100)).toThrow(
      expect.objectContaining({ status: 413 }),
    );
  });
});
