import { DjType, MusicProvider, RoomDesign, RoomType } from './gen/spinroom/room/v1/room_vocabulary.js';

/**
 * The spec's vocabularies by the original's spellings, from the proto enums
 * (room_vocabulary.proto) that list them once: an enum value's name without
 * its prefix (`DJ_TYPE_INVITE_ONLY` is "INVITE_ONLY"), camelCase for the
 * providers (`MUSIC_PROVIDER_SOUND_CLOUD_PUBLIC` is "soundCloudPublic").
 */

type CamelTail<S extends string> = S extends `${infer H}_${infer T}`
  ? `${Capitalize<Lowercase<H>>}${CamelTail<T>}`
  : Capitalize<Lowercase<S>>;
type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${Lowercase<H>}${CamelTail<T>}` : Lowercase<S>;
/** The spellings of an enum's values: its keys without the prefix, UNSPECIFIED and UNRECOGNIZED left out. */
type Spelled<E, P extends string, C extends boolean = false> = {
  [K in keyof E]: K extends `${P}${infer N}` ? (N extends 'UNSPECIFIED' ? never : C extends true ? Camel<N> : N) : never;
}[keyof E];

const camel = (name: string) => name.toLowerCase().replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

function spellings<E extends Record<string, string | number>, P extends string, C extends boolean = false>(
  values: E,
  prefix: P,
  camelCase?: C,
): readonly [Spelled<E, P, C>, ...Spelled<E, P, C>[]] {
  const names = Object.keys(values)
    .filter((key) => typeof values[key] === 'number' && (values[key] as number) > 0 && key.startsWith(prefix))
    .sort((a, b) => (values[a] as number) - (values[b] as number))
    .map((key) => (camelCase ? camel(key.slice(prefix.length)) : key.slice(prefix.length)));
  return names as unknown as readonly [Spelled<E, P, C>, ...Spelled<E, P, C>[]];
}

export const DJ_TYPES = spellings(DjType, 'DJ_TYPE_');
export type DjTypeName = (typeof DJ_TYPES)[number];

export const ROOM_TYPES = spellings(RoomType, 'ROOM_TYPE_');
export type RoomTypeName = (typeof ROOM_TYPES)[number];

export const ROOM_DESIGNS = spellings(RoomDesign, 'ROOM_DESIGN_');
export type RoomDesignName = (typeof ROOM_DESIGNS)[number];

export const MUSIC_PROVIDERS = spellings(MusicProvider, 'MUSIC_PROVIDER_', true);
export type MusicProviderName = (typeof MUSIC_PROVIDERS)[number];

/** The providers a room may enable (its musicProviderKeys; a new room enables them all). */
export const ROOM_MUSIC_PROVIDERS = [
  'apple',
  'audius',
  'napster',
  'soundCloudPublic',
  'spotify',
  'uploadService',
  'youtube',
] as const satisfies readonly MusicProviderName[];
