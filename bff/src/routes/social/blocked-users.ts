import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { SocialClient } from './clients.js';
import { BASE, BlockSchema, Deleted, pageOf, SkipTakeQuery, UuidParam } from './schemas.js';
import { blockJson } from './views.js';

const PATH = `${BASE}/blocked-users`;

/**
 * Blocked users (spec 001: POST and GET /blocked-users; GET and DELETE
 * /blocked-users/{id}, where {id} is the block's id or the blocked user's
 * uuid). A block refuses friend invitations between the two and ends what
 * they had (a pending invitation, their friendship); the chat and room
 * services hide the blocked user from the blocker.
 */
export function blockedUserRoutes(deps: RouteDeps, social: SocialClient): void {
  const tags = ['blocked users'];

  route(deps, {
    method: 'post',
    path: PATH,
    summary: 'Blocks a user (idempotent: the existing block); guests may not (403); 400 for oneself',
    tags,
    status: 201,
    body: z.object({ blockedUserUuid: z.uuid() }).openapi('BlockUserRequest'),
    response: BlockSchema,
    errors: [403, 404],
    handler: async ({ body }) => blockJson((await social.blockUser({ userUuid: body.blockedUserUuid })).block),
  });

  route(deps, {
    method: 'get',
    path: PATH,
    summary: "The caller's blocks, newest first (skip, take: 12 by default)",
    tags,
    query: SkipTakeQuery,
    response: pageOf(BlockSchema, 'BlockedUserPage'),
    handler: async ({ query }) => {
      const { blocks, total } = await social.listBlockedUsers({ page: query });
      return { data: blocks.map(blockJson), total, ...query };
    },
  });

  route(deps, {
    method: 'get',
    path: `${PATH}/{id}`,
    summary: "One of the caller's blocks, by its id or the blocked user's uuid; 404 'Blocked user not found'",
    tags,
    params: UuidParam,
    response: BlockSchema,
    errors: [404],
    handler: async ({ params }) => blockJson((await social.getBlockedUser({ id: params.id })).block),
  });

  route(deps, {
    method: 'delete',
    path: `${PATH}/{id}`,
    summary: "Unblocks: one of the caller's blocks, by its id or the blocked user's uuid; 404 'Blocked user not found'",
    tags,
    params: UuidParam,
    response: Deleted,
    errors: [404],
    handler: async ({ params }) => {
      await social.unblockUser({ id: params.id });
      return {};
    },
  });
}
