import { ERROR_CODES, badRequest, forbidden, isAdminRole, isUuid, notFound, type Caller } from '@spinroom/platform';
import { PROFILE_NOT_FOUND } from '../accounts.js';
import { applyProfilePatch, type ProfilePatch } from '../profiles.js';
import type { User } from '../user.js';
import { checkWearable, type Wardrobe } from './wardrobe.js';
import { addBadges, checkBadges, removeBadges } from './badges.js';

/** What the profile paths need of the accounts table. */
export interface ProfileStore {
  findByUuid(uuid: string): Promise<User | null>;
  saveProfile(user: User): Promise<User>;
  /** Changes a user's badges under a row lock, so concurrent changes all count; null when there is no such user. */
  changeBadges(uuid: string, change: (current: string[]) => string[]): Promise<User | null>;
  /** The user's data, `{}` when never set; null when there is no such user. */
  findUserData(uuid: string): Promise<Record<string, unknown> | null>;
  /** False when there is no such user. */
  saveUserData(uuid: string, data: Record<string, unknown>): Promise<boolean>;
  /** Signed-up users and bots (never guests), by id or most recently changed first. */
  listProfiles(order: 'id' | 'updatedAt', page: Page): Promise<{ users: User[]; total: number }>;
}

export interface Page {
  take: number;
  skip: number;
}

export const SOCIAL_FIELDS = ['discord', 'facebook', 'instagram', 'twitter', 'snapchat', 'tiktok'] as const;
export type SocialsPatch = Partial<Record<(typeof SOCIAL_FIELDS)[number], string>>;

export const USER_DATA_MAX_BYTES = 16 * 1024;
export const SEO_PAGE_DEFAULT = 100;
export const SEO_PAGE_MAX = 1000;

export function requireService(caller: Caller): void {
  if (caller.kind !== 'service') throw forbidden();
}

export function requireAdmin(caller: Caller): void {
  if (!isAdminRole(caller.role)) throw forbidden();
}

/** Guests have no profile of their own to edit. */
function requireMember(caller: Caller): void {
  if (caller.kind === 'guest' || caller.kind === 'service') throw forbidden();
}

/** The client's own settings: a JSON object (free-form), at most USER_DATA_MAX_BYTES as JSON. */
export function checkUserData(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('userData must be a JSON object');
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > USER_DATA_MAX_BYTES)
    throw badRequest(`userData must be at most ${USER_DATA_MAX_BYTES} bytes of JSON`);
  return value as Record<string, unknown>;
}

/** `take` (1..1000, default 100) and `skip` (0 or more) of the SEO listings; 0 means unset. */
export function seoPage(take: number, skip: number): Page {
  if (take < 0 || take > SEO_PAGE_MAX) throw badRequest(`take must be between 1 and ${SEO_PAGE_MAX}`);
  if (skip < 0) throw badRequest('skip must not be negative');
  return { take: take === 0 ? SEO_PAGE_DEFAULT : take, skip };
}

/** The profile paths beyond the caller's own read and update (spec 000 section 7, "Profiles"). */
export class ProfilePaths {
  constructor(
    private readonly store: ProfileStore,
    private readonly wardrobe: Wardrobe,
  ) {}

  async profile(userUuid: string): Promise<User> {
    const user = isUuid(userUuid) ? await this.store.findByUuid(userUuid) : null;
    if (!user) throw notFound(PROFILE_NOT_FOUND, ERROR_CODES.userProfileNotFound);
    return user;
  }

  async serviceProfile(caller: Caller, userUuid: string): Promise<User> {
    requireService(caller);
    return this.profile(userUuid);
  }

  async userData(caller: Caller): Promise<Record<string, unknown>> {
    // A service's subject (`service:<name>`) is no user's.
    const data = isUuid(caller.userUuid) ? await this.store.findUserData(caller.userUuid) : null;
    if (data === null) throw notFound(PROFILE_NOT_FOUND, ERROR_CODES.userProfileNotFound);
    return data;
  }

  async replaceUserData(caller: Caller, value: unknown): Promise<Record<string, unknown>> {
    requireMember(caller);
    const data = checkUserData(value);
    if (!(await this.store.saveUserData(caller.userUuid, data))) throw notFound(PROFILE_NOT_FOUND, ERROR_CODES.userProfileNotFound);
    return data;
  }

  async capabilities(caller: Caller): Promise<string[]> {
    if (caller.kind === 'service') return [];
    return (await this.profile(caller.userUuid)).capabilities;
  }

  async updateSocials(caller: Caller, socials: SocialsPatch): Promise<User> {
    requireMember(caller);
    const patch: ProfilePatch = {};
    for (const field of SOCIAL_FIELDS) if (socials[field] !== undefined) patch[field] = socials[field];
    return this.store.saveProfile(applyProfilePatch(await this.profile(caller.userUuid), patch));
  }

  async updateAsAdmin(caller: Caller, userUuid: string, patch: ProfilePatch): Promise<User> {
    requireAdmin(caller);
    const user = await this.profile(userUuid);
    const next = applyProfilePatch(user, patch);
    await checkWearable(this.wardrobe, user, patch);
    return this.store.saveProfile(next);
  }

  async changeBadgesAsAdmin(caller: Caller, userUuid: string, badges: readonly string[]): Promise<User> {
    requireAdmin(caller);
    const checked = checkBadges(badges);
    return this.changeBadges(userUuid, () => checked);
  }

  async addBadgesAsService(caller: Caller, userUuid: string, badges: readonly string[]): Promise<User> {
    requireService(caller);
    checkBadges(badges);
    return this.changeBadges(userUuid, (current) => addBadges(current, badges));
  }

  async removeBadgesAsService(caller: Caller, userUuid: string, badges: readonly string[]): Promise<User> {
    requireService(caller);
    checkBadges(badges);
    return this.changeBadges(userUuid, (current) => removeBadges(current, badges));
  }

  private async changeBadges(userUuid: string, change: (current: string[]) => string[]): Promise<User> {
    const user = isUuid(userUuid) ? await this.store.changeBadges(userUuid, change) : null;
    if (!user) throw notFound(PROFILE_NOT_FOUND, ERROR_CODES.userProfileNotFound);
    return user;
  }

  async listForSeo(caller: Caller, order: 'id' | 'updatedAt', take: number, skip: number): Promise<{ users: User[]; total: number }> {
    requireService(caller);
    return this.store.listProfiles(order, seoPage(take, skip));
  }
}
