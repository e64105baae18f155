import {
  DJ_TYPES,
  ROOM_DESIGNS as DESIGNS,
  ROOM_MUSIC_PROVIDERS as MUSIC_PROVIDER_KEYS,
  ROOM_TYPES,
  type DjTypeName as DjType,
  type RoomDesignName as Design,
  type RoomTypeName as RoomType,
} from '@spinroom/contracts/vocabulary';
import type { PinnedMessageJson } from '@spinroom/contracts/rooms';
import { badRequest } from '@spinroom/platform';
import { atLeast, type Authority } from './room-roles.js';

// The spec's vocabularies, listed once in proto/spinroom/room/v1/room_vocabulary.proto.
export { DJ_TYPES, DESIGNS, MUSIC_PROVIDER_KEYS, ROOM_TYPES, type DjType, type Design, type RoomType };

/** The original's pinned message entry: `{message: {message, userName, avatarId, color, userUuid, date, reactions, pinnedByName, pinnedByUUID}}` (its one definition: @spinroom/contracts/rooms). */
export type PinnedMessage = PinnedMessageJson;

/** The room's fields (the original's RoomDto, plus Spinroom's stage settings), as stored. */
export interface Room {
  id: number;
  uuid: string;
  slug: string;
  name: string;
  description: string;
  vibe: string;
  djType: DjType;
  musicProviderKeys: string[];
  numberOfDjs: number;
  /** 0 = unlimited */
  songsPerDj: number;
  roomSize: number;
  entryFee: number;
  freeEntries: number;
  /** argon2id hashes; never leave the service. */
  passwordHash: string | null;
  guestPasswordHash: string | null;
  type: RoomType;
  design: Design;
  isLive: boolean;
  liveAudio: boolean;
  promoted: boolean;
  promotedProviders: string[];
  posterUrl: string | null;
  externalUrl: string | null;
  hasChat: boolean;
  unlisted: boolean;
  discordGuildId: string | null;
  pinnedMessages: PinnedMessage[];
  /** Stage settings the live engine reads; 0 = none / off. */
  maxSongLengthSeconds: number;
  repeatWindowMinutes: number;
  afkLimitMinutes: number;
  waitlistEnabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** What a caller may set: the stored fields with plain passwords instead of hashes. null clears a nullable field. */
export interface RoomSettings {
  name?: string;
  slug?: string;
  description?: string;
  vibe?: string;
  djType?: string;
  musicProviderKeys?: string[];
  numberOfDjs?: number;
  songsPerDj?: number;
  roomSize?: number;
  entryFee?: number;
  freeEntries?: number;
  password?: string | null;
  guestPassword?: string | null;
  type?: string;
  design?: string;
  isLive?: boolean;
  liveAudio?: boolean;
  promoted?: boolean;
  promotedProviders?: string[];
  posterUrl?: string | null;
  externalUrl?: string | null;
  hasChat?: boolean;
  unlisted?: boolean;
  discordGuildId?: string | null;
  pinnedMessages?: unknown[];
  maxSongLengthSeconds?: number;
  repeatWindowMinutes?: number;
  afkLimitMinutes?: number;
  waitlistEnabled?: boolean;
}
export type SettingName = keyof RoomSettings;

export const ROOM_DEFAULTS = {
  description: '',
  vibe: '',
  djType: 'EVERYONE' as DjType,
  musicProviderKeys: [...MUSIC_PROVIDER_KEYS] as string[],
  numberOfDjs: 5,
  songsPerDj: 0,
  roomSize: 200,
  entryFee: 0,
  freeEntries: 0,
  type: 'PUBLIC' as RoomType,
  design: 'CLUB' as Design,
  isLive: false,
  liveAudio: false,
  promoted: false,
  promotedProviders: [] as string[],
  hasChat: true,
  unlisted: false,
  pinnedMessages: [] as PinnedMessage[],
  maxSongLengthSeconds: 0,
  repeatWindowMinutes: 0,
  afkLimitMinutes: 0,
  waitlistEnabled: true,
};

/**
 * Who may change which setting. Moderators run the stage and the room's look;
 * the owner and coOwners everything about the room itself; promotion belongs
 * to the global roles (spec: "promote" is an admin tool).
 */
const MODERATOR_SETTINGS: readonly SettingName[] = [
  'description',
  'vibe',
  'design',
  'numberOfDjs',
  'songsPerDj',
  'maxSongLengthSeconds',
  'repeatWindowMinutes',
  'afkLimitMinutes',
  'waitlistEnabled',
  'pinnedMessages',
  'posterUrl',
  'externalUrl',
  'hasChat',
  'isLive',
  'liveAudio',
];
const GLOBAL_SETTINGS: readonly SettingName[] = ['promoted', 'promotedProviders'];

export function authorityToChange(setting: SettingName): Authority {
  if (GLOBAL_SETTINGS.includes(setting)) return 'global';
  if (MODERATOR_SETTINGS.includes(setting)) return 'moderator';
  return 'coOwner';
}

/** The settings named in `settings` that `actor` may not change. */
export function settingsBeyond(actor: Authority, settings: RoomSettings): SettingName[] {
  return (Object.keys(settings) as SettingName[]).filter((k) => settings[k] !== undefined && !atLeast(actor, authorityToChange(k)));
}

/** Slugs that would shadow a fixed path under /rooms/. */
export const RESERVED_SLUGS = new Set([
  'admin',
  'conversation',
  'discord',
  'dj-seats',
  'dj-type',
  'favorites',
  'infrastructure',
  'list',
  'live-audio',
  'live-state',
  'mine',
  'multiple',
  'owned-rooms',
  'private-count',
  'promote',
  'promoted-rooms',
  'public',
  'recent',
  'rockset',
  'room-played-time',
  'room-state',
  'service',
  'user',
  'users',
  'uuid',
]);
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_SLUG = 64;

/** `Spinroom Lounge!` -> `spinroom-lounge`; accents dropped; "room" when nothing is left. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
  return slug || 'room';
}

/** A slug the caller chose, lower-cased; 400 when malformed or reserved. */
export function normalizeSlug(slug: string): string {
  const lower = slug.trim().toLowerCase();
  if (lower.length === 0 || lower.length > MAX_SLUG || !SLUG.test(lower)) {
    throw badRequest(`slug must be 1 to ${MAX_SLUG} lower-case letters, digits and single dashes`);
  }
  if (RESERVED_SLUGS.has(lower)) throw badRequest(`The slug "${lower}" is reserved`);
  return lower;
}

/** `base`, then `base-2`, `base-3`, ...: a derived slug that does not clash. */
export function slugCandidate(base: string, attempt: number): string {
  const free = RESERVED_SLUGS.has(base) ? `${base}-room` : base;
  if (attempt === 0) return free;
  const suffix = `-${attempt + 1}`;
  return `${free.slice(0, MAX_SLUG - suffix.length).replace(/-+$/, '')}${suffix}`;
}

const INT_RANGES: Partial<Record<SettingName, [number, number]>> = {
  numberOfDjs: [1, 10],
  songsPerDj: [0, 100],
  roomSize: [1, 10_000],
  entryFee: [0, 1_000_000],
  freeEntries: [0, 1_000_000],
  maxSongLengthSeconds: [0, 3_600],
  repeatWindowMinutes: [0, 10_080],
  afkLimitMinutes: [0, 1_440],
};
const ENUMS: Partial<Record<SettingName, readonly string[]>> = { djType: DJ_TYPES, type: ROOM_TYPES, design: DESIGNS };
const MAX_PINNED = 20;

/** Every problem with `settings`, as messages (empty when valid). The BFF checks shapes first; this guards every caller. */
export function settingsProblems(settings: RoomSettings): string[] {
  const problems: string[] = [];
  const s = settings;
  if (s.name !== undefined && (s.name.trim().length === 0 || s.name.length > 100)) problems.push('name must be 1 to 100 characters');
  if (s.description !== undefined && s.description.length > 2_000) problems.push('description must be at most 2000 characters');
  if (s.vibe !== undefined && s.vibe.length > 100) problems.push('vibe must be at most 100 characters');
  for (const [key, values] of Object.entries(ENUMS)) {
    const value = s[key as SettingName];
    if (value !== undefined && !values.includes(value as string)) problems.push(`${key} must be one of ${values.join(', ')}`);
  }
  for (const [key, [min, max]] of Object.entries(INT_RANGES) as [SettingName, [number, number]][]) {
    const value = s[key];
    if (value !== undefined && (!Number.isInteger(value) || (value as number) < min || (value as number) > max)) {
      problems.push(`${key} must be a whole number from ${min} to ${max}`);
    }
  }
  for (const key of ['musicProviderKeys', 'promotedProviders'] as const) {
    const unknown = (s[key] ?? []).filter((p) => !(MUSIC_PROVIDER_KEYS as readonly string[]).includes(p));
    if (unknown.length > 0) problems.push(`${key} must be among ${MUSIC_PROVIDER_KEYS.join(', ')}`);
  }
  for (const key of ['password', 'guestPassword'] as const) {
    const value = s[key];
    if (value && (value.length < 4 || value.length > 128)) problems.push(`${key} must be 4 to 128 characters`);
  }
  for (const key of ['posterUrl', 'externalUrl'] as const) {
    const value = s[key];
    if (value && !isHttpUrl(value)) problems.push(`${key} must be an http(s) URL`);
  }
  if (s.discordGuildId && !/^\d{1,32}$/.test(s.discordGuildId)) problems.push('discordGuildId must be a Discord snowflake (digits)');
  if (s.pinnedMessages !== undefined) {
    if (s.pinnedMessages.length > MAX_PINNED) problems.push(`at most ${MAX_PINNED} messages can be pinned`);
    if (!s.pinnedMessages.every(isPinnedMessage)) problems.push('each pinned message must be {message: {message, userName, ...}}');
    if (JSON.stringify(s.pinnedMessages).length > 50_000) problems.push('pinned messages are too large');
  }
  return problems;
}

export function checkSettings(settings: RoomSettings): void {
  const problems = settingsProblems(settings);
  if (problems.length > 0) throw badRequest(problems);
}

function isHttpUrl(value: string): boolean {
  if (value.length > 2_048) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function isPinnedMessage(value: unknown): value is PinnedMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const message = (value as { message?: unknown }).message;
  return typeof message === 'object' && message !== null && !Array.isArray(message);
}

export const ROOM_NOT_FOUND = 'Room not found';
