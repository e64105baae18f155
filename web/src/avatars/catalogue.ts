// The project's own default avatar set: each avatar id maps to a look drawn as
// SVG (Avatar.tsx). Unknown ids (from a future avatar catalogue) get a look
// chosen by a hash of the id, so everyone is always drawn.
export interface AvatarLook {
  id: string;
  label: string;
  skin: string;
  hair: 'none' | 'short' | 'long' | 'mohawk' | 'afro';
  hairColor: string;
  accessory: 'none' | 'headphones' | 'cap' | 'glasses' | 'crown';
}

export const AVATARS: AvatarLook[] = [
  { id: 'stadium-dj', label: 'Stadium DJ', skin: '#F1C27D', hair: 'short', hairColor: '#3B2A1A', accessory: 'headphones' },
  { id: 'raver', label: 'Raver', skin: '#C68642', hair: 'mohawk', hairColor: '#FF3CAC', accessory: 'glasses' },
  { id: 'crooner', label: 'Crooner', skin: '#8D5524', hair: 'afro', hairColor: '#1B1B1B', accessory: 'none' },
  { id: 'skater', label: 'Skater', skin: '#FFDBAC', hair: 'long', hairColor: '#E0B04A', accessory: 'cap' },
  { id: 'royal', label: 'Royal', skin: '#E0AC69', hair: 'long', hairColor: '#6B3E26', accessory: 'crown' },
  { id: 'bot', label: 'Bot', skin: '#B8C4D6', hair: 'none', hairColor: '#000000', accessory: 'headphones' },
  { id: 'ghost', label: 'Guest', skin: '#FFFFFF', hair: 'none', hairColor: '#FFFFFF', accessory: 'none' },
];

const byId = new Map(AVATARS.map((a) => [a.id, a]));
const choosable = AVATARS.filter((a) => a.id !== 'ghost');

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function avatarLook(avatarId: string | undefined): AvatarLook {
  if (!avatarId) return choosable[0]!;
  return byId.get(avatarId) ?? choosable[hash(avatarId) % choosable.length]!;
}

export const CHOOSABLE_AVATARS = choosable;
