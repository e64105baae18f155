import type { ModerationComment, ModerationServiceClient, AccountStanding, Voucher } from '@spinroom/contracts/user/v1/moderation';
import { VoucherStatus } from '@spinroom/contracts/user/v1/moderation';
import type { PromiseClient } from '@spinroom/platform/core';
import { z } from 'zod';
import { clientAddress, type BffLimits } from '../../http/limits.js';
import { route, type RouteDeps } from '../../http/route.js';
import { present } from '../../http/upstream.js';
import { AccessGrantSchema, CredentialsSchema } from './schemas.js';

const BASE = '/api/user-service';

const AccountStandingSchema = z
  .object({
    userUuid: z.uuid(),
    roles: z.array(z.string()),
    capabilities: z.array(z.string()),
    banned: z.boolean(),
    bannedUntil: z.string().nullable().openapi({ description: "A temporary ban's end; null for a permanent ban or none" }),
    deactivationRequestedAt: z.string().nullable(),
    deactivatedAt: z.string().nullable(),
  })
  .openapi('AccountStanding');

const VoucherSchema = z
  .object({
    id: z.uuid(),
    code: z.string(),
    status: z.enum(['PENDING', 'REDEEMED', 'REVOKED']),
    createdBy: z.uuid(),
    redeemedBy: z.uuid().nullable(),
    createdAt: z.string(),
    redeemedAt: z.string().nullable(),
  })
  .openapi('Voucher');

const ModerationCommentSchema = z
  .object({ id: z.uuid(), userUuid: z.uuid(), authorUuid: z.uuid(), comment: z.string(), createdAt: z.string() })
  .openapi('ModerationComment');

const TargetSchema = z.object({ userUuid: z.uuid() });
const IdParams = z.object({ id: z.uuid() });
const CAPABILITY = z.enum(['uploadMusic', 'promoteRoom']);

const VOUCHER_STATUS: Record<VoucherStatus, z.infer<typeof VoucherSchema>['status'] | undefined> = {
  [VoucherStatus.VOUCHER_STATUS_UNSPECIFIED]: undefined,
  [VoucherStatus.VOUCHER_STATUS_PENDING]: 'PENDING',
  [VoucherStatus.VOUCHER_STATUS_REDEEMED]: 'REDEEMED',
  [VoucherStatus.VOUCHER_STATUS_REVOKED]: 'REVOKED',
  [VoucherStatus.UNRECOGNIZED]: undefined,
};

const iso = (date: Date | undefined) => date?.toISOString() ?? null;

function standingJson(message: AccountStanding | undefined): z.input<typeof AccountStandingSchema> {
  const standing = present(message);
  return {
    userUuid: standing.userUuid,
    roles: standing.roles,
    capabilities: standing.capabilities,
    banned: standing.banned,
    bannedUntil: iso(standing.bannedUntil),
    deactivationRequestedAt: iso(standing.deactivationRequestedAt),
    deactivatedAt: iso(standing.deactivatedAt),
  };
}

function voucherJson(message: Voucher | undefined): z.input<typeof VoucherSchema> {
  const voucher = present(message);
  return {
    id: voucher.id,
    code: voucher.code,
    status: present(VOUCHER_STATUS[voucher.status]),
    createdBy: voucher.createdBy,
    redeemedBy: voucher.redeemedBy ?? null,
    createdAt: present(voucher.createdAt).toISOString(),
    redeemedAt: iso(voucher.redeemedAt),
  };
}

function commentJson(message: ModerationComment | undefined): z.input<typeof ModerationCommentSchema> {
  const comment = present(message);
  return { ...comment, createdAt: present(comment.createdAt).toISOString() };
}

/**
 * Sign-up by voucher and by an admin, vouchers, moderation of accounts and
 * deactivation. Who may do what is the user service's decision.
 */
export function moderationRoutes(
  deps: RouteDeps,
  moderation: PromiseClient<ModerationServiceClient>,
  limits: Pick<BffLimits, 'signUps'>,
): void {
  route(deps, {
    method: 'post',
    path: `${BASE}/users/voucher-sign-up`,
    summary: 'Create an account with a voucher, which is redeemed by it',
    tags: ['users'],
    auth: 'public',
    status: 201,
    body: CredentialsSchema.extend({ voucherCode: z.string().max(64).optional(), nickname: z.string().max(64).optional() }).openapi(
      'VoucherSignUp',
    ),
    response: AccessGrantSchema,
    errors: [403, 404, 409, 429],
    handler: async ({ body, req }) => {
      await limits.signUps.consume(clientAddress(req));
      const { grant } = await moderation.voucherSignUp({
        email: body.email ?? '',
        password: body.password ?? '',
        voucherCode: body.voucherCode ?? '',
        nickname: body.nickname,
      });
      return present(grant);
    },
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/users/admin/sign-up`,
    summary: 'Admins: create an account for someone',
    tags: ['users', 'admin'],
    status: 201,
    body: CredentialsSchema.extend({ nickname: z.string().max(64).optional() }).openapi('AdminSignUp'),
    response: z.object({ userUuid: z.uuid() }),
    errors: [403],
    handler: async ({ body }) =>
      moderation.adminSignUp({ email: body.email ?? '', password: body.password ?? '', nickname: body.nickname }),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/vouchers`,
    summary: 'Admins: create a PENDING voucher (a random code unless one is given)',
    tags: ['vouchers'],
    status: 201,
    body: z.object({ code: z.string().max(64).optional() }),
    response: VoucherSchema,
    errors: [403, 409],
    handler: async ({ body }) => voucherJson((await moderation.createVoucher({ code: body.code })).voucher),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/vouchers`,
    summary: 'Admins: every voucher, newest first',
    tags: ['vouchers'],
    response: z.array(VoucherSchema),
    errors: [403],
    handler: async () => (await moderation.listVouchers({})).vouchers.map(voucherJson),
  });

  route(deps, {
    method: 'delete',
    path: `${BASE}/vouchers/{id}`,
    summary: 'Admins: revoke a PENDING voucher',
    tags: ['vouchers'],
    params: IdParams,
    response: VoucherSchema,
    errors: [403, 404, 409],
    handler: async ({ params }) => voucherJson((await moderation.revokeVoucher({ id: params.id })).voucher),
  });

  route(deps, {
    method: 'patch',
    path: `${BASE}/vouchers/redeem`,
    summary: 'Redeem a PENDING voucher as the caller (once, whoever asks first)',
    tags: ['vouchers'],
    body: z.object({ code: z.string().min(1).max(64) }),
    response: VoucherSchema,
    errors: [403, 404, 409],
    handler: async ({ body }) => voucherJson((await moderation.redeemVoucher({ code: body.code })).voucher),
  });

  const act = (path: string, summary: string, call: (userUuid: string) => Promise<{ standing?: AccountStanding | undefined }>) =>
    route(deps, {
      method: 'post',
      path: `${BASE}/users/${path}`,
      summary,
      tags: ['moderation'],
      body: TargetSchema,
      response: AccountStandingSchema,
      errors: [403, 404],
      handler: async ({ body }) => standingJson((await call(body.userUuid)).standing),
    });

  act('kick', "Moderators: end the user's sessions", (userUuid) => moderation.kick({ userUuid }));
  act('ban', 'Moderators: ban the user until an unban; their sessions end', (userUuid) => moderation.ban({ userUuid }));
  act('unban', 'Moderators: lift a ban', (userUuid) => moderation.unban({ userUuid }));
  act('add-global-moderator-role', 'Admins: make the user a global moderator', (userUuid) =>
    moderation.addGlobalModeratorRole({ userUuid }),
  );
  act('cancel-requested-deactivate', "Moderators: cancel the user's deactivation request", (userUuid) =>
    moderation.cancelRequestedDeactivate({ userUuid }),
  );

  route(deps, {
    method: 'post',
    path: `${BASE}/users/temporary-ban`,
    summary: 'Moderators: ban the user until expirationTime, when the ban ends by itself',
    tags: ['moderation'],
    body: TargetSchema.extend({ expirationTime: z.iso.datetime({ offset: true }) }),
    response: AccountStandingSchema,
    errors: [403, 404],
    handler: async ({ body }) =>
      standingJson((await moderation.temporaryBan({ userUuid: body.userUuid, endsAt: new Date(body.expirationTime) })).standing),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/users/add-role`,
    summary: "Moderators: grant a staff role ranked below the caller's",
    tags: ['moderation'],
    body: TargetSchema.extend({ role: z.string().max(32) }),
    response: AccountStandingSchema,
    errors: [403, 404],
    handler: async ({ body }) => standingJson((await moderation.addRole({ userUuid: body.userUuid, role: body.role })).standing),
  });

  const CapabilityParams = z.object({ id: z.uuid(), capability: CAPABILITY });
  route(deps, {
    method: 'put',
    path: `${BASE}/users/{id}/capabilities/{capability}`,
    summary: 'Moderators: grant a capability',
    tags: ['moderation'],
    params: CapabilityParams,
    response: AccountStandingSchema,
    errors: [403, 404],
    handler: async ({ params }) =>
      standingJson((await moderation.grantCapability({ userUuid: params.id, capability: params.capability })).standing),
  });

  route(deps, {
    method: 'delete',
    path: `${BASE}/users/{id}/capabilities/{capability}`,
    summary: 'Moderators: remove a capability',
    tags: ['moderation'],
    params: CapabilityParams,
    response: AccountStandingSchema,
    errors: [403, 404],
    handler: async ({ params }) =>
      standingJson((await moderation.removeCapability({ userUuid: params.id, capability: params.capability })).standing),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/moderation-comments`,
    summary: 'Moderators: note something about a user',
    tags: ['moderation'],
    status: 201,
    body: z.object({ userUuid: z.uuid(), comment: z.string().min(1).max(2000) }),
    response: ModerationCommentSchema,
    errors: [403, 404],
    handler: async ({ body }) => commentJson((await moderation.createModerationComment(body)).comment),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/moderation-comments`,
    summary: 'Moderators: the comments, newest first; about one user with userUuid',
    tags: ['moderation'],
    query: z.object({ userUuid: z.uuid().optional() }),
    response: z.array(ModerationCommentSchema),
    errors: [403],
    handler: async ({ query }) => (await moderation.listModerationComments({ userUuid: query.userUuid })).comments.map(commentJson),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/moderation-comments/{id}`,
    summary: 'Moderators: one comment',
    tags: ['moderation'],
    params: IdParams,
    response: ModerationCommentSchema,
    errors: [403, 404],
    handler: async ({ params }) => commentJson((await moderation.getModerationComment({ id: params.id })).comment),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/users/request-deactivate`,
    summary: "Ask for the caller's own account to be deactivated",
    tags: ['deactivation'],
    response: AccountStandingSchema,
    errors: [403, 404],
    handler: async () => standingJson((await moderation.requestDeactivate({})).standing),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/users/list-deactivate`,
    summary: 'Moderators: the open deactivation requests, oldest first',
    tags: ['deactivation'],
    response: z.array(z.object({ userUuid: z.uuid(), nickname: z.string(), email: z.string(), requestedAt: z.string() })),
    errors: [403],
    handler: async () =>
      (await moderation.listDeactivateRequests({})).requests.map((r) => ({ ...r, requestedAt: present(r.requestedAt).toISOString() })),
  });

  route(deps, {
    method: 'delete',
    path: `${BASE}/users/deactivate/{id}`,
    summary: 'Moderators: deactivate an account; its sessions end and logins are refused',
    tags: ['deactivation'],
    params: IdParams,
    response: AccountStandingSchema,
    errors: [403, 404],
    handler: async ({ params }) => standingJson((await moderation.deactivate({ userUuid: params.id })).standing),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/users/reactivate/{id}`,
    summary: 'Moderators: reactivate a deactivated account',
    tags: ['deactivation'],
    params: IdParams,
    response: AccountStandingSchema,
    errors: [403, 404],
    handler: async ({ params }) => standingJson((await moderation.reactivate({ userUuid: params.id })).standing),
  });
}
