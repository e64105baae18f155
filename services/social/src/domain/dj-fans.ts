import { badRequest, notFound } from '@spinroom/platform/core';
import {
  isUuid,
  requireAdmin,
  requireMember,
  requireServiceOrAdmin,
  requireUserUuid,
  type Actor,
  type Page,
  type Paged,
} from './actors.js';
import type { Device } from './devices.js';

export interface DjFan {
  id: string;
  fanUuid: string;
  djUuid: string;
  createdAt: Date;
}

export interface DjSummary {
  djUuid: string;
  fans: number;
  following: number;
  lastFollowedAt: Date | null;
}

export interface DjFanStore {
  /** Follows (idempotent); a new follow stages its social.dj-followed event in the same transaction. */
  follow(fanUuid: string, djUuid: string, now: Date): Promise<{ fan: DjFan; created: boolean }>;
  /** Removes the fan's follow of a DJ (by the DJ's uuid or the record's id). */
  unfollow(fanUuid: string, idOrDj: string): Promise<boolean>;
  find(fanUuid: string, djUuid: string): Promise<DjFan | undefined>;
  followedBy(fanUuid: string, page: Page): Promise<Paged<DjFan>>;
  fansOf(djUuid: string, page: Page): Promise<Paged<DjFan>>;
  counts(userUuid: string): Promise<{ fans: number; following: number }>;
  /** The devices of a DJ's fans after a device id, in id order (a keyset page, streamed by fan-out). */
  fanDevices(djUuid: string, afterId: string | null, take: number): Promise<Device[]>;
  djs(page: Page): Promise<Paged<DjSummary>>;
  dj(djUuid: string): Promise<DjSummary>;
}

const FAN_NOT_FOUND = 'DJ fan not found';

/** DJ fans: a user follows DJs; a DJ's fans are counted, listed 12 a page and told when the DJ plays. */
export class DjFans {
  constructor(
    private readonly store: DjFanStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  follow(actor: Actor, djUuid: string) {
    requireMember(actor);
    const dj = requireUserUuid(djUuid, 'DJ not found');
    if (dj === actor.userUuid) throw badRequest('You cannot follow yourself');
    return this.store.follow(actor.userUuid, dj, this.now());
  }

  async unfollow(actor: Actor, idOrDj: string): Promise<void> {
    if (!isUuid(idOrDj) || !(await this.store.unfollow(actor.userUuid, idOrDj.toLowerCase()))) throw notFound(FAN_NOT_FOUND);
  }

  async get(actor: Actor, djUuid: string): Promise<DjFan> {
    const fan = isUuid(djUuid) ? await this.store.find(actor.userUuid, djUuid.toLowerCase()) : undefined;
    if (!fan) throw notFound(FAN_NOT_FOUND);
    return fan;
  }

  /** The DJs a user follows (the caller's when none is named). */
  followed(actor: Actor, userUuid: string, page: Page): Promise<Paged<DjFan>> {
    const user = userUuid ? userUuid : actor.userUuid;
    if (!isUuid(user)) return Promise.resolve({ items: [], total: 0 });
    return this.store.followedBy(user.toLowerCase(), page);
  }

  fans(djUuid: string, page: Page): Promise<Paged<DjFan>> {
    if (!isUuid(djUuid)) return Promise.resolve({ items: [], total: 0 });
    return this.store.fansOf(djUuid.toLowerCase(), page);
  }

  count(userUuid: string): Promise<{ fans: number; following: number }> {
    if (!isUuid(userUuid)) return Promise.resolve({ fans: 0, following: 0 });
    return this.store.counts(userUuid.toLowerCase());
  }

  /** Services and admins: the devices a DJ's fans get their pushes on. */
  fanDevices(actor: Actor, djUuid: string, afterId: string, take: number): Promise<Device[]> {
    requireServiceOrAdmin(actor);
    if (!isUuid(djUuid) || (afterId !== '' && !isUuid(afterId))) return Promise.resolve([]);
    return this.store.fanDevices(djUuid.toLowerCase(), afterId || null, Math.min(Math.max(take || 500, 1), 1000));
  }

  adminDjs(actor: Actor, page: Page): Promise<Paged<DjSummary>> {
    requireAdmin(actor);
    return this.store.djs(page);
  }

  async adminDj(actor: Actor, djUuid: string): Promise<DjSummary> {
    requireAdmin(actor);
    return this.store.dj(requireUserUuid(djUuid, 'DJ not found'));
  }

  adminFans(actor: Actor, djUuid: string, page: Page): Promise<Paged<DjFan>> {
    requireAdmin(actor);
    return this.fans(djUuid, page);
  }
}
