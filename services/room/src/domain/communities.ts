import {
  badRequest,
  conflict,
  crudPage,
  forbidden,
  isUuid,
  notFound,
  parseCrudQuery,
  ROOM_STAFF_ROLES,
  type CrudPage,
  type CrudQuery,
  type Logger,
} from '@spinroom/platform';
import { eventLiveNotification } from '../events/community-notifications.js';
import { roomChanged } from '../events/room-events.js';
import {
  ADMIN_COMMUNITY_COLUMNS,
  ADMIN_EVENT_COLUMNS,
  checkMemberChange,
  checkMemberRemoval,
  checkSpecialChange,
  communityAuthority,
  communityFields,
  derivedSlug,
  eventFields,
  LIMITS,
  liveDecision,
  managesCommunity,
  MESSAGES,
  requireGlobal,
  type AdminCommunityColumn,
  type AdminEventColumn,
  type Community,
  type CommunityEvent,
  type CommunityFields,
  type CommunityInput,
  type CommunityMember,
  type CommunityView,
  type EventFields,
  type EventInput,
  type MemberRole,
} from './community-rules.js';
import type { LiveRoomPort } from './live-room-port.js';
import { seesEveryRoom } from './room-access.js';
import { atLeast, authorityOf, isGlobalRole, RANKED_ROLES } from './room-roles.js';
import type { RoomRef, RoomStore, Tx, Visibility } from './room-store.js';
import type { Room } from './room.js';
import type { Actor, RoomView, Rooms } from './rooms.js';

export type CommunityRef = { id: number } | { uuid: string } | { slug: string };
export type EventRef = CommunityRef;

export interface EventFilter {
  /** Only events ending after this time (the upcoming and live ones). */
  endsAfter?: Date;
  communityId?: number;
  /** Events in rooms this viewer sees listed; all without it. */
  visibleTo?: Visibility;
}

/** What the community and event rules need of storage (db/community-store.ts), in the room store's transactions. */
export interface CommunityStore {
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  findCommunity(ref: CommunityRef, tx?: Tx, lock?: boolean): Promise<Community | null>;
  communitiesByIds(ids: number[]): Promise<Community[]>;
  insertCommunity(tx: Tx, fields: Required<CommunityFields> & { slug: string }): Promise<Community | null>;
  slugsLike(table: 'community' | 'event', base: string): Promise<Set<string>>;
  /** False when the new slug is taken. */
  updateCommunity(tx: Tx, id: number, fields: CommunityFields): Promise<boolean>;
  setOwnerMembership(tx: Tx, communityId: number, ownerUuid: string | null): Promise<void>;
  deleteCommunity(tx: Tx, id: number): Promise<void>;
  adminCommunities(query: CrudQuery): Promise<{ rows: Community[]; total: number }>;
  adminEvents(query: CrudQuery): Promise<{ rows: CommunityEvent[]; total: number }>;
  membership(communityId: number, userUuid: string, tx?: Tx): Promise<MemberRole | null>;
  memberships(communityIds: number[], userUuid: string): Promise<Map<number, MemberRole>>;
  members(communityId: number, page: { limit: number; offset: number }): Promise<{ members: CommunityMember[]; total: number }>;
  memberUuids(communityId: number, tx?: Tx): Promise<string[]>;
  putMember(tx: Tx, communityId: number, userUuid: string, role: MemberRole, onlyNew?: boolean): Promise<CommunityMember>;
  removeMember(tx: Tx, communityId: number, userUuid: string): Promise<boolean>;
  addRooms(tx: Tx, communityId: number, roomIds: number[]): Promise<number>;
  removeRooms(tx: Tx, communityId: number, roomIds: number[]): Promise<number>;
  /** Every community, the most members first; `search` (lower case) in the name or slug. */
  listCommunities(
    filter: { search: string },
    page: { limit: number; offset: number },
  ): Promise<{ communities: Community[]; total: number }>;
  communitiesOfRoom(roomId: number): Promise<Community[]>;
  communitiesOfUser(userUuid: string): Promise<Array<{ community: Community; role: MemberRole }>>;
  insertEvent(
    tx: Tx,
    event: Required<Omit<EventFields, 'imageUrl'>> & {
      imageUrl: string | null;
      roomId: number;
      communityId: number | null;
      createdBy: string;
    },
  ): Promise<CommunityEvent | null>;
  findEvent(ref: EventRef, tx?: Tx, lock?: boolean): Promise<CommunityEvent | null>;
  updateEvent(
    tx: Tx,
    id: number,
    fields: EventFields & { roomId?: number; communityId?: number | null },
    relive: boolean,
  ): Promise<boolean>;
  deleteEvent(tx: Tx, id: number): Promise<void>;
  listEvents(filter: EventFilter, page: { limit: number; offset: number }): Promise<{ events: CommunityEvent[]; total: number }>;
  claimDueEvents(tx: Tx, now: Date, limit: number): Promise<CommunityEvent[]>;
  markLive(tx: Tx, eventId: number, at: Date): Promise<void>;
}

/** A community or event named in a path: a numeric id, a uuid or a slug. */
export function refOf(key: string): CommunityRef {
  const trimmed = key.trim();
  if (/^\d{1,10}$/.test(trimmed) && Number(trimmed) <= 2_147_483_647) return { id: Number(trimmed) };
  if (isUuid(trimmed)) return { uuid: trimmed.toLowerCase() };
  if (trimmed.length === 0 || trimmed.length > 64) throw badRequest('A community or event is named by its id, uuid or slug');
  return { slug: trimmed.toLowerCase() };
}

/** Rooms named in a community request: by uuid, slug or numeric id. */
const MAX_ROOMS_PER_CALL = 100;
const MAX_SEARCH_LENGTH = 100;

/** Holds no role anywhere: the viewer of lists when the caller has no user uuid. */
const NO_USER = '00000000-0000-0000-0000-000000000000';

function visibilityOf(viewer: Actor): Visibility | undefined {
  return seesEveryRoom(viewer.role) ? undefined : { userUuid: isUuid(viewer.userUuid) ? viewer.userUuid : NO_USER, roles: RANKED_ROLES };
}

/** Communities: the admin paths, membership, rooms; events and their going live. */
export class Communities {
  constructor(
    private readonly store: CommunityStore,
    private readonly roomStore: RoomStore,
    private readonly roomRules: Rooms,
    private readonly live: LiveRoomPort,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  // ---- admin ----

  async adminList(actor: Actor, queryString: string): Promise<CrudPage<Community> & { fields: AdminCommunityColumn[] }> {
    requireGlobal(actor.role);
    const query = parseCrudQuery(queryString, ADMIN_COMMUNITY_COLUMNS);
    const { rows, total } = await this.store.adminCommunities(query);
    return { ...crudPage(rows, total, query), fields: query.fields };
  }

  async adminGet(actor: Actor, id: number, queryString: string): Promise<{ community: Community; fields: AdminCommunityColumn[] }> {
    requireGlobal(actor.role);
    const query = parseCrudQuery(queryString, ADMIN_COMMUNITY_COLUMNS, { single: true });
    return { community: await this.requireCommunity({ id }), fields: query.fields };
  }

  /** Creates communities, all or none (bulk); a slug taken is 409, a derived one gets -2, -3, .... */
  async create(actor: Actor, inputs: CommunityInput[]): Promise<Community[]> {
    requireGlobal(actor.role);
    if (inputs.length === 0 || inputs.length > LIMITS.bulk) throw badRequest(`Give 1 to ${LIMITS.bulk} communities`);
    const checked = inputs.map((input) => communityFields(input, true) as Required<CommunityFields>);
    const derived = new Set<string>();
    for (const fields of checked) {
      if (fields.slug) continue;
      fields.slug = await this.freeSlug('community', fields.name, derived);
      derived.add(fields.slug);
    }
    return this.store.write(async (tx) => {
      const created: Community[] = [];
      for (const fields of checked) {
        const community = await this.store.insertCommunity(tx, fields);
        if (!community) throw conflict(MESSAGES.communitySlugTaken);
        if (fields.ownerUuid) await this.store.setOwnerMembership(tx, community.id, fields.ownerUuid);
        created.push((await this.store.findCommunity({ id: community.id }, tx))!);
      }
      return created;
    });
  }

  /** PATCH (`replace` false) or PUT (fields left out take their defaults); a new owner becomes a member as owner. */
  async update(actor: Actor, id: number, input: CommunityInput, replace: boolean): Promise<Community> {
    requireGlobal(actor.role);
    const fields = communityFields(input, replace);
    return this.store.write(async (tx) => {
      const current = await this.store.findCommunity({ id }, tx, true);
      if (!current) throw notFound(MESSAGES.communityNotFound);
      checkSpecialChange(current, { slug: fields.slug });
      if (!(await this.store.updateCommunity(tx, id, fields))) throw conflict(MESSAGES.communitySlugTaken);
      if (fields.ownerUuid !== undefined && fields.ownerUuid !== current.ownerUuid) {
        await this.store.setOwnerMembership(tx, id, fields.ownerUuid);
      }
      return (await this.store.findCommunity({ id }, tx))!;
    });
  }

  async delete(actor: Actor, id: number): Promise<void> {
    requireGlobal(actor.role);
    await this.store.write(async (tx) => {
      const current = await this.store.findCommunity({ id }, tx, true);
      if (!current) throw notFound(MESSAGES.communityNotFound);
      checkSpecialChange(current, { deleted: true });
      await this.store.deleteCommunity(tx, id);
    });
  }

  // ---- communities ----

  async get(actor: Actor, ref: CommunityRef): Promise<CommunityView> {
    const community = await this.requireCommunity(ref);
    return { community, membership: await this.store.membership(community.id, actor.userUuid) };
  }

  /** Every community for anyone to browse, with the caller's membership of each. */
  async list(actor: Actor, search: string, page: { limit: number; offset: number }): Promise<{ views: CommunityView[]; total: number }> {
    const words = search.trim();
    if (words.length > MAX_SEARCH_LENGTH) throw badRequest(`search must be at most ${MAX_SEARCH_LENGTH} characters`);
    const { communities, total } = await this.store.listCommunities({ search: words }, page);
    return { views: await this.viewsFor(actor, communities), total };
  }

  async members(ref: CommunityRef, page: { limit: number; offset: number }): Promise<{ members: CommunityMember[]; total: number }> {
    const community = await this.requireCommunity(ref);
    return this.store.members(community.id, page);
  }

  async join(actor: Actor, ref: CommunityRef): Promise<CommunityView> {
    if (actor.role === 'guest' || !isUuid(actor.userUuid)) throw forbidden(MESSAGES.guestsJoin);
    return this.store.write(async (tx) => {
      const community = await this.requireCommunity(ref, tx);
      const member = await this.store.putMember(tx, community.id, actor.userUuid, 'member', true);
      return { community: (await this.store.findCommunity({ id: community.id }, tx))!, membership: member.role };
    });
  }

  async leave(actor: Actor, ref: CommunityRef): Promise<{ view: CommunityView; left: boolean }> {
    return this.store.write(async (tx) => {
      const community = await this.requireCommunity(ref, tx);
      const membership = await this.store.membership(community.id, actor.userUuid, tx);
      if (membership === null) return { view: { community, membership: null }, left: false };
      checkMemberRemoval(communityAuthority(actor.role, membership), true, membership);
      await this.store.removeMember(tx, community.id, actor.userUuid);
      return { view: { community: (await this.store.findCommunity({ id: community.id }, tx))!, membership: null }, left: true };
    });
  }

  async addMember(actor: Actor, ref: CommunityRef, userUuid: string, role: string): Promise<CommunityMember> {
    if (!isUuid(userUuid)) throw badRequest('userId must be a UUID');
    const target = userUuid.toLowerCase();
    return this.store.write(async (tx) => {
      const community = await this.requireCommunity(ref, tx);
      const authority = communityAuthority(actor.role, await this.store.membership(community.id, actor.userUuid, tx));
      const wanted = checkMemberChange(authority, {
        current: await this.store.membership(community.id, target, tx),
        wanted: role || 'member',
      });
      return this.store.putMember(tx, community.id, target, wanted);
    });
  }

  async removeMember(actor: Actor, ref: CommunityRef, userUuid: string): Promise<boolean> {
    if (!isUuid(userUuid)) throw badRequest('userId must be a UUID');
    const target = userUuid.toLowerCase();
    return this.store.write(async (tx) => {
      const community = await this.requireCommunity(ref, tx);
      const authority = communityAuthority(actor.role, await this.store.membership(community.id, actor.userUuid, tx));
      const targetRole = await this.store.membership(community.id, target, tx);
      if (targetRole === null) {
        if (!managesCommunity(authority) && target !== actor.userUuid) throw forbidden(MESSAGES.removeMember);
        throw notFound(MESSAGES.notMember);
      }
      checkMemberRemoval(authority, target === actor.userUuid, targetRole);
      return this.store.removeMember(tx, community.id, target);
    });
  }

  async rooms(actor: Actor, ref: CommunityRef, page: { limit: number; offset: number }): Promise<{ rooms: RoomView[]; total: number }> {
    const community = await this.requireCommunity(ref);
    return this.roomRules.list({ kind: 'community', communityId: community.id }, page, actor);
  }

  /**
   * Adds rooms (the community's owner and moderators, global roles). A room
   * the caller does not see listed (PRIVATE or unlisted) is added only by its
   * own owner, coOwners and moderators, or a global role.
   */
  async addRooms(actor: Actor, ref: CommunityRef, roomRefs: RoomRef[]): Promise<{ community: Community; changed: number }> {
    const found = await this.roomsNamed(roomRefs);
    return this.store.write(async (tx) => {
      const community = await this.requireCommunity(ref, tx, true);
      const authority = communityAuthority(actor.role, await this.store.membership(community.id, actor.userUuid, tx));
      if (!managesCommunity(authority)) throw forbidden(MESSAGES.manageRooms);
      if (authority !== 'global') {
        const hidden = found.filter((room) => room.type !== 'PUBLIC' || room.unlisted);
        const roles = await this.roomStore.activeRoles(
          hidden.map((r) => r.id),
          actor.userUuid,
          tx,
        );
        const staffOf = new Set(roles.filter((r) => ROOM_STAFF_ROLES.includes(r.role)).map((r) => r.roomId));
        if (hidden.some((room) => !staffOf.has(room.id))) throw forbidden(MESSAGES.addRoom);
      }
      const changed = await this.store.addRooms(
        tx,
        community.id,
        found.map((r) => r.id),
      );
      return { community: (await this.store.findCommunity({ id: community.id }, tx))!, changed };
    });
  }

  /** Takes rooms out: the community's owner and moderators, global roles, or each room's owner and coOwners for their room. */
  async removeRooms(actor: Actor, ref: CommunityRef, roomRefs: RoomRef[]): Promise<{ community: Community; changed: number }> {
    const found = await this.roomsNamed(roomRefs);
    return this.store.write(async (tx) => {
      const community = await this.requireCommunity(ref, tx, true);
      const authority = communityAuthority(actor.role, await this.store.membership(community.id, actor.userUuid, tx));
      if (!managesCommunity(authority)) {
        const roles = await this.roomStore.activeRoles(
          found.map((r) => r.id),
          actor.userUuid,
          tx,
        );
        const owned = new Set(roles.filter((r) => r.role === 'owner' || r.role === 'coOwner').map((r) => r.roomId));
        if (found.some((room) => !owned.has(room.id))) throw forbidden(MESSAGES.removeRoom);
      }
      const changed = await this.store.removeRooms(
        tx,
        community.id,
        found.map((r) => r.id),
      );
      return { community: (await this.store.findCommunity({ id: community.id }, tx))!, changed };
    });
  }

  /** The communities of a room the caller may read about (the room's answer decides: 404 when unknown). */
  async ofRoom(actor: Actor, roomRef: RoomRef): Promise<CommunityView[]> {
    const view = await this.roomRules.get(roomRef, actor);
    return this.viewsFor(actor, await this.store.communitiesOfRoom(view.room.id));
  }

  async ofUser(actor: Actor): Promise<CommunityView[]> {
    return (await this.store.communitiesOfUser(actor.userUuid)).map(({ community, role }) => ({ community, membership: role }));
  }

  // ---- events ----

  async adminEvents(actor: Actor, queryString: string): Promise<CrudPage<CommunityEvent> & { fields: AdminEventColumn[] }> {
    requireGlobal(actor.role);
    const query = parseCrudQuery(queryString, ADMIN_EVENT_COLUMNS);
    const { rows, total } = await this.store.adminEvents(query);
    return { ...crudPage(rows, total, query), fields: query.fields };
  }

  async adminEvent(actor: Actor, id: number, queryString: string): Promise<{ event: CommunityEvent; fields: AdminEventColumn[] }> {
    requireGlobal(actor.role);
    const query = parseCrudQuery(queryString, ADMIN_EVENT_COLUMNS, { single: true });
    const event = await this.store.findEvent({ id });
    if (!event) throw notFound(MESSAGES.eventNotFound);
    return { event, fields: query.fields };
  }

  /** Events in rooms the viewer sees listed, soonest first; `upcoming` keeps those not ended. */
  async events(
    actor: Actor,
    options: { upcoming: boolean; community?: string },
    page: { limit: number; offset: number },
  ): Promise<{ events: CommunityEvent[]; total: number }> {
    const community = options.community ? await this.requireCommunity(refOf(options.community)) : undefined;
    return this.store.listEvents(
      { endsAfter: options.upcoming ? this.now() : undefined, communityId: community?.id, visibleTo: visibilityOf(actor) },
      page,
    );
  }

  /** An event whose room the viewer sees listed; 404 'Event not found' otherwise. */
  async event(actor: Actor, ref: EventRef): Promise<CommunityEvent> {
    const event = await this.store.findEvent(ref);
    if (!event || !(await this.seesRoom(actor, event.roomId))) throw notFound(MESSAGES.eventNotFound);
    return event;
  }

  async createEvent(actor: Actor, input: EventInput): Promise<CommunityEvent> {
    if (actor.role === 'guest') throw forbidden(MESSAGES.guestsEvents);
    if (!input.room) throw badRequest('room is required');
    const fields = eventFields(input, null, this.now());
    const slug = fields.slug ?? (await this.freeSlug('event', fields.name!, new Set()));
    return this.store.write(async (tx) => {
      const room = await this.requireRoom(input.room!, tx);
      await this.checkEventRights(actor, room, tx);
      const communityId = await this.communityForEvent(actor, input.community, tx);
      const event = await this.store.insertEvent(tx, {
        name: fields.name!,
        slug,
        description: fields.description ?? '',
        imageUrl: fields.imageUrl ?? null,
        startTime: fields.startTime!,
        endTime: fields.endTime!,
        roomId: room.id,
        communityId: communityId ?? null,
        createdBy: actor.userUuid,
      });
      if (!event) throw conflict(MESSAGES.eventSlugTaken);
      return event;
    });
  }

  async updateEvent(actor: Actor, ref: EventRef, input: EventInput): Promise<CommunityEvent> {
    if (actor.role === 'guest') throw forbidden(MESSAGES.guestsEvents);
    return this.store.write(async (tx) => {
      const current = await this.store.findEvent(ref, tx, true);
      if (!current) throw notFound(MESSAGES.eventNotFound);
      const currentRoom = (await this.roomStore.find({ id: current.roomId }, tx))!;
      if (!(await this.seesRoom(actor, current.roomId))) throw notFound(MESSAGES.eventNotFound);
      await this.checkEventRights(actor, currentRoom, tx);
      const fields = eventFields(input, current, this.now());
      const changes: EventFields & { roomId?: number; communityId?: number | null } = { ...fields };
      if (input.room !== undefined) {
        const room = await this.requireRoom(input.room, tx);
        await this.checkEventRights(actor, room, tx);
        changes.roomId = room.id;
      }
      if (input.community !== undefined) changes.communityId = await this.communityForEvent(actor, input.community || undefined, tx);
      // A start moved to the future goes live again then.
      const relive = fields.startTime !== undefined && fields.startTime.getTime() > this.now().getTime();
      if (!(await this.store.updateEvent(tx, current.id, changes, relive))) throw conflict(MESSAGES.eventSlugTaken);
      return (await this.store.findEvent({ id: current.id }, tx))!;
    });
  }

  async deleteEvent(actor: Actor, ref: EventRef): Promise<void> {
    if (actor.role === 'guest') throw forbidden(MESSAGES.guestsEvents);
    await this.store.write(async (tx) => {
      const current = await this.store.findEvent(ref, tx, true);
      if (!current || !(await this.seesRoom(actor, current.roomId))) throw notFound(MESSAGES.eventNotFound);
      await this.checkEventRights(actor, (await this.roomStore.find({ id: current.roomId }, tx))!, tx);
      await this.store.deleteEvent(tx, current.id);
    });
  }

  /**
   * The events' clock, run by every replica: claims events whose start has
   * come (locked, skipped by the other replicas), makes each one's room live
   * with its `room.updated` event and stages a notification for each of the
   * community's members on `notifications`, all in one transaction; then the
   * live rooms follow. An event that already ended is only marked. Answers
   * how many events were claimed (live or missed).
   */
  async goLiveDue(limit = 20): Promise<number> {
    const now = this.now();
    const { changed, claimed } = await this.store.write(async (tx) => {
      const due = await this.store.claimDueEvents(tx, now, limit);
      const rooms: string[] = [];
      for (const event of due) {
        await this.store.markLive(tx, event.id, now);
        if (liveDecision(event, now) === 'missed') {
          this.logger.info({ event: event.uuid }, 'event ended before it could go live');
          continue;
        }
        const room = (await this.roomStore.find({ id: event.roomId }, tx, true))!;
        const owner = (await this.roomStore.ownerOf([room.id], tx)).get(room.id) ?? '';
        if (!room.isLive) {
          await this.roomStore.update(tx, room, { isLive: true });
          tx.stage(roomChanged('updated', room, { ownerUuid: owner, actorUuid: event.createdBy, changedFields: ['isLive'] }));
        }
        const recipients = event.communityId === null ? [] : await this.store.memberUuids(event.communityId, tx);
        for (const recipientUuid of recipients) tx.stage(eventLiveNotification({ event, room, recipientUuid }));
        rooms.push(room.uuid);
      }
      return { changed: rooms, claimed: due.length };
    });
    for (const roomUuid of new Set(changed)) await this.live.onChanged({ roomUuid });
    return claimed;
  }

  // ---- helpers ----

  private async requireCommunity(ref: CommunityRef, tx?: Tx, lock = false): Promise<Community> {
    const community = await this.store.findCommunity(ref, tx, lock);
    if (!community) throw notFound(MESSAGES.communityNotFound);
    return community;
  }

  private async requireRoom(key: string, tx: Tx): Promise<Room> {
    const ref: RoomRef = isUuid(key) ? { uuid: key.toLowerCase() } : { slug: key };
    const room = await this.roomStore.find(ref, tx);
    if (!room) throw notFound('Room not found');
    return room;
  }

  /** Rooms named in a request (at most 100), each existing; 404 'Room not found' for any unknown. */
  private async roomsNamed(refs: RoomRef[]): Promise<Room[]> {
    if (refs.length === 0 || refs.length > MAX_ROOMS_PER_CALL) throw badRequest(`Name 1 to ${MAX_ROOMS_PER_CALL} rooms`);
    const rooms: Room[] = [];
    for (const ref of refs) {
      const room = await this.roomStore.find(ref);
      if (!room) throw notFound('Room not found');
      if (!rooms.some((r) => r.id === room.id)) rooms.push(room);
    }
    return rooms;
  }

  /** An event's rights: a global role, or the room's owner, coOwners and moderators. */
  private async checkEventRights(actor: Actor, room: Room, tx: Tx): Promise<void> {
    const authority = authorityOf(await this.roomStore.activeRoles([room.id], actor.userUuid, tx), actor.role);
    if (!atLeast(authority, 'moderator')) throw forbidden(MESSAGES.manageEvent);
  }

  /** The community an event is filed under (its owner and moderators, or a global role, may); undefined for none. */
  private async communityForEvent(actor: Actor, key: string | undefined, tx: Tx): Promise<number | null> {
    if (!key) return null;
    const community = await this.requireCommunity(refOf(key), tx);
    const authority = communityAuthority(actor.role, await this.store.membership(community.id, actor.userUuid, tx));
    if (!managesCommunity(authority)) throw forbidden(MESSAGES.eventCommunity);
    return community.id;
  }

  private async seesRoom(actor: Actor, roomId: number): Promise<boolean> {
    if (seesEveryRoom(actor.role) || isGlobalRole(actor.role)) return true;
    const room = await this.roomStore.find({ id: roomId });
    if (!room) return false;
    if (room.type === 'PUBLIC' && !room.unlisted) return true;
    const roles = await this.roomStore.activeRoles([roomId], actor.userUuid);
    return roles.some((r) => RANKED_ROLES.includes(r.role));
  }

  private async viewsFor(actor: Actor, communities: Community[]): Promise<CommunityView[]> {
    const memberships = await this.store.memberships(
      communities.map((c) => c.id),
      actor.userUuid,
    );
    return communities.map((community) => ({ community, membership: memberships.get(community.id) ?? null }));
  }

  private async freeSlug(table: 'community' | 'event', name: string, taken: Set<string>): Promise<string> {
    const fallback = table;
    const inUse = await this.store.slugsLike(table, derivedSlug(name, 0, fallback));
    for (let attempt = 0; ; attempt += 1) {
      const slug = derivedSlug(name, attempt, fallback);
      if (!inUse.has(slug) && !taken.has(slug)) return slug;
    }
  }
}
