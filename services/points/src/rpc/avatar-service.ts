import type {
  Avatar as AvatarMessage,
  AvatarAssignment as AssignmentMessage,
  AvatarServiceServer,
} from '@spinroom/contracts/points/v1/avatars';
import type { Caller, createUnaryFactory } from '@spinroom/platform';
import type { AssignmentType, Avatar, AvatarAssignment, Avatars, AvatarStatus } from '../domain/avatars.js';
import type { Actor } from '../domain/tokens.js';
import { actorOf } from './season-service.js';

const maybeActor = (caller: Caller | undefined): Actor | undefined =>
  caller ? { userUuid: caller.userUuid, role: caller.role, kind: caller.kind } : undefined;

export const avatarMessage = (avatar: Avatar): AvatarMessage => ({
  ...avatar,
  seasonId: avatar.seasonId ?? undefined,
  rankThreshold: avatar.rankThreshold ?? undefined,
});

const assignmentMessage = (assignment: AvatarAssignment): AssignmentMessage => ({
  ...assignment,
  seasonId: assignment.seasonId ?? undefined,
});

/** gRPC handlers of spinroom.points.v1.AvatarService: who calls, then the domain decides. */
export function avatarServiceHandlers(deps: { avatars: Avatars; unary: ReturnType<typeof createUnaryFactory> }): AvatarServiceServer {
  const { avatars, unary } = deps;
  return {
    createAvatar: unary(async (request, context) => ({
      avatar: avatarMessage(
        await avatars.create(actorOf(context), {
          slug: request.slug,
          name: request.name,
          status: request.status as AvatarStatus,
          discordOnly: request.discordOnly,
          seasonId: request.seasonId ?? null,
          rankThreshold: request.rankThreshold ?? null,
        }),
      ),
    })),
    patchAvatar: unary(async (request, context) => ({
      avatar: avatarMessage(
        await avatars.patch(actorOf(context), request.slug, {
          name: request.name,
          status: request.status as AvatarStatus | undefined,
          discordOnly: request.discordOnly,
          seasonId: request.seasonId,
          rankThreshold: request.rankThreshold,
        }),
      ),
    })),
    deleteAvatar: unary(async (request, context) => {
      await avatars.delete(actorOf(context), request.slug);
      return {};
    }),
    getAvatar: unary.public(async (request, context) => ({
      avatar: avatarMessage(await avatars.get(maybeActor(context.caller), request.slug)),
    })),
    listAvatars: unary.public(async (request, context) => {
      const actor = maybeActor(context.caller);
      const list =
        request.which === 'all'
          ? await avatars.all(actor)
          : request.which === 'subscriber'
            ? await avatars.subscriber()
            : await avatars.mine(actor);
      return { avatars: list.map(avatarMessage) };
    }),
    adminListAvatars: unary(async (request, context) => {
      if (request.slug) {
        const { avatar, fields } = await avatars.adminGet(actorOf(context), request.slug, request.query);
        return { data: [avatarMessage(avatar)], count: 1, total: 1, page: 1, pageCount: 1, fields };
      }
      const page = await avatars.adminQuery(actorOf(context), request.query);
      return { ...page, data: page.data.map(avatarMessage) };
    }),
    getUserAvatar: unary.public(async (request) => {
      const { avatar, canWear, assignment } = await avatars.forUser(request.slug, request.userUuid);
      return { avatar: avatarMessage(avatar), canWear, assignment: assignment ? assignmentMessage(assignment) : undefined };
    }),
    getServiceAvatar: unary(async (request, context) => ({
      avatar: avatarMessage(await avatars.forService(actorOf(context), request.slug)),
    })),
    assignAvatar: unary(async (request, context) => {
      const { assignment, created } = await avatars.assign(
        actorOf(context),
        request.slug,
        request.userUuid,
        (request.assignmentType || 'MANUAL') as AssignmentType,
      );
      return { assignment: assignmentMessage(assignment), created };
    }),
    deleteAvatarAssignment: unary(async (request, context) => {
      await avatars.unassign(actorOf(context), request.id);
      return {};
    }),
    backfillAchievedAvatars: unary(async (request, context) => avatars.backfill(actorOf(context), request.seasonId, request.limit || 1000)),
  };
}
