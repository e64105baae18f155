import type { MinimalCrateSongJson } from '@spinroom/contracts/songs';
import { badRequest, conflict, ERROR_CODES, forbidden, isUuid, MAX_PAGE_SIZE, notFound, type Limit, type Logger } from '@spinroom/platform';
import type { RoomFavorite, RoomFilter, RoomRef, RoomStore, Tx } from './room-store.js';
import { moderationAction, type ModerationAction } from '../events/moderation-actions.js';
import { roomChanged, roomDeleted } from '../events/room-events.js';
import type { LiveRoomPort } from './live-room-port.js';
import {
  checkSettings,
  normalizeSlug,
  ROOM_DEFAULTS,
  ROOM_NOT_FOUND,
  settingsBeyond,
  slugCandidate,
  slugify,
  type PinnedMessage,
  type Room,
  type RoomSettings,
} from './room.js';
import { hashRoomPassword, roomPasswordMatches } from './room-passwords.js';
import {
  accessRefused,
  decideAccess,
  doorOf,
  entryObstacle,
  hasDoor,
  seesEveryRoom,
  type AccessDecision,
  type AccessRefusal,
  type Admissions,
} from './room-access.js';
import {
  atLeast,
  authorityOf,
  canDj,
  checkChangeOwner,
  checkGrant,
  checkRemoval,
  grantActionType,
  hasRole,
  highestRole,
  isGlobalRole,
  isRoomRole,
  RANKED_ROLES,
  RESTRICTIVE_ROLES,
  ROOM_ROLES,
  type RoomRole,
  type RoomRoleName,
} from './room-roles.js';

/** Who is acting: the verified caller. */
export interface Actor {
  userUuid: string;
  /** The token role (user, guest, bot, admin, service, ...). */
  role: string;
}

/** Where the VERIFIED badge comes from (the user service's profiles). */
export interface BadgeSource {
  badgesOf(userUuid: string): Promise<string[]>;
}

/** A room as answered: its fields, unexpired roles, owner, the users present and the song playing. */
export interface RoomView {
  room: Room;
  roles: RoomRole[];
  ownerUuid: string;
  usersInRoom: string[];
  /** The live room's `nowPlaying.song`; null while none plays. */
  song: MinimalCrateSongJson | null;
  /** The live room's DJs in turn order (the first plays). */
  djUuids: string[];
}

export interface RoomAccess {
  view: RoomView;
  activeRoles: RoomRole[];
  canDj: boolean;
  highestRole: string | null;
  banned: boolean;
  chatDisabled: boolean;
  chatDisabledUntil: Date | null;
  /** The one rule's answer (room-access.ts). */
  decision: AccessDecision;
}

/** How long a kick keeps a user out. */
export const KICK_DURATION_MS = 5 * 60_000;
/** Recent rooms kept per user. */
export const RECENT_ROOMS_KEPT = 20;

export const MESSAGES = {
  guests: 'Guests cannot change rooms',
  guestFavorites: 'Guests cannot keep favourite rooms',
  slugTaken: 'A room with this slug already exists',
  notAllowed: 'You are not allowed to change this room',
  adminOnly: 'Only administrators can do this',
  deleteRoom: 'Only the owner can delete this room',
  passwordRequired: 'This room requires a password',
  wrongPassword: 'Wrong room password',
  favoriteNotFound: 'Room favorite not found',
  roleNotHeld: 'This user does not have this role in this room',
  alreadyOwner: 'This user already owns the room',
  access: 'Only the user, a service or an administrator can read this access',
} as const;

/** The code of a wrong room password (the web client asks for it again). */
export const ROOM_PASSWORD_WRONG = ERROR_CODES.roomPasswordWrong;

/**
 * The favourite-rooms listing a viewer may ask for: their own (or another
 * user's public ones); someone else's private favourites are theirs to see,
 * and administrators'. Guests keep no favourites.
 */
export function favoritesListing(viewer: Actor, userUuid: string | undefined, includePrivate: boolean): RoomFilter {
  if (viewer.role === 'guest') throw forbidden(MESSAGES.guestFavorites);
  const whose = userUuid ?? viewer.userUuid;
  return { kind: 'favorites', userUuid: whose, includePrivate: includePrivate && (whose === viewer.userUuid || isGlobalRole(viewer.role)) };
}

/** The room rules: creation, settings, listings, joining, favourites, recent rooms, roles and moderation. */
export class Rooms {
  constructor(
    private readonly store: RoomStore,
    private readonly live: LiveRoomPort,
    private readonly badges: BadgeSource,
    private readonly admissions: Admissions,
    private readonly logger: Logger,
    /** ROOM_PASSWORD_FAILURES (room-passwords.ts), with its configured allowance. */
    private readonly passwordFailures: Limit,
    /** The users who blocked this one (the social service): the directories leave out the rooms they own. */
    private readonly blockersOf: (userUuid: string) => Promise<string[]> = async () => [],
  ) {}

  async create(actor: Actor, settings: RoomSettings): Promise<RoomView> {
    refuseGuests(actor);
    if (settings.name === undefined) throw badRequest('name is required');
    checkSettings(settings);
    const beyond = settingsBeyond(isGlobalRole(actor.role) ? 'global' : 'owner', settings);
    if (beyond.length > 0) throw forbidden(`You are not allowed to set ${beyond.join(', ')}`);
    const fields = await this.fieldsOf(settings);
    const name = settings.name.trim();
    const explicitSlug = settings.slug !== undefined ? normalizeSlug(settings.slug) : undefined;
    const candidates = explicitSlug ? [explicitSlug] : await this.freeSlugs(slugify(name));

    for (const slug of candidates) {
      const view = await this.store.write(async (tx) => {
        const room = await this.store.insert(tx, {
          ...ROOM_DEFAULTS,
          passwordHash: null,
          guestPasswordHash: null,
          posterUrl: null,
          externalUrl: null,
          discordGuildId: null,
          ...fields,
          name,
          slug,
        });
        if (!room) return null;
        const owner = await this.store.upsertRole(tx, room.id, actor.userUuid, 'owner', null);
        tx.stage(roomChanged('created', room, { ownerUuid: actor.userUuid, actorUuid: actor.userUuid }));
        return { room, roles: [owner], ownerUuid: actor.userUuid, usersInRoom: [], song: null, djUuids: [] };
      });
      if (view) return view;
    }
    throw conflict(MESSAGES.slugTaken);
  }

  /** A room with its roles and present users (those only for a viewer who may see inside); 404 'Room not found'. */
  async get(ref: RoomRef, viewer?: Actor): Promise<RoomView> {
    return (await this.views([await this.require(ref)], viewer))[0]!;
  }

  async update(actor: Actor, ref: RoomRef, settings: RoomSettings, options: { admin?: boolean } = {}): Promise<RoomView> {
    refuseGuests(actor);
    checkSettings(settings);
    const slug = settings.slug !== undefined ? normalizeSlug(settings.slug) : undefined;
    const changes = await this.fieldsOf(settings);
    if (slug) changes.slug = slug;
    if (settings.name !== undefined) changes.name = settings.name.trim();
    const changedFields = Object.keys(settings).filter((k) => settings[k as keyof RoomSettings] !== undefined);

    const room = await this.store.write(async (tx) => {
      const room = await this.requireIn(tx, ref);
      const authority = authorityOf(await this.store.activeRoles([room.id], actor.userUuid, tx), actor.role);
      if (options.admin && authority !== 'global') throw forbidden(MESSAGES.adminOnly);
      if (!atLeast(authority, 'moderator')) throw forbidden(MESSAGES.notAllowed);
      const beyond = settingsBeyond(authority, settings);
      if (beyond.length > 0) throw forbidden(`You are not allowed to change ${beyond.join(', ')} in this room`);
      if (changedFields.length === 0) return room;
      if (!(await this.store.update(tx, room, changes))) throw conflict(MESSAGES.slugTaken);
      const owner = (await this.store.ownerOf([room.id], tx)).get(room.id) ?? '';
      tx.stage(roomChanged('updated', room, { ownerUuid: owner, actorUuid: actor.userUuid, changedFields }));
      return room;
    });
    await this.liveFollows({ roomUuid: room.uuid });
    return (await this.views([room]))[0]!;
  }

  async delete(actor: Actor, ref: RoomRef): Promise<void> {
    refuseGuests(actor);
    const deleted = await this.store.write(async (tx) => {
      const room = await this.requireIn(tx, ref);
      const authority = authorityOf(await this.store.activeRoles([room.id], actor.userUuid, tx), actor.role);
      if (!atLeast(authority, 'owner')) throw forbidden(MESSAGES.deleteRoom);
      await this.store.delete(tx, room);
      tx.stage(roomDeleted(room, actor.userUuid));
      return room;
    });
    await this.liveFollows({ roomUuid: deleted.uuid, deleted: true });
  }

  /**
   * The directories (every room, a Discord guild's) list PUBLIC, listed rooms,
   * and the PRIVATE or unlisted ones where the viewer holds a room role; all
   * rooms to services and global roles (room-access.ts).
   */
  async list(filter: RoomFilter, page: { limit: number; offset: number }, viewer: Actor): Promise<{ rooms: RoomView[]; total: number }> {
    const visibleTo = seesEveryRoom(viewer.role)
      ? undefined
      : { userUuid: isUuid(viewer.userUuid) ? viewer.userUuid : NO_USER, roles: RANKED_ROLES };
    const scoped =
      filter.kind === 'all' || filter.kind === 'discordGuild' || filter.kind === 'community' ? { ...filter, visibleTo } : filter;
    const { rooms, total } = await this.store.list(scoped, page, await this.hiddenOwnersFor(viewer));
    return { rooms: await this.views(rooms, viewer), total };
  }

  /**
   * Whose rooms a viewer's directories leave out: those of users who blocked them (issue 17: a blocked
   * user does not see the blocker in room lists). Global roles see every room; without an answer from
   * the social service nothing is left out (a directory must not fail for it).
   */
  private async hiddenOwnersFor(viewer: Actor): Promise<string[]> {
    if (seesEveryRoom(viewer.role) || !isUuid(viewer.userUuid)) return [];
    try {
      return (await this.blockersOf(viewer.userUuid)).filter(isUuid).map((uuid) => uuid.toLowerCase());
    } catch (error) {
      this.logger.warn({ err: error }, 'blocks not read; the directory leaves nobody out');
      return [];
    }
  }

  /** The rooms named by slug or uuid, in that order. */
  async named(refs: string[], viewer: Actor): Promise<RoomView[]> {
    return this.views(await this.store.named(refs), viewer);
  }

  countPrivate(): Promise<number> {
    return this.store.countPrivate();
  }

  /** The room when `password` matches its password (a room without one always matches), which admits the caller; 403 otherwise. */
  async matchPassword(actor: Actor, ref: RoomRef, password: string): Promise<RoomView> {
    const room = await this.require(ref);
    if (room.passwordHash) await this.checkPassword(actor, room, [room.passwordHash], password);
    if (hasDoor(room)) await this.admissions.admit(room.uuid, actor.userUuid, doorOf(room));
    return (await this.views([room], actor))[0]!;
  }

  /**
   * Entering a room (the feed's join and POST /rooms/{slug}/join), by the one
   * rule (room-access.ts): banned users never, kicked ones not until the kick
   * ends; behind a password the password (or, for guests, the guest password)
   * unless already admitted, a room role holder or a global role. Entering a
   * room with a door admits the user. Records the room among the recent rooms.
   * `presence: false` (the live engine's join) leaves who is there and what
   * plays out of the answer: the engine has them, and reading them would cost
   * as much as the room is big.
   */
  async join(actor: Actor, ref: RoomRef, password: string | undefined, options: { presence?: boolean } = {}): Promise<RoomView> {
    const room = await this.require(ref);
    const roles = await this.store.activeRoles([room.id], actor.userUuid);
    const [decision] = await this.decisions([room], roles, actor);
    const obstacle = entryObstacle(decision!);
    if (obstacle === 'banned' || obstacle === 'kicked') throw accessRefused(obstacle);
    if (obstacle === 'password') {
      if (!password) throw accessRefused('passwordRequired');
      const hashes = [room.passwordHash!, ...(actor.role === 'guest' && room.guestPasswordHash ? [room.guestPasswordHash] : [])];
      await this.checkPassword(actor, room, hashes, password);
    }
    if (hasDoor(room)) await this.admissions.admit(room.uuid, actor.userUuid, doorOf(room));
    await this.store.recordRecent(actor.userUuid, room.id, RECENT_ROOMS_KEPT);
    return (await this.views([room], undefined, options))[0]!;
  }

  /** 403 when `password` matches none of `hashes`; each wrong one counts against the user in this room, and past the limit a 429 refuses every try. */
  private async checkPassword(actor: Actor, room: Room, hashes: string[], password: string): Promise<void> {
    await this.passwordFailures.attempt(`${actor.userUuid}:${room.uuid}`, async () => {
      const matches = await Promise.all(hashes.map((h) => roomPasswordMatches(h, password)));
      if (!matches.some(Boolean)) throw forbidden(MESSAGES.wrongPassword, ROOM_PASSWORD_WRONG);
    });
  }

  async addRecent(actor: Actor, ref: RoomRef): Promise<void> {
    const room = await this.require(ref);
    await this.store.recordRecent(actor.userUuid, room.id, RECENT_ROOMS_KEPT);
  }

  async addFavorite(actor: Actor, roomUuid: string): Promise<{ favorite: RoomFavorite; room: Room }> {
    if (actor.role === 'guest') throw forbidden(MESSAGES.guestFavorites);
    const room = await this.require({ uuid: roomUuid });
    return { favorite: await this.store.addFavorite(actor.userUuid, room.id), room };
  }

  /** A user's favourites (the caller's by default), newest first, optionally only for some rooms; a limit of 0 means 50. */
  async favorites(
    actor: Actor,
    options: { userUuid?: string; limit: number; roomUuidIn?: string[] },
  ): Promise<Array<{ favorite: RoomFavorite; room: Room }>> {
    if (actor.role === 'guest') throw forbidden(MESSAGES.guestFavorites);
    const limit = options.limit === 0 ? 50 : options.limit;
    if (limit < 1 || limit > MAX_PAGE_SIZE) throw badRequest(`limit must be 1 to ${MAX_PAGE_SIZE}`);
    let roomIds: number[] | undefined;
    if (options.roomUuidIn && options.roomUuidIn.length > 0) {
      roomIds = (await this.store.named(options.roomUuidIn.filter(isUuid))).map((r) => r.id);
      if (roomIds.length === 0) return [];
    }
    const favorites = await this.store.favorites(options.userUuid || actor.userUuid, { limit, roomIds });
    const rooms = new Map((await this.store.byInternalIds(favorites.map((f) => f.roomId))).map((r) => [r.id, r]));
    return favorites.map((favorite) => ({ favorite, room: rooms.get(favorite.roomId)! }));
  }

  async removeFavorite(actor: Actor, id: number): Promise<void> {
    const favorite = await this.store.favoriteById(id);
    if (!favorite || (favorite.userUuid !== actor.userUuid && !isGlobalRole(actor.role))) throw notFound(MESSAGES.favoriteNotFound);
    await this.store.removeFavorite(id);
  }

  /** Role holders and the users present (from the live engine), for a viewer who may see inside. */
  async users(viewer: Actor, ref: RoomRef): Promise<{ userUuids: string[]; usersInRoom: string[]; roles: RoomRole[] }> {
    const view = (await this.views([await this.requireRead(viewer, ref)]))[0]!;
    return {
      userUuids: [...new Set([...view.usersInRoom, ...view.roles.map((r) => r.userUuid)])],
      usersInRoom: view.usersInRoom,
      roles: view.roles,
    };
  }

  async noDancefloorUsers(viewer: Actor, ref: RoomRef): Promise<string[]> {
    return this.live.noDancefloorUserUuids((await this.requireRead(viewer, ref)).uuid);
  }

  /** The live state and played time, for a viewer who may see inside. */
  async liveState(viewer: Actor, ref: RoomRef): Promise<{ state: Record<string, unknown>; playedSeconds: number }> {
    const room = await this.requireRead(viewer, ref);
    const [state, playedSeconds] = await Promise.all([this.live.roomState(room.uuid), this.live.playedSeconds(room.uuid)]);
    return { state, playedSeconds };
  }

  async roles(ref: RoomRef, userUuid?: string): Promise<RoomRole[]> {
    const room = await this.require(ref);
    return this.store.activeRoles([room.id], userUuid);
  }

  /** Grants a role (a moderation action); the hierarchy is in room-roles.ts. */
  async grant(actor: Actor, ref: RoomRef, userUuid: string, role: string, expirationTime: Date | null): Promise<RoomRole> {
    refuseGuests(actor);
    const name = checkRoleRequest(userUuid, role);
    if (expirationTime && expirationTime.getTime() <= Date.now()) throw badRequest('expirationTime must be in the future');
    const { granted, room } = await this.store.write(async (tx) => {
      const room = await this.requireIn(tx, ref);
      const { actorAuthority, targetRoles, targetAuthority } = await this.sides(tx, room, actor, userUuid);
      checkGrant(actorAuthority, actor.userUuid, name, targetAuthority, userUuid);
      const granted = await this.store.upsertRole(tx, room.id, userUuid, name, expirationTime);
      tx.stage(
        this.action(actor, room, userUuid, {
          actionType: grantActionType(name, expirationTime),
          previousRole: highestRole(targetRoles),
          role: name,
          expirationTime,
        }),
      );
      return { granted, room };
    });
    // A ban takes effect at once: out of the live room, as a kick.
    if (name === 'banned')
      await this.live
        .onKicked({
          roomUuid: room.uuid,
          userUuid,
          actorUuid: actor.userUuid,
          until: expirationTime ?? new Date(8.64e15),
          reason: 'banned',
        })
        .catch((error: unknown) => this.logger.warn({ err: error }, 'the live engine did not take the ban'));
    else await this.liveFollows({ roomUuid: room.uuid, userUuids: [userUuid] });
    return granted;
  }

  async remove(actor: Actor, ref: RoomRef, userUuid: string, role: string): Promise<void> {
    refuseGuests(actor);
    const name = checkRoleRequest(userUuid, role);
    const room = await this.store.write(async (tx) => {
      const room = await this.requireIn(tx, ref);
      const { actorAuthority, targetAuthority } = await this.sides(tx, room, actor, userUuid);
      checkRemoval(actorAuthority, actor.userUuid, name, targetAuthority, userUuid);
      if (!(await this.store.deleteRole(tx, room.id, userUuid, name))) throw notFound(MESSAGES.roleNotHeld);
      tx.stage(this.action(actor, room, userUuid, { actionType: 'removeRole', previousRole: name, role: null, expirationTime: null }));
      return room;
    });
    await this.liveFollows({ roomUuid: room.uuid, userUuids: [userUuid] });
  }

  /** The new owner takes `owner` (and loses any restriction); the previous owner stays as coOwner. */
  async changeOwner(actor: Actor, ref: RoomRef, userUuid: string): Promise<RoomView> {
    refuseGuests(actor);
    checkRoleRequest(userUuid, 'owner');
    const room = await this.store.write(async (tx) => {
      const room = await this.requireIn(tx, ref);
      const { actorAuthority, targetRoles } = await this.sides(tx, room, actor, userUuid);
      checkChangeOwner(actorAuthority);
      if (hasRole(targetRoles, 'owner')) throw badRequest(MESSAGES.alreadyOwner);
      const previousOwner = (await this.store.ownerOf([room.id], tx)).get(room.id);
      if (previousOwner) {
        await this.store.deleteRole(tx, room.id, previousOwner, 'owner');
        await this.store.upsertRole(tx, room.id, previousOwner, 'coOwner', null);
        tx.stage(
          this.action(actor, room, previousOwner, {
            actionType: 'grantRole',
            previousRole: 'owner',
            role: 'coOwner',
            expirationTime: null,
          }),
        );
      }
      for (const restriction of RESTRICTIVE_ROLES) await this.store.deleteRole(tx, room.id, userUuid, restriction);
      await this.store.upsertRole(tx, room.id, userUuid, 'owner', null);
      tx.stage(
        this.action(actor, room, userUuid, {
          actionType: 'grantRole',
          previousRole: highestRole(targetRoles),
          role: 'owner',
          expirationTime: null,
        }),
      );
      return { room, previousOwner };
    });
    await this.liveFollows({ roomUuid: room.room.uuid, userUuids: [userUuid, ...(room.previousOwner ? [room.previousOwner] : [])] });
    return (await this.views([room.room]))[0]!;
  }

  /** The live state follows a committed change; its failure is logged (the next change or join catches up). */
  private async liveFollows(change: { roomUuid: string; userUuids?: string[]; deleted?: boolean }): Promise<void> {
    await this.live
      .onChanged(change)
      .catch((error: unknown) => this.logger.warn({ err: error, roomUuid: change.roomUuid }, 'the live room did not follow a change'));
  }

  /** Records a `kicked` role for KICK_DURATION_MS (a kickUser action), then tells the live engine. */
  async kick(actor: Actor, ref: RoomRef, userUuid: string): Promise<RoomRole> {
    const until = new Date(Date.now() + KICK_DURATION_MS);
    const kicked = await this.grant(actor, ref, userUuid, 'kicked', until);
    const room = await this.require(ref);
    await this.live.onKicked({ roomUuid: room.uuid, userUuid, actorUuid: actor.userUuid, until }).catch((error: unknown) => {
      this.logger.warn({ err: error, roomUuid: room.uuid }, 'the live engine did not take the kick');
    });
    return kicked;
  }

  /** A user's room data goes (account removal): roles except ownerships, favourites, recent rooms. The user or a global role. */
  async forgetUser(actor: Actor, userUuid: string): Promise<void> {
    if (actor.userUuid !== userUuid && !isGlobalRole(actor.role)) throw forbidden(MESSAGES.adminOnly);
    if (!isUuid(userUuid)) throw badRequest('userUuid must be a UUID');
    await this.store.forgetUser(
      userUuid,
      ROOM_ROLES.filter((r) => r !== 'owner'),
    );
  }

  /** Lifts a user's restrictions in every room (a globalUnBan action). Global roles only. */
  async liftRestrictions(actor: Actor, userUuid: string): Promise<number> {
    if (!isGlobalRole(actor.role)) throw forbidden(MESSAGES.adminOnly);
    if (!isUuid(userUuid)) throw badRequest('userUuid must be a UUID');
    return this.store.write(async (tx) => {
      const lifted = await this.store.deleteRolesOfUser(tx, userUuid, [...RESTRICTIVE_ROLES]);
      if (lifted.length > 0) {
        tx.stage(
          moderationAction({
            actionType: 'globalUnBan',
            previousRole: null,
            role: null,
            roomUuid: null,
            actorUuid: actor.userUuid,
            actorTokenRole: actor.role,
            targetUuid: userUuid,
            expirationTime: null,
          }),
        );
      }
      return lifted.length;
    });
  }

  /**
   * What `userUuid` (with token role `tokenRole`) may do in a room: for the live
   * engine and the chat service. The user themselves, a service or a global role may ask.
   */
  async access(caller: Actor, roomUuid: string, userUuid: string, tokenRole: string): Promise<RoomAccess> {
    const self = caller.userUuid === userUuid;
    if (!self && caller.role !== 'service' && !isGlobalRole(caller.role)) throw forbidden(MESSAGES.access);
    if (!isUuid(userUuid)) throw badRequest('userUuid must be a UUID');
    return this.standing(roomUuid, { userUuid, role: self ? caller.role : tokenRole || 'user' });
  }

  /**
   * The room and a user's standing in it, for this service's own live engine:
   * no caller to check, as the engine is part of the service. Without a user,
   * the room as it stands for nobody in particular (no roles, no entry).
   */
  async standing(roomUuid: string, user: Actor = { userUuid: NO_USER, role: 'user' }): Promise<RoomAccess> {
    const { userUuid, role } = user;
    const view = await this.get({ uuid: roomUuid });
    const activeRoles = view.roles.filter((r) => r.userUuid === userUuid);
    const [badges, [decision]] = await Promise.all([
      view.room.djType === 'VERIFIED_ONLY' ? this.badges.badgesOf(userUuid) : Promise.resolve([]),
      this.decisions([view.room], activeRoles, { userUuid, role }),
    ]);
    const chat = activeRoles.find((r) => r.role === 'chatDisabled');
    return {
      view,
      activeRoles,
      canDj: canDj(view.room, activeRoles, role, badges),
      highestRole: highestRole(activeRoles),
      banned: hasRole(activeRoles, 'banned'),
      chatDisabled: chat !== undefined,
      chatDisabledUntil: chat?.expirationTime ?? null,
      decision: decision!,
    };
  }

  /** One user's access decisions in some rooms (the rule: room-access.ts); `roles` holds at least that user's active roles there. */
  private async decisions(rooms: Room[], roles: RoomRole[], who: Actor): Promise<AccessDecision[]> {
    const doors = rooms.filter(hasDoor);
    const passed =
      doors.length > 0 && isUuid(who.userUuid)
        ? await this.admissions.passed(doors.map((r) => ({ roomUuid: r.uuid, userUuid: who.userUuid })))
        : [];
    const passedIn = new Map(doors.map((r, i) => [r.id, passed[i] ?? null]));
    return rooms.map((room) =>
      decideAccess({
        room,
        roles: roles.filter((r) => r.roomId === room.id && r.userUuid === who.userUuid),
        tokenRole: who.role,
        passedDoor: passedIn.get(room.id) ?? null,
      }),
    );
  }

  /** The room, when the viewer may see inside it (services always may); 403 with the reason otherwise. */
  private async requireRead(viewer: Actor, ref: RoomRef): Promise<Room> {
    const room = await this.require(ref);
    if (viewer.role === 'service') return room;
    const [decision] = await this.decisions([room], await this.store.activeRoles([room.id], viewer.userUuid), viewer);
    if (!decision!.mayRead) throw accessRefused(decision!.refusal as AccessRefusal);
    return room;
  }

  private action(
    actor: Actor,
    room: Room,
    targetUuid: string,
    action: Pick<ModerationAction, 'actionType' | 'previousRole' | 'role' | 'expirationTime'>,
  ) {
    return moderationAction({ ...action, roomUuid: room.uuid, actorUuid: actor.userUuid, actorTokenRole: actor.role, targetUuid });
  }

  private async sides(tx: Tx, room: Room, actor: Actor, userUuid: string) {
    const roles = await this.store.activeRoles([room.id], undefined, tx);
    const targetRoles = roles.filter((r) => r.userUuid === userUuid);
    return {
      actorAuthority: authorityOf(
        roles.filter((r) => r.userUuid === actor.userUuid),
        actor.role,
      ),
      targetRoles,
      targetAuthority: authorityOf(targetRoles),
    };
  }

  private async require(ref: RoomRef): Promise<Room> {
    const room = await this.store.find(ref);
    if (!room) throw notFound(ROOM_NOT_FOUND, ERROR_CODES.roomNotFound);
    return room;
  }

  /** The room, locked for the rest of the transaction (role and setting changes serialize per room). */
  private async requireIn(tx: Tx, ref: RoomRef): Promise<Room> {
    const room = await this.store.find(ref, tx, true);
    if (!room) throw notFound(ROOM_NOT_FOUND, ERROR_CODES.roomNotFound);
    return room;
  }

  /** Rooms as answered; with a viewer, who is there and what plays only in the rooms the viewer may see inside. */
  private async views(rooms: Room[], viewer?: Actor, options: { presence?: boolean } = {}): Promise<RoomView[]> {
    const ids = rooms.map((r) => r.id);
    const nobody = { userUuids: [], song: null, djUuids: [] };
    const [roles, owners, present] = await Promise.all([
      this.store.activeRoles(ids),
      this.store.ownerOf(ids),
      options.presence === false ? rooms.map(() => nobody) : Promise.all(rooms.map((r) => this.live.presence(r.uuid))),
    ]);
    const readable =
      viewer && viewer.role !== 'service' ? (await this.decisions(rooms, roles, viewer)).map((d) => d.mayRead) : rooms.map(() => true);
    return rooms.map((room, i) => ({
      room,
      roles: roles.filter((r) => r.roomId === room.id),
      ownerUuid: owners.get(room.id) ?? '',
      usersInRoom: readable[i] ? present[i]!.userUuids : [],
      song: readable[i] ? present[i]!.song : null,
      djUuids: readable[i] ? present[i]!.djUuids : [],
    }));
  }

  /** Stored fields for settings: passwords hashed, empty strings cleared. */
  private async fieldsOf(settings: RoomSettings): Promise<Partial<Room>> {
    const { password, guestPassword, name: _name, slug: _slug, pinnedMessages, ...rest } = settings;
    const fields: Partial<Room> = {};
    for (const [key, value] of Object.entries(rest)) {
      if (value !== undefined) (fields as Record<string, unknown>)[key] = value === '' && CLEARABLE.has(key) ? null : value;
    }
    if (password !== undefined) fields.passwordHash = password ? await hashRoomPassword(password) : null;
    if (guestPassword !== undefined) fields.guestPasswordHash = guestPassword ? await hashRoomPassword(guestPassword) : null;
    if (pinnedMessages !== undefined) fields.pinnedMessages = pinnedMessages as PinnedMessage[];
    return fields;
  }

  /** The first free slugs for a name: `base`, `base-2`, ... (a few, in case of a race). */
  private async freeSlugs(base: string): Promise<string[]> {
    const taken = await this.store.slugsLike(slugCandidate(base, 0));
    const free: string[] = [];
    for (let attempt = 0; free.length < 3; attempt += 1) {
      const slug = slugCandidate(base, attempt);
      if (!taken.has(slug)) free.push(slug);
    }
    return free;
  }
}

/** Holds no role anywhere: the directories' viewer when the caller has no user uuid. */
const NO_USER = '00000000-0000-0000-0000-000000000000';

/** Nullable fields an empty string clears. */
const CLEARABLE = new Set(['posterUrl', 'externalUrl', 'discordGuildId']);

function refuseGuests(actor: Actor): void {
  if (actor.role === 'guest') throw forbidden(MESSAGES.guests);
}

function checkRoleRequest(userUuid: string, role: string): RoomRoleName {
  if (!isUuid(userUuid)) throw badRequest('userUuid must be a UUID');
  if (!isRoomRole(role)) throw badRequest(`role must be one of ${ROOM_ROLES.join(', ')}`);
  return role;
}
