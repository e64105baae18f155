import { badRequest, forbidden, isGlobalRole, isUuid } from '@spinroom/platform';
import { MAX_SLUG, slugify } from './room.js';

/**
 * Communities and events as plain rules: fields and their checks, who may do
 * what in a community, an event's status and when its room goes live. domain/communities.ts applies them.
 */

export type MemberRole = 'owner' | 'moderator' | 'member';
export const MEMBER_ROLES: readonly MemberRole[] = ['owner', 'moderator', 'member'];

export interface Community {
  id: number;
  uuid: string;
  slug: string;
  name: string;
  description: string;
  imageUrl: string | null;
  ownerUuid: string | null;
  createdAt: Date;
  updatedAt: Date;
  membersCount: number;
  roomsCount: number;
}

export interface CommunityMember {
  userUuid: string;
  role: MemberRole;
  joinedAt: Date;
}

/** A community as one caller sees it: with their membership (null when not a member). */
export interface CommunityView {
  community: Community;
  membership: MemberRole | null;
}

/** An event with the names of its room and community. */
export interface CommunityEvent {
  id: number;
  uuid: string;
  slug: string;
  name: string;
  description: string;
  imageUrl: string | null;
  roomId: number;
  roomUuid: string;
  roomSlug: string;
  roomName: string;
  communityId: number | null;
  communityUuid: string | null;
  communitySlug: string | null;
  communityName: string | null;
  startTime: Date;
  endTime: Date;
  liveAt: Date | null;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

export type EventStatus = 'upcoming' | 'live' | 'ended';

export const MESSAGES = {
  communityNotFound: 'Community not found',
  eventNotFound: 'Event not found',
  communitySlugTaken: 'A community with this slug already exists',
  eventSlugTaken: 'An event with this slug already exists',
  adminOnly: 'Only administrators can do this',
  guestsJoin: 'Guests cannot join communities',
  guestsEvents: 'Guests cannot change events',
  ownerLeaves: 'The owner cannot leave the community',
  ownerRemoved: "The community's owner cannot be removed; give the community another owner first",
  manageMembers: "Only the community's owner and moderators can change its members",
  makeModerator: "Only the community's owner can choose its moderators",
  removeMember: 'You are not allowed to remove this member',
  manageRooms: "Only the community's owner and moderators can change its rooms",
  addRoom: 'You are not allowed to add this room to the community',
  removeRoom: 'You are not allowed to take this room out of the community',
  manageEvent: "Only the room's owner, coOwners and moderators can schedule its events",
  eventCommunity: "Only the community's owner and moderators can schedule its events",
  notMember: 'This user is not a member of the community',
  specialDelete: 'This community cannot be deleted',
  specialSlug: "This community's slug cannot change",
} as const;

/** Communities clients look up by slug (spec 002: their membership is checked): created by the migration, kept. */
export const SPECIAL_COMMUNITIES: readonly string[] = ['jqbx', 'web3'];

/** Slugs that name fixed paths below /events (and would read as one). */
const RESERVED = new Set(['upcoming', 'slug', 'admin', 'bulk', 'add', 'remove', 'users', 'rooms', 'join', 'leave']);
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const LIMITS = { name: 100, description: 2000, url: 2048, bulk: 100 } as const;
/** An event without an end lasts this long. */
export const DEFAULT_EVENT_MS = 2 * 60 * 60_000;
/** The longest event, and how far ahead one may be scheduled. */
export const MAX_EVENT_MS = 7 * 24 * 60 * 60_000;
export const MAX_SCHEDULE_AHEAD_MS = 2 * 365 * 24 * 60 * 60_000;

/** A slug chosen by the caller: lower-cased; 400 when malformed, reserved, all digits or shaped as a uuid (refs read those as ids). */
export function checkSlug(slug: string): string {
  const lower = slug.trim().toLowerCase();
  if (lower.length === 0 || lower.length > MAX_SLUG || !SLUG.test(lower)) {
    throw badRequest(`slug must be 1 to ${MAX_SLUG} lower-case letters, digits and single dashes`);
  }
  if (RESERVED.has(lower) || /^\d+$/.test(lower) || isUuid(lower)) throw badRequest(`The slug "${lower}" is reserved`);
  return lower;
}

/** A slug derived from a name: `base`, `base-2`, ... (never reserved nor all digits). */
export function derivedSlug(name: string, attempt: number, fallback: string): string {
  const letters = /[a-z0-9]/i.test(name.normalize('NFKD').replace(/[\u0300-\u036f]/g, ''));
  let base = letters ? slugify(name) : fallback;
  if (RESERVED.has(base) || /^\d+$/.test(base) || isUuid(base)) {
    base = `${base.slice(0, MAX_SLUG - fallback.length - 1).replace(/-+$/, '')}-${fallback}`;
  }
  if (attempt === 0) return base;
  const suffix = `-${attempt + 1}`;
  return `${base.slice(0, MAX_SLUG - suffix.length).replace(/-+$/, '')}${suffix}`;
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > LIMITS.name) throw badRequest(`name must be 1 to ${LIMITS.name} characters`);
  return trimmed;
}

function checkDescription(description: string): string {
  if (description.length > LIMITS.description) throw badRequest(`description must be at most ${LIMITS.description} characters`);
  return description;
}

/** An http(s) URL, or null for ''. */
function checkUrl(url: string, field: string): string | null {
  if (url === '') return null;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || url.length > LIMITS.url) {
    throw badRequest(`${field} must be an http or https URL of at most ${LIMITS.url} characters`);
  }
  return url;
}

export interface CommunityInput {
  name?: string;
  slug?: string;
  description?: string;
  imageUrl?: string;
  ownerUuid?: string;
}

/** The stored fields a community input sets (a full set with `complete`: create and PUT). */
export interface CommunityFields {
  name?: string;
  slug?: string;
  description?: string;
  imageUrl?: string | null;
  ownerUuid?: string | null;
}

export function communityFields(input: CommunityInput, complete: boolean): CommunityFields {
  const fields: CommunityFields = {};
  if (input.name !== undefined) fields.name = checkName(input.name);
  else if (complete) throw badRequest('name is required');
  if (input.slug !== undefined) fields.slug = checkSlug(input.slug);
  if (input.description !== undefined) fields.description = checkDescription(input.description);
  else if (complete) fields.description = '';
  if (input.imageUrl !== undefined) fields.imageUrl = checkUrl(input.imageUrl, 'imageUrl');
  else if (complete) fields.imageUrl = null;
  if (input.ownerUuid !== undefined) {
    if (input.ownerUuid !== '' && !isUuid(input.ownerUuid)) throw badRequest('ownerUuid must be a UUID');
    fields.ownerUuid = input.ownerUuid === '' ? null : input.ownerUuid.toLowerCase();
  } else if (complete) fields.ownerUuid = null;
  return fields;
}

/** A special community keeps its slug and is never deleted. */
export function checkSpecialChange(current: Pick<Community, 'slug'>, change: { slug?: string; deleted?: boolean }): void {
  if (!SPECIAL_COMMUNITIES.includes(current.slug)) return;
  if (change.deleted) throw forbidden(MESSAGES.specialDelete);
  if (change.slug !== undefined && change.slug !== current.slug) throw forbidden(MESSAGES.specialSlug);
}

/** Who the caller is in a community: a global role above its owner, then moderators, then members. */
export type CommunityAuthority = 'global' | MemberRole | 'none';
const RANK: Record<CommunityAuthority, number> = { none: 0, member: 1, moderator: 2, owner: 3, global: 4 };

export function communityAuthority(tokenRole: string, membership: MemberRole | null): CommunityAuthority {
  if (isGlobalRole(tokenRole)) return 'global';
  return membership ?? 'none';
}

export function requireGlobal(tokenRole: string): void {
  if (!isGlobalRole(tokenRole)) throw forbidden(MESSAGES.adminOnly);
}

/** The community's staff: its owner and moderators, and the global roles. */
export function managesCommunity(authority: CommunityAuthority): boolean {
  return RANK[authority] >= RANK.moderator;
}

/** Adding a user (or changing a member's role): staff add members; only the owner (or a global role) names moderators; the owner stays. */
export function checkMemberChange(
  actor: CommunityAuthority,
  target: { current: MemberRole | null; wanted: string },
): Exclude<MemberRole, 'owner'> {
  if (target.wanted !== 'member' && target.wanted !== 'moderator') throw badRequest('role must be one of member, moderator');
  if (!managesCommunity(actor)) throw forbidden(MESSAGES.manageMembers);
  if (target.current === 'owner') throw forbidden(MESSAGES.ownerRemoved);
  const touchesModerator = target.wanted === 'moderator' || target.current === 'moderator';
  if (touchesModerator && RANK[actor] < RANK.owner) throw forbidden(MESSAGES.makeModerator);
  return target.wanted;
}

/** Removing a member: themselves (not the owner), staff strictly above the member, a global role (never the owner). */
export function checkMemberRemoval(actor: CommunityAuthority, self: boolean, target: MemberRole): void {
  if (target === 'owner') throw forbidden(self ? MESSAGES.ownerLeaves : MESSAGES.ownerRemoved);
  if (self) return;
  if (!managesCommunity(actor) || RANK[actor] <= RANK[target]) throw forbidden(MESSAGES.removeMember);
}

/** An event's status at `now`. */
export function eventStatus(event: Pick<CommunityEvent, 'startTime' | 'endTime'>, now: Date): EventStatus {
  if (now.getTime() < event.startTime.getTime()) return 'upcoming';
  return now.getTime() < event.endTime.getTime() ? 'live' : 'ended';
}

/**
 * What the clock does with an event it claimed (its start has come): its room
 * goes live and its members hear of it, unless it already ended (the service
 * was down all along), when it is only marked.
 */
export function liveDecision(event: Pick<CommunityEvent, 'endTime'>, now: Date): 'goLive' | 'missed' {
  return now.getTime() < event.endTime.getTime() ? 'goLive' : 'missed';
}

export interface EventInput {
  name?: string;
  slug?: string;
  description?: string;
  imageUrl?: string;
  room?: string;
  community?: string;
  startTime?: Date;
  endTime?: Date;
}

export interface EventFields {
  name?: string;
  slug?: string;
  description?: string;
  imageUrl?: string | null;
  startTime?: Date;
  endTime?: Date;
}

/**
 * The stored fields of an event input, with times checked against the event as
 * it is (`current`, for a change): the end after the start, at most a week
 * long, at most two years ahead; a new event without an end lasts two hours.
 */
export function eventFields(input: EventInput, current: Pick<CommunityEvent, 'startTime' | 'endTime'> | null, now: Date): EventFields {
  const fields: EventFields = {};
  if (input.name !== undefined) fields.name = checkName(input.name);
  else if (!current) throw badRequest('name is required');
  if (input.slug !== undefined) fields.slug = checkSlug(input.slug);
  if (input.description !== undefined) fields.description = checkDescription(input.description);
  if (input.imageUrl !== undefined) fields.imageUrl = checkUrl(input.imageUrl, 'imageUrl');
  if (!current && !input.startTime) throw badRequest('startTime is required');
  const start = input.startTime ?? current!.startTime;
  for (const [name, time] of [
    ['startTime', input.startTime],
    ['endTime', input.endTime],
  ] as const) {
    if (time && (Number.isNaN(time.getTime()) || time.getTime() > now.getTime() + MAX_SCHEDULE_AHEAD_MS)) {
      throw badRequest(`${name} must be a date within two years`);
    }
  }
  const end =
    input.endTime ??
    (current && !input.startTime
      ? current.endTime
      : current
        ? new Date(start.getTime() + (current.endTime.getTime() - current.startTime.getTime()))
        : new Date(start.getTime() + DEFAULT_EVENT_MS));
  if (end.getTime() <= start.getTime()) throw badRequest('endTime must be after startTime');
  if (end.getTime() - start.getTime() > MAX_EVENT_MS) throw badRequest('An event lasts at most 7 days');
  if (input.startTime) fields.startTime = start;
  if (input.endTime || input.startTime || !current) fields.endTime = end;
  if (!current) fields.startTime = start;
  return fields;
}

/** The columns admins may select, filter and sort by (the @nestjsx/crud syntax). */
export const ADMIN_COMMUNITY_COLUMNS = {
  id: 'int',
  uuid: 'uuid',
  slug: 'text',
  name: 'text',
  description: 'text',
  imageUrl: 'text',
  ownerUuid: 'uuid',
  createdAt: 'date',
  updatedAt: 'date',
} as const;

export type AdminCommunityColumn = keyof typeof ADMIN_COMMUNITY_COLUMNS;

export const ADMIN_EVENT_COLUMNS = {
  id: 'int',
  uuid: 'uuid',
  slug: 'text',
  name: 'text',
  description: 'text',
  imageUrl: 'text',
  roomId: 'int',
  communityId: 'int',
  startTime: 'date',
  endTime: 'date',
  liveAt: 'date',
  createdBy: 'uuid',
  createdAt: 'date',
  updatedAt: 'date',
} as const;
export type AdminEventColumn = keyof typeof ADMIN_EVENT_COLUMNS;
