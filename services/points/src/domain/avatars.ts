import {
  badRequest,
  conflict,
  crudPage,
  forbidden,
  isAdminRole,
  isUuid,
  notFound,
  parseCrudQuery,
  type CrudPage,
  type CrudQuery,
} from '@spinroom/platform';
import { checkUuid, type Seasons } from './seasons.js';
import type { Actor } from './tokens.js';

export const AVATAR_NOT_FOUND = 'Avatar not found';
export const AVATAR_SLUG_TAKEN = 'An avatar with this slug exists';
export const ASSIGNMENT_NOT_FOUND = 'Avatar assignment not found';

export const AVATAR_STATUSES = ['PUBLIC', 'PRIVATE', 'SEASON_AWARD', 'SUBSCRIBER_ONLY'] as const;
export type AvatarStatus = (typeof AVATAR_STATUSES)[number];
export const ASSIGNMENT_TYPES = ['MANUAL', 'SEASON_AWARD', 'PURCHASED'] as const;
export type AssignmentType = (typeof ASSIGNMENT_TYPES)[number];

/**
 * An avatar (spec 000: slug, avatarStatus; spec 002: discordOnly). A
 * SEASON_AWARD avatar names its season and the rank (this or better) in it
 * that earns it.
 */
export interface Avatar {
  slug: string;
  name: string;
  status: AvatarStatus;
  discordOnly: boolean;
  seasonId: string | null;
  rankThreshold: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface AvatarInput {
  slug: string;
  name: string;
  status: AvatarStatus;
  discordOnly: boolean;
  seasonId: string | null;
  rankThreshold: number | null;
}

export interface AvatarAssignment {
  id: string;
  avatarSlug: string;
  userUuid: string;
  assignmentType: AssignmentType;
  seasonId: string | null;
  createdAt: Date;
}

/** The columns admins may select, filter and sort the avatars by (the @nestjsx/crud syntax). */
export const ADMIN_AVATAR_COLUMNS = {
  slug: 'text',
  name: 'text',
  status: 'text',
  seasonId: 'uuid',
  rankThreshold: 'int',
  createdAt: 'date',
  updatedAt: 'date',
} as const;
export type AdminAvatarColumn = keyof typeof ADMIN_AVATAR_COLUMNS;
export type AvatarQuery = CrudQuery<AdminAvatarColumn>;

/** Avatars and assignments in PostgreSQL (db/avatar-store.ts). */
export interface AvatarStore {
  create(input: AvatarInput, now: Date): Promise<Avatar | undefined>;
  patch(slug: string, changes: Partial<AvatarInput>, now: Date): Promise<Avatar | undefined>;
  delete(slug: string): Promise<boolean>;
  find(slug: string): Promise<Avatar | undefined>;
  list(statuses: AvatarStatus[]): Promise<Avatar[]>;
  /** The avatars assigned to a user. */
  assignedTo(userUuid: string): Promise<Avatar[]>;
  query(query: AvatarQuery): Promise<{ rows: Avatar[]; total: number }>;
  assignment(slug: string, userUuid: string): Promise<AvatarAssignment | undefined>;
  assign(
    slug: string,
    userUuid: string,
    type: AssignmentType,
    seasonId: string | null,
    now: Date,
  ): Promise<{ assignment: AvatarAssignment; created: boolean }>;
  deleteAssignment(id: string): Promise<boolean>;
  /** Assigns the season's awards to users ranked within their thresholds, at most `limit`; answers how many. */
  backfill(seasonId: string, limit: number, now: Date): Promise<{ assigned: number; done: boolean }>;
}

const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export function checkSlug(slug: string): void {
  if (!SLUG.test(slug)) throw badRequest('slug must be 1 to 64 lowercase letters, digits, - or _, starting with a letter or digit');
}

/** Paths of their own: /avatars/subscriber. */
const RESERVED_SLUGS = ['subscriber'];

/** An avatar's fields as a whole: a SEASON_AWARD avatar needs its season and rank threshold, the others have neither. */
export function checkAvatar(avatar: AvatarInput): AvatarInput {
  checkSlug(avatar.slug);
  if (RESERVED_SLUGS.includes(avatar.slug)) throw badRequest(`slug ${avatar.slug} is reserved`);
  if (avatar.name.trim().length === 0 || avatar.name.length > 100) throw badRequest('name must be 1 to 100 characters');
  if (!AVATAR_STATUSES.includes(avatar.status)) throw badRequest(`status must be one of ${AVATAR_STATUSES.join(', ')}`);
  if (avatar.status === 'SEASON_AWARD') {
    if (!avatar.seasonId || avatar.rankThreshold === null) throw badRequest('A SEASON_AWARD avatar needs seasonId and rankThreshold');
    checkUuid(avatar.seasonId, 'seasonId');
    if (!Number.isSafeInteger(avatar.rankThreshold) || avatar.rankThreshold < 1 || avatar.rankThreshold > 1_000_000) {
      throw badRequest('rankThreshold must be a whole number from 1 to 1000000');
    }
    return { ...avatar, name: avatar.name.trim() };
  }
  return { ...avatar, name: avatar.name.trim(), seasonId: null, rankThreshold: null };
}

/**
 * Who may wear an avatar: anyone it is assigned to; anyone signed in a PUBLIC
 * one (not a Discord-only one: those come through an assignment). PRIVATE,
 * SEASON_AWARD avatars are worn through an assignment (an admin's, the
 * season's award, a purchase); a SUBSCRIBER_ONLY one also by anyone whose
 * subscription is active (asked of the payment service), for as long as it is.
 */
export function mayWear(avatar: Avatar, assigned: boolean, subscribed = false): boolean {
  if (assigned) return true;
  if (avatar.status === 'SUBSCRIBER_ONLY') return subscribed && !avatar.discordOnly;
  return avatar.status === 'PUBLIC' && !avatar.discordOnly;
}

/** A user's subscription level ('' without an active subscription): the payment service's GetActiveSubscription. */
export interface Subscriptions {
  level(userUuid: string): Promise<string>;
}

/** Avatars: admins write them and assign them; services assign and look them up; anyone reads the public ones. */
export class Avatars {
  private readonly now: () => Date;

  constructor(
    private readonly store: AvatarStore,
    private readonly seasons: Seasons,
    private readonly subscriptions: Subscriptions,
    now?: () => Date,
  ) {
    this.now = now ?? (() => new Date());
  }

  private async season(input: AvatarInput): Promise<void> {
    if (input.seasonId) await this.seasons.byId(input.seasonId);
  }

  async create(actor: Actor, input: AvatarInput): Promise<Avatar> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may create avatars');
    const avatar = checkAvatar(input);
    await this.season(avatar);
    const created = await this.store.create(avatar, this.now());
    if (!created) throw conflict(AVATAR_SLUG_TAKEN);
    return created;
  }

  async patch(actor: Actor, slug: string, changes: Partial<Omit<AvatarInput, 'slug'>>): Promise<Avatar> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may change avatars');
    checkSlug(slug);
    const current = await this.store.find(slug);
    if (!current) throw notFound(AVATAR_NOT_FOUND);
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const avatar = checkAvatar({ ...current, ...defined, slug });
    await this.season(avatar);
    const patched = await this.store.patch(slug, avatar, this.now());
    if (!patched) throw notFound(AVATAR_NOT_FOUND);
    return patched;
  }

  async delete(actor: Actor, slug: string): Promise<void> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may delete avatars');
    checkSlug(slug);
    if (!(await this.store.delete(slug))) throw notFound(AVATAR_NOT_FOUND);
  }

  /** One avatar; a PRIVATE one is not found but for admins and those it is assigned to. */
  async get(actor: Actor | undefined, slug: string): Promise<Avatar> {
    checkSlug(slug);
    const avatar = await this.store.find(slug);
    if (!avatar) throw notFound(AVATAR_NOT_FOUND);
    if (avatar.status === 'PRIVATE' && !(actor && isAdminRole(actor.role))) {
      if (!actor || !(await this.store.assignment(slug, actor.userUuid))) throw notFound(AVATAR_NOT_FOUND);
    }
    return avatar;
  }

  /** What a user may wear (without a caller: the public avatars). */
  async mine(actor: Actor | undefined): Promise<Avatar[]> {
    const open = (await this.store.list(['PUBLIC'])).filter((avatar) => mayWear(avatar, false));
    if (!actor) return open;
    const [assigned, subscribed] = await Promise.all([this.store.assignedTo(actor.userUuid), this.subscribed(actor.userUuid)]);
    const forSubscribers = subscribed ? (await this.store.list(['SUBSCRIBER_ONLY'])).filter((avatar) => mayWear(avatar, false, true)) : [];
    const bySlug = new Map([...open, ...forSubscribers, ...assigned].map((avatar) => [avatar.slug, avatar]));
    return [...bySlug.values()].sort((a, b) => a.slug.localeCompare(b.slug));
  }

  /** Every avatar but the private ones (admins: all of them), for a picker showing what can be earned or bought. */
  all(actor: Actor | undefined): Promise<Avatar[]> {
    const admin = actor !== undefined && isAdminRole(actor.role);
    return this.store.list(admin ? [...AVATAR_STATUSES] : ['PUBLIC', 'SEASON_AWARD', 'SUBSCRIBER_ONLY']);
  }

  /** Whether the user's subscription is active now; guests and services have none. */
  private async subscribed(userUuid: string): Promise<boolean> {
    if (!isUuid(userUuid)) return false;
    return (await this.subscriptions.level(userUuid)) !== '';
  }

  subscriber(): Promise<Avatar[]> {
    return this.store.list(['SUBSCRIBER_ONLY']);
  }

  async forUser(slug: string, userUuid: string): Promise<{ avatar: Avatar; canWear: boolean; assignment: AvatarAssignment | null }> {
    checkSlug(slug);
    checkUuid(userUuid, 'uuid');
    const avatar = await this.store.find(slug);
    if (!avatar) throw notFound(AVATAR_NOT_FOUND);
    const assignment = (await this.store.assignment(slug, userUuid)) ?? null;
    const subscribed = avatar.status === 'SUBSCRIBER_ONLY' && !assignment ? await this.subscribed(userUuid) : false;
    return { avatar, canWear: mayWear(avatar, assignment !== null, subscribed), assignment };
  }

  async forService(actor: Actor, slug: string): Promise<Avatar> {
    if (actor.kind !== 'service') throw forbidden('Only services may look avatars up here');
    checkSlug(slug);
    const avatar = await this.store.find(slug);
    if (!avatar) throw notFound(AVATAR_NOT_FOUND);
    return avatar;
  }

  async adminQuery(actor: Actor, queryString: string): Promise<CrudPage<Avatar> & { fields: AdminAvatarColumn[] }> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may list avatars here');
    const query = parseCrudQuery(queryString, ADMIN_AVATAR_COLUMNS);
    const { rows, total } = await this.store.query(query);
    return { ...crudPage(rows, total, query), fields: query.fields };
  }

  async adminGet(actor: Actor, slug: string, queryString: string): Promise<{ avatar: Avatar; fields: AdminAvatarColumn[] }> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may read avatars here');
    checkSlug(slug);
    const query = parseCrudQuery(queryString, ADMIN_AVATAR_COLUMNS, { single: true });
    const avatar = await this.store.find(slug);
    if (!avatar) throw notFound(AVATAR_NOT_FOUND);
    return { avatar, fields: query.fields };
  }

  async assign(actor: Actor, slug: string, userUuid: string, type: AssignmentType = 'MANUAL') {
    const admin = isAdminRole(actor.role);
    const service = actor.kind === 'service';
    if (!admin && !service) throw forbidden('Only admins and services may assign avatars');
    if (!ASSIGNMENT_TYPES.includes(type)) throw badRequest(`assignmentType must be one of ${ASSIGNMENT_TYPES.join(', ')}`);
    if (type === 'PURCHASED' && !service) throw forbidden('Only services may assign a PURCHASED avatar');
    if (type === 'SEASON_AWARD' && !admin) throw forbidden('Only admins may assign a SEASON_AWARD avatar');
    checkSlug(slug);
    checkUuid(userUuid, 'userUuid');
    const avatar = await this.store.find(slug);
    if (!avatar) throw notFound(AVATAR_NOT_FOUND);
    return this.store.assign(slug, userUuid, type, type === 'SEASON_AWARD' ? avatar.seasonId : null, this.now());
  }

  async unassign(actor: Actor, id: string): Promise<void> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may take avatars back');
    checkUuid(id, 'avatarAssignmentId');
    if (!(await this.store.deleteAssignment(id))) throw notFound(ASSIGNMENT_NOT_FOUND);
  }

  async backfill(actor: Actor, seasonId: string, limit: number): Promise<{ assigned: number; done: boolean }> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may backfill achieved avatars');
    const season = await this.seasons.byId(seasonId);
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 10_000) throw badRequest('limit must be a whole number from 1 to 10000');
    return this.store.backfill(season.id, limit, this.now());
  }
}
