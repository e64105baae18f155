// The project's own avatars until an avatar catalogue exists: six to choose
// (plus the guests' ghost), each drawn as SVG (Avatar.tsx). Someone who has
// not chosen one (the user service's 'default', or no id) gets a look made
// from their user uuid over a larger set (skin, hair and its colour, clothes
// and their colour, a pattern, eyes, mouth, an accessory: millions of
// combinations), the same wherever they are drawn. An id this list does not
// know (a future catalogue's) gets a look made from the id the same way, so
// everyone wearing it looks alike.

export const HAIR_STYLES = ['none', 'short', 'long', 'mohawk', 'afro', 'bun', 'curly', 'spiky', 'bob', 'ponytail'] as const;
export const ACCESSORIES = ['none', 'headphones', 'cap', 'glasses', 'crown', 'beanie', 'bandana', 'shades', 'earrings', 'flower'] as const;
export const TOPS = ['tee', 'hoodie', 'collar', 'tank', 'jacket'] as const;
export const PATTERNS = ['none', 'stripe', 'dots', 'bolt', 'star'] as const;
export const EYES = ['dots', 'happy', 'wide', 'sleepy'] as const;
export const MOUTHS = ['smile', 'grin', 'flat', 'open'] as const;

export const SKINS = ['#FFDBAC', '#F1C27D', '#E0AC69', '#C68642', '#A0673C', '#8D5524', '#5C3A21'];
export const HAIR_COLORS = ['#1B1B1B', '#3B2A1A', '#6B3E26', '#A0522D', '#E0B04A', '#F5E6A8', '#B0B0B0', '#FF3CAC', '#3B82F6', '#22C55E'];
/** Clothes for those who kept the default colour. */
export const BODY_COLORS = [
  '#EF4444',
  '#F97316',
  '#F59E0B',
  '#EAB308',
  '#84CC16',
  '#22C55E',
  '#14B8A6',
  '#06B6D4',
  '#3B82F6',
  '#6366F1',
  '#A855F7',
  '#EC4899',
  '#F43F5E',
  '#64748B',
];

/** The user service's colour for someone who never chose one (services/user: DEFAULT_COLOR). */
export const DEFAULT_PROFILE_COLOR = '#8A2BE2';
/** The user service's avatar id for someone who never chose one (services/user: DEFAULT_AVATAR_ID). */
export const DEFAULT_AVATAR_ID = 'default';

export interface AvatarLook {
  id: string;
  label: string;
  skin: string;
  hair: (typeof HAIR_STYLES)[number];
  hairColor: string;
  accessory: (typeof ACCESSORIES)[number];
  top: (typeof TOPS)[number];
  pattern: (typeof PATTERNS)[number];
  eyes: (typeof EYES)[number];
  mouth: (typeof MOUTHS)[number];
  /** A made look's clothes colour, worn when the person kept the default colour. */
  body?: string;
  /** Made from a uuid or an unknown id, not one of the list. */
  derived?: boolean;
}

const plain = { top: 'tee', pattern: 'none', eyes: 'dots', mouth: 'smile' } as const;

export const AVATARS: AvatarLook[] = [
  { id: 'stadium-dj', label: 'Stadium DJ', skin: '#F1C27D', hair: 'short', hairColor: '#3B2A1A', accessory: 'headphones', ...plain },
  { id: 'raver', label: 'Raver', skin: '#C68642', hair: 'mohawk', hairColor: '#FF3CAC', accessory: 'glasses', ...plain, pattern: 'bolt' },
  { id: 'crooner', label: 'Crooner', skin: '#8D5524', hair: 'afro', hairColor: '#1B1B1B', accessory: 'none', ...plain, top: 'collar' },
  { id: 'skater', label: 'Skater', skin: '#FFDBAC', hair: 'long', hairColor: '#E0B04A', accessory: 'cap', ...plain, top: 'hoodie' },
  { id: 'royal', label: 'Royal', skin: '#E0AC69', hair: 'long', hairColor: '#6B3E26', accessory: 'crown', ...plain, top: 'jacket' },
  { id: 'bot', label: 'Bot', skin: '#B8C4D6', hair: 'none', hairColor: '#000000', accessory: 'headphones', ...plain, eyes: 'wide' },
  { id: 'ghost', label: 'Guest', skin: '#FFFFFF', hair: 'none', hairColor: '#FFFFFF', accessory: 'none', ...plain },
];

const byId = new Map(AVATARS.map((a) => [a.id, a]));
const choosable = AVATARS.filter((a) => a.id !== 'ghost');

/** FNV-1a: a text's 32-bit hash. */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** mulberry32: a small seeded generator, so each feature is its own draw. */
function generator(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A look made from any text (a user uuid, an unknown avatar id): always the same for the same text. */
export function derivedLook(seed: string): AvatarLook {
  const next = generator(hash(seed));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  return {
    id: DEFAULT_AVATAR_ID,
    label: '',
    skin: pick(SKINS),
    hair: pick(HAIR_STYLES),
    hairColor: pick(HAIR_COLORS),
    accessory: pick(ACCESSORIES),
    top: pick(TOPS),
    pattern: pick(PATTERNS),
    eyes: pick(EYES),
    mouth: pick(MOUTHS),
    body: pick(BODY_COLORS),
    derived: true,
  };
}

/**
 * The look for an avatar id: one of the list by its id; for the default (or
 * none) the look made from `seed` (the person's uuid) when there is one;
 * for an id the list does not know, the look made from that id.
 */
export function avatarLook(avatarId: string | undefined, seed?: string): AvatarLook {
  const known = avatarId ? byId.get(avatarId) : undefined;
  if (known) return known;
  if (!avatarId || avatarId === DEFAULT_AVATAR_ID) return seed ? derivedLook(seed) : choosable[0]!;
  return derivedLook(`avatar:${avatarId}`);
}

/** The clothes' colour: the person's own, unless they kept the default and their look brings one. */
export function bodyColor(look: AvatarLook, color: string | undefined): string {
  if (look.body && (!color || color.toUpperCase() === DEFAULT_PROFILE_COLOR)) return look.body;
  return color ?? DEFAULT_PROFILE_COLOR;
}

/** What distinguishes two looks at a glance (for tests and keys). */
export function lookSignature(look: AvatarLook, color?: string): string {
  return [look.skin, look.hair, look.hairColor, look.accessory, look.top, look.pattern, look.eyes, look.mouth, bodyColor(look, color)].join(
    '|',
  );
}

export const CHOOSABLE_AVATARS = choosable;
