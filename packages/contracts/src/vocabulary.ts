import {
  DjType,
  MusicProvider,
  OneTimeAnimation,
  RoomDesign,
  RoomRefusal,
  RoomType,
  RoomUserRole,
  UserCapability,
  UserRole,
} from './gen/spinroom/room/v1/room_vocabulary.js';

/**
 * The spec's vocabularies by the original's spellings, from the proto enums
 * (room_vocabulary.proto) that list them once: an enum value's name without
 * its prefix (`DJ_TYPE_INVITE_ONLY` is "INVITE_ONLY"), camelCase for the
 * providers, the token and room roles, refusals and animations
 * (`MUSIC_PROVIDER_SOUND_CLOUD_PUBLIC` is "soundCloudPublic"). Messages carry
 * the enums; services, the BFF's schemas and the web types use the words.
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

/**
 * One proto enum and its words: the list of words (for zod enums and TS
 * unions), and the mapping both ways, the only one there is.
 */
export interface Vocabulary<V extends number, N extends string> {
  /** The words, in the enum's order. */
  readonly names: readonly [N, ...N[]];
  /** The word for a value; undefined for UNSPECIFIED and unknown values. */
  nameOf(value: V): N | undefined;
  /** The value for a word. */
  valueOf(name: N): V;
  /** The value for any text; undefined when it is not one of the words. */
  parse(name: string): V | undefined;
}

export function vocabulary<E extends Record<string, string | number>, P extends string, C extends boolean = false>(
  values: E,
  prefix: P,
  camelCase?: C,
): Vocabulary<E[keyof E] & number, Spelled<E, P, C>> {
  type V = E[keyof E] & number;
  type N = Spelled<E, P, C>;
  const entries = Object.keys(values)
    .filter((key) => typeof values[key] === 'number' && values[key] > 0 && key.startsWith(prefix))
    .sort((a, b) => (values[a] as number) - (values[b] as number))
    .map((key) => [camelCase ? camel(key.slice(prefix.length)) : key.slice(prefix.length), values[key] as V] as const);
  const byName = new Map<string, V>(entries);
  const byValue = new Map<number, N>(entries.map(([name, value]) => [value, name as N]));
  return {
    names: entries.map(([name]) => name) as unknown as readonly [N, ...N[]],
    nameOf: (value) => byValue.get(value),
    valueOf: (name) => byName.get(name)!,
    parse: (name) => byName.get(name),
  };
}

export const djTypes = vocabulary(DjType, 'DJ_TYPE_');
export const DJ_TYPES = djTypes.names;
export type DjTypeName = (typeof DJ_TYPES)[number];

export const roomTypes = vocabulary(RoomType, 'ROOM_TYPE_');
export const ROOM_TYPES = roomTypes.names;
export type RoomTypeName = (typeof ROOM_TYPES)[number];

export const roomDesigns = vocabulary(RoomDesign, 'ROOM_DESIGN_');
export const ROOM_DESIGNS = roomDesigns.names;
export type RoomDesignName = (typeof ROOM_DESIGNS)[number];

export const musicProviders = vocabulary(MusicProvider, 'MUSIC_PROVIDER_', true);
export const MUSIC_PROVIDERS = musicProviders.names;
export type MusicProviderName = (typeof MUSIC_PROVIDERS)[number];

/** The `role` claim of an access token (global roles, guest, service). */
export const userRoles = vocabulary(UserRole, 'USER_ROLE_', true);
export const USER_ROLES = userRoles.names;
export type UserRoleName = (typeof USER_ROLES)[number];

/** Capabilities an account may be given beyond its role (spec 000). */
export const userCapabilities = vocabulary(UserCapability, 'USER_CAPABILITY_', true);
export const USER_CAPABILITIES = userCapabilities.names;
export type UserCapabilityName = (typeof USER_CAPABILITIES)[number];

/** Roles a user may hold in a room: four ranks or invitations, four restrictions. */
export const roomUserRoles = vocabulary(RoomUserRole, 'ROOM_USER_ROLE_', true);
export const ROOM_ROLES = roomUserRoles.names;
export type RoomRoleName = (typeof ROOM_ROLES)[number];

/** Why a user may not enter a room. */
export const roomRefusals = vocabulary(RoomRefusal, 'ROOM_REFUSAL_', true);
export const ROOM_REFUSALS = roomRefusals.names;
export type RoomRefusalName = (typeof ROOM_REFUSALS)[number];

/** The feed's one-time animations. */
export const oneTimeAnimations = vocabulary(OneTimeAnimation, 'ONE_TIME_ANIMATION_', true);
export const ONE_TIME_ANIMATIONS = oneTimeAnimations.names;
export type OneTimeAnimationName = (typeof ONE_TIME_ANIMATIONS)[number];

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
