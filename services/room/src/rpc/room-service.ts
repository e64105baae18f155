import { RoomListing, type RoomServiceServer } from '@spinroom/contracts/room/v1/room_service';
import { RoomRefusal, RoomUserRole, UserRole, type MusicProvider } from '@spinroom/contracts/room/v1/room_vocabulary';
import { musicProviders, roomRefusals, roomUserRoles, userRoles } from '@spinroom/contracts/vocabulary';
import {
  badRequest,
  MAX_PAGE_SIZE as MAX_PAGE,
  pageOf as page,
  unauthorized,
  type CallContext,
  type createUnaryFactory,
} from '@spinroom/platform';
import type { RoomFilter } from '../domain/room-store.js';
import { ACCESS_CODES, ACCESS_MESSAGES } from '../domain/room-access.js';
import { requireGlobalRole } from '../domain/room-roles.js';
import { favoritesListing, type Actor, type Rooms } from '../domain/rooms.js';
import { toFavoriteMessage, toRoleMessage, toRoomMessage, toRoomRef, toRoomSettings, word } from './messages.js';

function actor(ctx: CallContext): Actor {
  const caller = ctx.caller;
  return { userUuid: caller.userUuid, role: caller.role };
}

/** Someone without a token (the landing page): a guest with no account, who sees inside only rooms without a door. */
const VISITOR: Actor = { userUuid: '', role: 'guest' };

/** The listings a visitor without a token may read. */
const OPEN_LISTINGS: ReadonlySet<RoomListing> = new Set([RoomListing.ROOM_LISTING_PUBLIC, RoomListing.ROOM_LISTING_PROMOTED]);

/** The listing a ListRooms request asks for, for this caller. */
function filterOf(
  req: { listing: RoomListing; providers: MusicProvider[]; discordGuildId: string; userUuid: string; includePrivate: boolean },
  who: Actor,
): RoomFilter {
  switch (req.listing) {
    case RoomListing.ROOM_LISTING_PUBLIC:
      return { kind: 'public' };
    case RoomListing.ROOM_LISTING_PROMOTED:
      return { kind: 'promoted', providers: req.providers.map((p) => word(musicProviders, p, 'providers')) };
    case RoomListing.ROOM_LISTING_MINE:
      return { kind: 'withRole', userUuid: who.userUuid, roles: ['owner', 'coOwner', 'moderator', 'dj'] };
    case RoomListing.ROOM_LISTING_OWNED:
      return { kind: 'withRole', userUuid: who.userUuid, roles: ['owner'] };
    case RoomListing.ROOM_LISTING_ALL:
      return { kind: 'all' };
    case RoomListing.ROOM_LISTING_DISCORD_GUILD:
      if (!req.discordGuildId) throw badRequest('guildId is required');
      return { kind: 'discordGuild', guildId: req.discordGuildId };
    case RoomListing.ROOM_LISTING_FAVORITES:
      return favoritesListing(who, req.userUuid || undefined, req.includePrivate);
    case RoomListing.ROOM_LISTING_RECENT:
      return { kind: 'recent', userUuid: who.userUuid };
    default:
      throw badRequest('listing is required');
  }
}

/** A requested role's word; '' when unknown, which the domain refuses with the list of roles. */
const roleName = (role: RoomUserRole) => roomUserRoles.nameOf(role) ?? '';

/** The live-room calls, handled in live-room.ts. */
export type LiveRoomCalls =
  | 'joinLiveRoom'
  | 'getLiveRoomJoinState'
  | 'performLiveAction'
  | 'leaveLiveRoom'
  | 'keepConnectionsAlive'
  | 'getRoomServiceInfo';

/** gRPC handlers of spinroom.room.v1.RoomService: the caller comes from the token; rules live in domain/. */
export function roomServiceHandlers(deps: {
  rooms: Rooms;
  unary: ReturnType<typeof createUnaryFactory>;
}): Omit<RoomServiceServer, LiveRoomCalls> {
  const { rooms, unary } = deps;
  return {
    createRoom: unary(async (req, ctx) => ({ room: toRoomMessage(await rooms.create(actor(ctx), toRoomSettings(req.settings))) })),
    getRoom: unary(async (req, ctx) => {
      if (req.admin) requireGlobalRole(ctx.caller.role);
      return { room: toRoomMessage(await rooms.get(toRoomRef(req.room), actor(ctx))) };
    }),
    updateRoom: unary(async (req, ctx) => ({
      room: toRoomMessage(await rooms.update(actor(ctx), toRoomRef(req.room), toRoomSettings(req.settings), { admin: req.admin })),
    })),
    deleteRoom: unary(async (req, ctx) => {
      await rooms.delete(actor(ctx), toRoomRef(req.room));
      return {};
    }),
    listRooms: unary.public(async (req, ctx) => {
      if (!ctx.caller && !OPEN_LISTINGS.has(req.listing)) throw unauthorized();
      const who = ctx.caller ? { userUuid: ctx.caller.userUuid, role: ctx.caller.role } : VISITOR;
      if (req.admin) requireGlobalRole(who.role);
      if (req.listing === RoomListing.ROOM_LISTING_NAMED) {
        const named = await rooms.named(req.rooms.slice(0, MAX_PAGE), who);
        return { rooms: named.map(toRoomMessage), total: named.length };
      }
      const { rooms: list, total } = await rooms.list(filterOf(req, who), page(req), who);
      return { rooms: list.map(toRoomMessage), total };
    }),
    countPrivateRooms: unary(async () => {
      return { count: await rooms.countPrivate() };
    }),
    matchRoomPassword: unary(async (req, ctx) => ({
      room: toRoomMessage(await rooms.matchPassword(actor(ctx), toRoomRef(req.room), req.password)),
    })),
    joinRoom: unary(async (req, ctx) => ({ room: toRoomMessage(await rooms.join(actor(ctx), toRoomRef(req.room), req.password)) })),
    addRecentRoom: unary(async (req, ctx) => {
      await rooms.addRecent(actor(ctx), toRoomRef(req.room));
      return {};
    }),
    addRoomFavorite: unary(async (req, ctx) => {
      const { favorite, room } = await rooms.addFavorite(actor(ctx), req.roomUuid);
      return { favorite: toFavoriteMessage(favorite, room) };
    }),
    listRoomFavorites: unary(async (req, ctx) => {
      const list = await rooms.favorites(actor(ctx), { userUuid: req.userUuid, limit: req.limit, roomUuidIn: req.roomUuidIn });
      return { favorites: list.map(({ favorite, room }) => toFavoriteMessage(favorite, room)) };
    }),
    removeRoomFavorite: unary(async (req, ctx) => {
      await rooms.removeFavorite(actor(ctx), req.id);
      return {};
    }),
    listRoomUsers: unary(async (req, ctx) => {
      const { userUuids, usersInRoom, roles } = await rooms.users(actor(ctx), toRoomRef(req.room));
      return { userUuids, usersInRoomUuids: usersInRoom, roomRoles: roles.map(toRoleMessage) };
    }),
    listNoDancefloorUsers: unary(async (req, ctx) => ({ userUuids: await rooms.noDancefloorUsers(actor(ctx), toRoomRef(req.room)) })),
    getRoomLiveState: unary(async (req, ctx) => {
      const { state, playedSeconds } = await rooms.liveState(actor(ctx), toRoomRef(req.room));
      return { stateJson: JSON.stringify(state), playedSeconds };
    }),
    listRoomRoles: unary(async (req) => {
      return { roles: (await rooms.roles(toRoomRef(req.room), req.userUuid || undefined)).map(toRoleMessage) };
    }),
    grantRoomRole: unary(async (req, ctx) => ({
      role: toRoleMessage(await rooms.grant(actor(ctx), toRoomRef(req.room), req.userUuid, roleName(req.role), req.expirationTime ?? null)),
    })),
    removeRoomRole: unary(async (req, ctx) => {
      await rooms.remove(actor(ctx), toRoomRef(req.room), req.userUuid, roleName(req.role));
      return {};
    }),
    changeRoomOwner: unary(async (req, ctx) => ({
      room: toRoomMessage(await rooms.changeOwner(actor(ctx), toRoomRef(req.room), req.userUuid)),
    })),
    kickUser: unary(async (req, ctx) => ({ role: toRoleMessage(await rooms.kick(actor(ctx), toRoomRef(req.room), req.userUuid)) })),
    forgetUser: unary(async (req, ctx) => {
      await rooms.forgetUser(actor(ctx), req.userUuid);
      return {};
    }),
    liftUserRestrictions: unary(async (req, ctx) => ({ lifted: await rooms.liftRestrictions(actor(ctx), req.userUuid) })),
    getRoomAccess: unary(async (req, ctx) => {
      const tokenRole = req.tokenRole === UserRole.USER_ROLE_UNSPECIFIED ? '' : word(userRoles, req.tokenRole, 'tokenRole');
      const access = await rooms.access(actor(ctx), req.roomUuid, req.userUuid, tokenRole);
      return {
        room: toRoomMessage(access.view),
        activeRoles: access.activeRoles.map(toRoleMessage),
        canDj: access.canDj,
        highestRole: roomUserRoles.parse(access.highestRole ?? '') ?? RoomUserRole.ROOM_USER_ROLE_UNSPECIFIED,
        banned: access.banned,
        chatDisabledUntil: access.chatDisabledUntil ?? undefined,
        canJoin: access.decision.mayEnter,
        chatDisabled: access.chatDisabled,
        mayRead: access.decision.mayRead,
        mayEnter: access.decision.mayEnter,
        refusal: access.decision.refusal ? roomRefusals.valueOf(access.decision.refusal) : RoomRefusal.ROOM_REFUSAL_UNSPECIFIED,
        refusalMessage: access.decision.refusal ? ACCESS_MESSAGES[access.decision.refusal] : '',
        refusalCode: access.decision.refusal ? ACCESS_CODES[access.decision.refusal] : '',
        kickedUntil: access.decision.kickedUntil ?? undefined,
      };
    }),
  };
}
