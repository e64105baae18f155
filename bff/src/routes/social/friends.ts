import { FriendInvitationStatus } from '@spinroom/contracts/social/v1/social_service';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { SocialClient } from './clients.js';
import { BASE, Deleted, FriendSchema, InvitationSchema, pageOf, SkipTakeQuery, UuidParam } from './schemas.js';
import { friendJson, invitationJson } from './views.js';

const INVITATIONS = `${BASE}/friend-invitations`;
const FRIENDS = `${BASE}/friends`;
const InvitationPage = pageOf(InvitationSchema, 'FriendInvitationPage');

/**
 * Friends and friend invitations (spec 001: POST /friend-invitations; GET
 * /friend-invitations/user-invitations/{id}, /user-invitations-for,
 * /user-invitations-from; DELETE /friend-invitations/{id}; POST
 * /friend-invitations/handle-friend; GET and DELETE /friends/{id}; GET
 * /friends/list/{id}; GET /friends/single-friend/{id}). An invitation is
 * PENDING until its recipient accepts (they become friends) or rejects it;
 * none goes between blocked users.
 */
export function friendRoutes(deps: RouteDeps, social: SocialClient): void {
  const tags = ['friends'];

  route(deps, {
    method: 'post',
    path: INVITATIONS,
    summary:
      "Invites a user to be the caller's friend (announced as social.friend-invitation-sent); 403 'You cannot invite this user' between blocked users, 409 when already friends or an invitation between them is pending",
    tags,
    status: 201,
    body: z.object({ userUuid: z.uuid() }).openapi('FriendInvitationRequest'),
    response: InvitationSchema,
    errors: [403, 404, 409],
    handler: async ({ body }) => invitationJson((await social.sendFriendInvitation({ userUuid: body.userUuid })).invitation),
  });

  route(deps, {
    method: 'get',
    path: `${INVITATIONS}/user-invitations/{id}`,
    summary: "One invitation the caller sent or received; 404 'Friend invitation not found'",
    tags,
    params: UuidParam,
    response: InvitationSchema,
    errors: [404],
    handler: async ({ params }) => invitationJson((await social.getFriendInvitation({ id: params.id })).invitation),
  });

  route(deps, {
    method: 'get',
    path: `${INVITATIONS}/user-invitations-for`,
    summary: 'The pending invitations sent to the caller, newest first (skip, take)',
    tags,
    query: SkipTakeQuery,
    response: InvitationPage,
    handler: async ({ query }) => {
      const { invitations, total } = await social.listReceivedFriendInvitations({ page: query });
      return { data: invitations.map(invitationJson), total, ...query };
    },
  });

  route(deps, {
    method: 'get',
    path: `${INVITATIONS}/user-invitations-from`,
    summary: 'The pending invitations the caller sent, newest first (skip, take)',
    tags,
    query: SkipTakeQuery,
    response: InvitationPage,
    handler: async ({ query }) => {
      const { invitations, total } = await social.listSentFriendInvitations({ page: query });
      return { data: invitations.map(invitationJson), total, ...query };
    },
  });

  route(deps, {
    method: 'delete',
    path: `${INVITATIONS}/{id}`,
    summary: "Withdraws (its sender) or dismisses (its recipient) an invitation; 404 'Friend invitation not found'",
    tags,
    params: UuidParam,
    response: Deleted,
    errors: [404],
    handler: async ({ params }) => {
      await social.deleteFriendInvitation({ id: params.id });
      return {};
    },
  });

  route(deps, {
    method: 'post',
    path: `${INVITATIONS}/handle-friend`,
    summary:
      'The recipient accepts (they become friends) or rejects a pending invitation (announced as social.friend-invitation-answered); 403 for anyone else, 409 once answered',
    tags,
    body: z.object({ invitationId: z.uuid(), status: z.enum(['ACCEPTED', 'REJECTED']) }).openapi('HandleFriendInvitationRequest'),
    response: z.object({ invitation: InvitationSchema, friend: FriendSchema.nullable() }).openapi('HandledFriendInvitation'),
    errors: [403, 404, 409],
    handler: async ({ body }) => {
      const { invitation, friend } = await social.handleFriendInvitation({
        id: body.invitationId,
        status:
          body.status === 'ACCEPTED'
            ? FriendInvitationStatus.FRIEND_INVITATION_STATUS_ACCEPTED
            : FriendInvitationStatus.FRIEND_INVITATION_STATUS_REJECTED,
      });
      return { invitation: invitationJson(invitation), friend: friend ? friendJson(friend) : null };
    },
  });

  for (const path of [`${FRIENDS}/{id}`, `${FRIENDS}/single-friend/{id}`]) {
    route(deps, {
      method: 'get',
      path,
      summary: "The caller's friendship with user {id} (or the friendship {id}); 404 'Friend not found'",
      tags,
      params: UuidParam,
      response: FriendSchema,
      errors: [404],
      handler: async ({ params }) => friendJson((await social.getFriend({ id: params.id })).friend),
    });
  }

  route(deps, {
    method: 'delete',
    path: `${FRIENDS}/{id}`,
    summary: "Ends the caller's friendship with user {id} (or the friendship {id}), for both; 404 'Friend not found'",
    tags,
    params: UuidParam,
    response: Deleted,
    errors: [404],
    handler: async ({ params }) => {
      await social.deleteFriend({ id: params.id });
      return {};
    },
  });

  route(deps, {
    method: 'get',
    path: `${FRIENDS}/list/{id}`,
    summary: "A user's friends, newest first (skip, take), with their total",
    tags,
    params: UuidParam,
    query: SkipTakeQuery,
    response: pageOf(FriendSchema, 'FriendPage'),
    handler: async ({ params, query }) => {
      const { friends, total } = await social.listFriends({ userUuid: params.id, page: query });
      return { data: friends.map(friendJson), total, ...query };
    },
  });
}
