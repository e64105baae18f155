// Avatars for people who never chose one: a look made from their uuid over a
// larger set, the same wherever they are drawn, and different from nearly
// everyone else's.
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Avatar } from '../src/avatars/Avatar';
import {
  ACCESSORIES,
  AVATARS,
  avatarLook,
  bodyColor,
  DEFAULT_PROFILE_COLOR,
  derivedLook,
  HAIR_STYLES,
  lookSignature,
} from '../src/avatars/catalogue';

afterEach(cleanup);

/** A uuid-like text from a counter (what matters is that they differ). */
const uuid = (n: number) => `${n.toString(16).padStart(8, '0')}-4e5f-4a1b-9c2d-${(n * 7919).toString(16).padStart(12, '0')}`;

describe('avatars for people who never chose one', () => {
  it('makes a look from the uuid: always the same one for the same person', () => {
    expect(avatarLook('default', uuid(1))).toEqual(avatarLook('default', uuid(1)));
    expect(avatarLook(undefined, uuid(1))).toEqual(avatarLook('default', uuid(1)));
    expect(avatarLook('default', uuid(1)).derived).toBe(true);
  });

  it('gives a thousand people nearly a thousand different looks, over every hair style and accessory', () => {
    const looks = Array.from({ length: 1000 }, (_, i) => avatarLook('default', uuid(i + 1)));
    const distinct = new Set(looks.map((l) => lookSignature(l, DEFAULT_PROFILE_COLOR)));
    expect(distinct.size).toBeGreaterThanOrEqual(995);
    expect(new Set(looks.map((l) => l.hair))).toEqual(new Set(HAIR_STYLES));
    expect(new Set(looks.map((l) => l.accessory))).toEqual(new Set(ACCESSORIES));
    // A room of 30 rarely has two people with the same hair, hair colour and clothes colour.
    const room = looks.slice(0, 30).map((l) => `${l.hair}|${l.hairColor}|${bodyColor(l, DEFAULT_PROFILE_COLOR)}`);
    expect(new Set(room).size).toBeGreaterThanOrEqual(28);
  });

  it('keeps a chosen avatar and a chosen colour; the default colour gives way to the made look', () => {
    expect(avatarLook('raver', uuid(5))).toBe(AVATARS.find((a) => a.id === 'raver'));
    const made = avatarLook('default', uuid(5));
    expect(bodyColor(made, '#8a2be2')).toBe(made.body);
    expect(bodyColor(made, '#123456')).toBe('#123456');
    expect(avatarLook('ghost', uuid(5)).id).toBe('ghost');
    // Without a uuid (nothing to make a look from) the default is the first of the list, as before.
    expect(avatarLook('default').id).toBe('stadium-dj');
  });

  it('draws an id from a future catalogue the same for everyone who wears it', () => {
    expect(avatarLook('neon-cat', uuid(1))).toEqual(avatarLook('neon-cat', uuid(2)));
    expect(avatarLook('neon-cat')).toEqual(derivedLook('avatar:neon-cat'));
  });

  it('draws two people with the default avatar differently', () => {
    const { container } = render(
      <>
        <Avatar avatarId="default" color={DEFAULT_PROFILE_COLOR} seed={uuid(1)} decorative />
        <Avatar avatarId="default" color={DEFAULT_PROFILE_COLOR} seed={uuid(2)} decorative />
      </>,
    );
    const [a, b] = [...container.querySelectorAll('svg')];
    expect(a!.getAttribute('aria-hidden')).toBe('true');
    expect(a!.innerHTML).not.toBe(b!.innerHTML);
  });
});
