import { RoomListing, RoomRef } from '@spinroom/contracts/room/v1/room_service';
import { MUSIC_PROVIDERS, musicProviders } from '@spinroom/contracts/vocabulary';
import { badRequest } from '@spinroom/platform/core';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { RoomClient } from './clients.js';
import {
  CreateRoomSchema,
  EmptySchema,
  PageQuerySchema,
  PromoteRoomSchema,
  RoomListSchema,
  RoomPageSchema,
  RoomRoleSchema,
  GuildIdSchema,
  HttpUrlSchema,
  RoomSchema,
  RoomSettingsFields,
  SlugParams,
  UpdateRoomSchema,
  UserUuidSchema,
  type RoomSettingsBody,
} from './schemas.js';
import { roleJson, roomJson, roomRef, settingsMessage } from './views.js';
import { TakeSkipQuery } from '../../http/paging.js';

/** A room named in a list: its slug (any case) or its uuid. */
const RoomKey = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9-]+$/, 'must be a room slug or uuid');

function unknownProvider(): never {
  throw badRequest(`providers must be among ${MUSIC_PROVIDERS.join(', ')}`);
}

export const BASE = '/api/room-service';

/** /rooms: rooms, their settings, lists, joining, recent rooms and favourites. Fixed paths come before /rooms/{slug}. */
export function roomRoutes(deps: RouteDeps, rooms: RoomClient): void {
  const tags = ['rooms'];
  const list = async (listing: RoomListing, extra: Partial<Parameters<RoomClient['listRooms']>[0]> = {}) => {
    const { rooms: found, total } = await rooms.listRooms({
      listing,
      limit: 100,
      offset: 0,
      providers: [],
      discordGuildId: '',
      rooms: [],
      userUuid: '',
      includePrivate: false,
      ...extra,
    });
    return { rooms: found.map(roomJson), total };
  };
  const update = async (slug: string, body: RoomSettingsBody, admin = false) =>
    roomJson((await rooms.updateRoom({ room: roomRef(slug), settings: settingsMessage(body), admin })).room);

  route(deps, {
    method: 'post',
    path: `${BASE}/rooms/infrastructure`,
    summary:
      'Create a room; the caller becomes its owner. A slug derived from the name gets -2, -3, ... on a clash; a slug given that is taken is 409',
    tags,
    status: 201,
    body: CreateRoomSchema,
    response: RoomSchema,
    errors: [403, 409],
    handler: async ({ body }) => roomJson((await rooms.createRoom({ settings: settingsMessage(body) })).room),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/public`,
    summary:
      'Public rooms that are not unlisted, newest first; open to visitors without a token (the landing page), who see inside the rooms without a door',
    tags,
    auth: 'optional',
    query: PageQuerySchema,
    response: RoomPageSchema,
    handler: async ({ query }) => list(RoomListing.ROOM_LISTING_PUBLIC, query),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/promoted-rooms`,
    summary: 'Promoted rooms, optionally only those promoted for some music providers; open to visitors without a token',
    tags,
    auth: 'optional',
    query: z.object({ providers: z.union([z.string(), z.array(z.string())]).optional() }),
    response: RoomListSchema,
    handler: async ({ query }) => {
      const providers = [query.providers ?? []]
        .flat()
        .flatMap((p) => p.split(','))
        .filter(Boolean)
        .map((p) => musicProviders.parse(p) ?? unknownProvider());
      return (await list(RoomListing.ROOM_LISTING_PROMOTED, { providers })).rooms;
    },
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/private-count`,
    summary: 'How many private rooms exist',
    tags,
    response: z.object({ count: z.number().int() }),
    handler: async () => rooms.countPrivateRooms({}),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/multiple/list`,
    summary: 'Rooms by slug or uuid (?room=a&room=b), in that order; unknown ones are left out',
    tags,
    // A slug or a uuid, both plain letters, digits and dashes: 100 of them keep the
    // link well under Node's 16 KiB header limit (a 431 otherwise).
    query: z.object({ room: z.union([RoomKey, z.array(RoomKey).max(100)]).optional() }),
    response: RoomListSchema,
    handler: async ({ query }) => (await list(RoomListing.ROOM_LISTING_NAMED, { rooms: [query.room ?? []].flat() })).rooms,
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/mine/list`,
    summary: 'Rooms where the caller is owner, coOwner, moderator or dj',
    tags,
    response: RoomListSchema,
    handler: async () => (await list(RoomListing.ROOM_LISTING_MINE)).rooms,
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/owned-rooms/list`,
    summary: 'Rooms the caller owns',
    tags,
    response: RoomListSchema,
    handler: async () => (await list(RoomListing.ROOM_LISTING_OWNED)).rooms,
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/favorites`,
    summary:
      "A user's favourite rooms (the caller's by default); private ones only for the user themselves (or an admin) with includePrivate=true",
    tags,
    errors: [403],
    query: z.object({ userUuid: UserUuidSchema.optional(), includePrivate: z.enum(['true', 'false']).optional() }),
    response: RoomListSchema,
    handler: async ({ query }) =>
      (await list(RoomListing.ROOM_LISTING_FAVORITES, { userUuid: query.userUuid ?? '', includePrivate: query.includePrivate === 'true' }))
        .rooms,
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/recent`,
    summary: "The caller's recent rooms, most recent first (the last 20)",
    tags,
    response: RoomListSchema,
    handler: async () => (await list(RoomListing.ROOM_LISTING_RECENT)).rooms,
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/rockset/recently-visited-rooms`,
    summary: "The caller's recently visited rooms (the original's analytics-backed list; here the same as /rooms/recent)",
    tags,
    response: RoomListSchema,
    handler: async () => (await list(RoomListing.ROOM_LISTING_RECENT)).rooms,
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/rooms/recent`,
    summary: "Adds a room to the caller's recent rooms",
    tags,
    status: 201,
    errors: [404],
    body: z.union([z.object({ slug: z.string().min(1).max(64) }), z.object({ roomUuid: z.uuid() })]),
    response: EmptySchema,
    handler: async ({ body }) => {
      await rooms.addRecentRoom({ room: roomRef('slug' in body ? body.slug : body.roomUuid) });
      return {};
    },
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/rooms/list`,
    summary: 'Password matching: the room when the password matches (a room without one always does), 403 otherwise',
    tags,
    errors: [403, 404],
    body: z
      .object({ slug: z.string().min(1).max(64).optional(), uuid: z.uuid().optional(), password: z.string().max(128) })
      .refine((b) => b.slug || b.uuid, 'slug or uuid is required'),
    response: RoomSchema,
    handler: async ({ body }) =>
      roomJson((await rooms.matchRoomPassword({ room: roomRef(body.uuid ?? body.slug!), password: body.password })).room),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/service/list`,
    summary:
      'Every room, oldest first (service and SEO): to services and global roles; to others the PUBLIC listed rooms and those they hold a room role in',
    tags,
    query: TakeSkipQuery,
    response: RoomPageSchema,
    handler: async ({ query }) => list(RoomListing.ROOM_LISTING_ALL, { limit: query.take, offset: query.skip }),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/service/room/{slug}`,
    summary: 'A room (service and SEO)',
    tags,
    params: SlugParams,
    errors: [404],
    response: RoomSchema,
    handler: async ({ params }) => roomJson((await rooms.getRoom({ room: roomRef(params.slug) })).room),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/uuid/{uuid}`,
    summary: 'A room by uuid',
    tags,
    params: z.object({ uuid: z.uuid() }),
    errors: [404],
    response: RoomSchema,
    handler: async ({ params }) => roomJson((await rooms.getRoom({ room: RoomRef.fromPartial({ uuid: params.uuid }) })).room),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/discord/list/{guildId}`,
    summary: "A Discord guild's rooms (PRIVATE and unlisted ones only to their role holders, services and global roles)",
    tags,
    params: z.object({ guildId: GuildIdSchema }),
    response: RoomListSchema,
    handler: async ({ params }) => (await list(RoomListing.ROOM_LISTING_DISCORD_GUILD, { discordGuildId: params.guildId })).rooms,
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/rooms/discord/{guildId}`,
    summary: 'Links a room (owner or coOwner) to a Discord guild; answers the room',
    tags,
    errors: [403, 404],
    params: z.object({ guildId: GuildIdSchema }),
    body: z.object({ slug: z.string().min(1).max(64) }),
    response: RoomSchema,
    handler: async ({ params, body }) => update(body.slug, { discordGuildId: params.guildId }),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/users/service/{slug}`,
    summary: 'Users of a room: role holders and those present (service)',
    tags,
    params: SlugParams,
    errors: [403, 404],
    response: RoomUsersSchema,
    handler: async ({ params }) => roomUsers(rooms, params.slug),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/users/{slug}`,
    summary: 'Users of a room: role holders and those present in the live room; 403 unless the caller may see inside (room access)',
    tags,
    params: SlugParams,
    errors: [403, 404],
    response: RoomUsersSchema,
    handler: async ({ params }) => roomUsers(rooms, params.slug),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/room-state/{slug}`,
    summary: "The live room's state ({} while it is not live); 403 unless the caller may see inside (room access)",
    tags,
    params: SlugParams,
    errors: [403, 404],
    response: z.record(z.string(), z.unknown()),
    handler: async ({ params }) =>
      JSON.parse((await rooms.getRoomLiveState({ room: roomRef(params.slug) })).stateJson) as Record<string, unknown>,
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/room-played-time/{slug}`,
    summary: 'Seconds of music played in the room',
    tags,
    params: SlugParams,
    errors: [403, 404],
    response: z.object({ playedSeconds: z.number().int() }),
    handler: async ({ params }) => ({ playedSeconds: (await rooms.getRoomLiveState({ room: roomRef(params.slug) })).playedSeconds }),
  });
  route(deps, {
    method: 'delete',
    path: `${BASE}/rooms/conversation/{slug}`,
    summary: "Clears the room's conversation: its pinned messages for now (chat comes with the chat service)",
    tags,
    params: SlugParams,
    errors: [403, 404],
    response: RoomSchema,
    handler: async ({ params }) => update(params.slug, { pinnedMessages: [] }),
  });
  route(deps, {
    method: 'delete',
    path: `${BASE}/rooms/user/{userUuid}`,
    summary: "Forgets a user's room data (the user or an admin): roles except ownerships, favourites, recent rooms",
    tags,
    params: z.object({ userUuid: UserUuidSchema }),
    errors: [403],
    response: EmptySchema,
    handler: async ({ params }) => {
      await rooms.forgetUser({ userUuid: params.userUuid });
      return {};
    },
  });
  route(deps, {
    method: 'patch',
    path: `${BASE}/rooms/user/{userUuid}`,
    summary: "Admin: lifts a user's bans, kicks, chat and DJ restrictions in every room (a globalUnBan moderation action)",
    tags,
    params: z.object({ userUuid: UserUuidSchema }),
    errors: [403],
    response: z.object({ lifted: z.number().int() }),
    handler: async ({ params }) => rooms.liftUserRestrictions({ userUuid: params.userUuid }),
  });

  // One setting group per path, as the original split them.
  const groups: Array<{ segment: string; summary: string; body: z.ZodObject }> = [
    { segment: 'dj-type', summary: 'Sets who may DJ', body: z.object({ djType: RoomSettingsFields.djType }) },
    { segment: 'live-audio', summary: 'Turns live audio on or off', body: z.object({ liveAudio: RoomSettingsFields.liveAudio }) },
    { segment: 'live-state', summary: 'Marks the room live or not', body: z.object({ isLive: RoomSettingsFields.isLive }) },
    {
      segment: 'dj-seats',
      summary: 'Sets the number of DJ seats (and songs per DJ)',
      body: z.object({ numberOfDjs: RoomSettingsFields.numberOfDjs, songsPerDj: RoomSettingsFields.songsPerDj.optional() }),
    },
    { segment: 'promote', summary: 'Promotes a room (global roles only)', body: PromoteRoomSchema },
  ];
  for (const group of groups) {
    route(deps, {
      method: 'patch',
      path: `${BASE}/rooms/${group.segment}/{slug}/infrastructure`,
      summary: group.summary,
      tags,
      params: SlugParams,
      body: group.body,
      errors: [403, 404],
      response: RoomSchema,
      handler: async ({ params, body }) => update(params.slug, body as RoomSettingsBody),
    });
  }

  route(deps, {
    method: 'patch',
    path: `${BASE}/rooms/{slug}/infrastructure`,
    summary: 'Changes any subset of the settings (owner and coOwner; moderators the stage and look)',
    tags,
    params: SlugParams,
    body: UpdateRoomSchema,
    errors: [403, 404, 409],
    response: RoomSchema,
    handler: async ({ params, body }) => update(params.slug, body),
  });
  route(deps, {
    method: 'delete',
    path: `${BASE}/rooms/{slug}/infrastructure`,
    summary: 'Deletes a room (its owner or a global role)',
    tags,
    params: SlugParams,
    errors: [403, 404],
    response: EmptySchema,
    handler: async ({ params }) => {
      await rooms.deleteRoom({ room: roomRef(params.slug) });
      return {};
    },
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/rooms/{slug}/join`,
    summary: 'Joins a room: refuses banned and kicked users, checks the password, records a recent room',
    tags,
    params: SlugParams,
    body: z.object({ password: z.string().max(128).optional() }),
    errors: [403, 404],
    response: RoomSchema,
    handler: async ({ params, body }) => roomJson((await rooms.joinRoom({ room: roomRef(params.slug), password: body.password })).room),
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/rooms/{slug}/pinned-messages`,
    summary: 'Replaces the pinned messages (moderators and above); an empty list unpins',
    tags,
    params: SlugParams,
    body: z.object({ pinnedMessages: RoomSettingsFields.pinnedMessages }),
    errors: [403, 404],
    response: RoomSchema,
    handler: async ({ params, body }) => update(params.slug, body),
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/rooms/{slug}/poster`,
    summary: "Sets the room's poster, as a URL (uploads of poster files are not built yet)",
    tags,
    params: SlugParams,
    body: z.object({ posterUrl: HttpUrlSchema }),
    errors: [403, 404],
    response: RoomSchema,
    handler: async ({ params, body }) => update(params.slug, body),
  });
  route(deps, {
    method: 'delete',
    path: `${BASE}/rooms/{slug}/poster`,
    summary: "Removes the room's poster",
    tags,
    params: SlugParams,
    errors: [403, 404],
    response: RoomSchema,
    handler: async ({ params }) => update(params.slug, { posterUrl: null }),
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/rooms/{slug}/externalUrl`,
    summary: "Sets (or with null, removes) the room's external link",
    tags,
    params: SlugParams,
    body: z.object({ externalUrl: RoomSettingsFields.externalUrl }),
    errors: [403, 404],
    response: RoomSchema,
    handler: async ({ params, body }) => update(params.slug, body),
  });
  route(deps, {
    method: 'patch',
    path: `${BASE}/rooms/{slug}`,
    summary: 'Changes any subset of the settings (owner and coOwner; moderators the stage and look)',
    tags,
    params: SlugParams,
    body: UpdateRoomSchema,
    errors: [403, 404, 409],
    response: RoomSchema,
    handler: async ({ params, body }) => update(params.slug, body),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/rooms/{slug}`,
    summary: 'A room by slug (or uuid), with its roles and the users present',
    tags,
    params: SlugParams,
    errors: [404],
    response: RoomSchema,
    handler: async ({ params }) => roomJson((await rooms.getRoom({ room: roomRef(params.slug) })).room),
  });
}

const RoomUsersSchema = z
  .object({ userUuids: z.array(z.string()), usersInRoomUuids: z.array(z.string()), roomRoles: z.array(RoomRoleSchema) })
  .openapi('RoomUsers');

async function roomUsers(rooms: RoomClient, slug: string) {
  const { userUuids, usersInRoomUuids, roomRoles } = await rooms.listRoomUsers({ room: roomRef(slug) });
  return { userUuids, usersInRoomUuids, roomRoles: roomRoles.map(roleJson) };
}
