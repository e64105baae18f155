import type {
  Community as CommunityMessage,
  CommunityInput as CommunityInputMessage,
  CommunityRef as CommunityRefMessage,
  CommunityServiceServer,
  Event as EventMessage,
  EventInput as EventInputMessage,
} from '@spinroom/contracts/room/v1/community_service';
import { badRequest, pageOf, type CallContext, type createUnaryFactory } from '@spinroom/platform';
import { refOf, type Communities, type CommunityRef } from '../domain/communities.js';
import { eventStatus, type CommunityEvent, type CommunityInput, type CommunityView, type EventInput } from '../domain/community-rules.js';
import type { Actor } from '../domain/rooms.js';
import { toRoomMessage, toRoomRef } from './messages.js';

function actor(ctx: CallContext): Actor {
  return { userUuid: ctx.caller.userUuid, role: ctx.caller.role };
}

function toCommunityRef(ref: CommunityRefMessage | undefined): CommunityRef {
  if (ref?.id) return { id: ref.id };
  if (ref?.uuid) return refOf(ref.uuid);
  if (ref?.slug) return refOf(ref.slug);
  throw badRequest('community is required');
}

export function toCommunityMessage(view: CommunityView): CommunityMessage {
  const { community } = view;
  return {
    id: community.id,
    uuid: community.uuid,
    slug: community.slug,
    name: community.name,
    description: community.description,
    imageUrl: community.imageUrl ?? undefined,
    ownerUuid: community.ownerUuid ?? '',
    membersCount: community.membersCount,
    roomsCount: community.roomsCount,
    createdAt: community.createdAt,
    updatedAt: community.updatedAt,
    isMember: view.membership !== null,
    memberRole: view.membership ?? '',
  };
}

export function toEventMessage(event: CommunityEvent, now = new Date()): EventMessage {
  return {
    id: event.id,
    uuid: event.uuid,
    slug: event.slug,
    name: event.name,
    description: event.description,
    imageUrl: event.imageUrl ?? undefined,
    roomId: event.roomId,
    roomUuid: event.roomUuid,
    roomSlug: event.roomSlug,
    roomName: event.roomName,
    communityId: event.communityId ?? 0,
    communityUuid: event.communityUuid ?? '',
    communitySlug: event.communitySlug ?? '',
    startTime: event.startTime,
    endTime: event.endTime,
    liveAt: event.liveAt ?? undefined,
    createdBy: event.createdBy,
    createdAt: event.createdAt,
    updatedAt: event.updatedAt,
    status: eventStatus(event, now),
  };
}

function toCommunityInput(message: CommunityInputMessage | undefined): CommunityInput {
  const m = message ?? {};
  return { name: m.name, slug: m.slug, description: m.description, imageUrl: m.imageUrl, ownerUuid: m.ownerUuid };
}

function toEventInput(message: EventInputMessage | undefined): EventInput {
  const m = message ?? {};
  return {
    name: m.name,
    slug: m.slug,
    description: m.description,
    imageUrl: m.imageUrl,
    room: m.room,
    community: m.community,
    startTime: m.startTime,
    endTime: m.endTime,
  };
}

const bare = (community: CommunityView['community']): CommunityView => ({ community, membership: null });

/** gRPC handlers of spinroom.room.v1.CommunityService: the caller comes from the token; rules live in domain/communities.ts. */
export function communityServiceHandlers(deps: {
  communities: Communities;
  unary: ReturnType<typeof createUnaryFactory>;
}): CommunityServiceServer {
  const { communities, unary } = deps;
  const page = (req: { limit: number; offset: number }) => pageOf(req);
  return {
    listCommunitiesAsAdmin: unary(async (req, ctx) => {
      const result = await communities.adminList(actor(ctx), req.query);
      return { ...result, data: result.data.map((c) => toCommunityMessage(bare(c))) };
    }),
    getCommunityAsAdmin: unary(async (req, ctx) => {
      const { community, fields } = await communities.adminGet(actor(ctx), req.id, req.query);
      return { community: toCommunityMessage(bare(community)), fields };
    }),
    createCommunities: unary(async (req, ctx) => ({
      communities: (await communities.create(actor(ctx), req.communities.map(toCommunityInput))).map((c) => toCommunityMessage(bare(c))),
    })),
    updateCommunity: unary(async (req, ctx) => ({
      community: toCommunityMessage(bare(await communities.update(actor(ctx), req.id, toCommunityInput(req.input), req.replace))),
    })),
    deleteCommunity: unary(async (req, ctx) => {
      await communities.delete(actor(ctx), req.id);
      return {};
    }),
    getCommunity: unary(async (req, ctx) => ({
      community: toCommunityMessage(await communities.get(actor(ctx), toCommunityRef(req.community))),
    })),
    listCommunities: unary(async (req, ctx) => {
      const { views, total } = await communities.list(actor(ctx), req.search, page(req));
      return { communities: views.map(toCommunityMessage), total };
    }),
    listCommunityMembers: unary(async (req) => {
      const { members, total } = await communities.members(toCommunityRef(req.community), page(req));
      return { users: members, total };
    }),
    joinCommunity: unary(async (req, ctx) => ({
      community: toCommunityMessage(await communities.join(actor(ctx), toCommunityRef(req.community))),
    })),
    leaveCommunity: unary(async (req, ctx) => {
      const { view, left } = await communities.leave(actor(ctx), toCommunityRef(req.community));
      return { community: toCommunityMessage(view), left };
    }),
    addCommunityMember: unary(async (req, ctx) => ({
      member: await communities.addMember(actor(ctx), toCommunityRef(req.community), req.userUuid, req.role),
    })),
    removeCommunityMember: unary(async (req, ctx) => ({
      removed: await communities.removeMember(actor(ctx), toCommunityRef(req.community), req.userUuid),
    })),
    listCommunityRooms: unary(async (req, ctx) => {
      const { rooms, total } = await communities.rooms(actor(ctx), toCommunityRef(req.community), page(req));
      return { rooms: rooms.map(toRoomMessage), total };
    }),
    addCommunityRooms: unary(async (req, ctx) => {
      const { community, changed } = await communities.addRooms(actor(ctx), toCommunityRef(req.community), req.rooms.map(toRoomRef));
      return { community: toCommunityMessage(await communities.get(actor(ctx), { id: community.id })), added: changed };
    }),
    removeCommunityRooms: unary(async (req, ctx) => {
      const { community, changed } = await communities.removeRooms(actor(ctx), toCommunityRef(req.community), req.rooms.map(toRoomRef));
      return { community: toCommunityMessage(await communities.get(actor(ctx), { id: community.id })), removed: changed };
    }),
    listRoomCommunities: unary(async (req, ctx) => ({
      communities: (await communities.ofRoom(actor(ctx), toRoomRef(req.room))).map(toCommunityMessage),
    })),
    listUserCommunities: unary(async (_req, ctx) => ({
      communities: (await communities.ofUser(actor(ctx))).map(toCommunityMessage),
    })),
    listEventsAsAdmin: unary(async (req, ctx) => {
      const result = await communities.adminEvents(actor(ctx), req.query);
      const now = new Date();
      return { ...result, data: result.data.map((e) => toEventMessage(e, now)) };
    }),
    getEventAsAdmin: unary(async (req, ctx) => {
      const { event, fields } = await communities.adminEvent(actor(ctx), req.id, req.query);
      return { event: toEventMessage(event), fields };
    }),
    listEvents: unary(async (req, ctx) => {
      const { events, total } = await communities.events(
        actor(ctx),
        { upcoming: req.upcoming, community: req.community || undefined },
        page(req),
      );
      const now = new Date();
      return { events: events.map((e) => toEventMessage(e, now)), total };
    }),
    createEvent: unary(async (req, ctx) => ({ event: toEventMessage(await communities.createEvent(actor(ctx), toEventInput(req.input))) })),
    getEvent: unary(async (req, ctx) => ({ event: toEventMessage(await communities.event(actor(ctx), toCommunityRef(req.event))) })),
    updateEvent: unary(async (req, ctx) => ({
      event: toEventMessage(await communities.updateEvent(actor(ctx), toCommunityRef(req.event), toEventInput(req.input))),
    })),
    deleteEvent: unary(async (req, ctx) => {
      await communities.deleteEvent(actor(ctx), toCommunityRef(req.event));
      return {};
    }),
  };
}
