import {
  VoucherStatus,
  type AccountStanding,
  type ModerationServiceServer,
  type Voucher as VoucherMessage,
} from '@spinroom/contracts/user/v1/moderation';
import { badRequest, type createUnaryFactory } from '@spinroom/platform';
import type { ModeratedAccount, Moderation } from '../domain/moderation/moderation.js';
import { isBanned } from '../domain/moderation/standing.js';
import type { Voucher, Vouchers } from '../domain/moderation/vouchers.js';

const STATUS: Record<Voucher['status'], VoucherStatus> = {
  PENDING: VoucherStatus.VOUCHER_STATUS_PENDING,
  REDEEMED: VoucherStatus.VOUCHER_STATUS_REDEEMED,
  REVOKED: VoucherStatus.VOUCHER_STATUS_REVOKED,
};

export function toStandingMessage(account: ModeratedAccount): AccountStanding {
  return {
    userUuid: account.uuid,
    roles: account.roles,
    capabilities: account.capabilities,
    banned: isBanned(account, new Date()),
    bannedUntil: account.bannedAt ? (account.bannedUntil ?? undefined) : undefined,
    deactivationRequestedAt: account.deactivationRequestedAt ?? undefined,
    deactivatedAt: account.deactivatedAt ?? undefined,
  };
}

function toVoucherMessage(voucher: Voucher): VoucherMessage {
  return {
    id: voucher.id,
    code: voucher.code,
    status: STATUS[voucher.status],
    createdBy: voucher.createdBy,
    redeemedBy: voucher.redeemedBy ?? undefined,
    createdAt: voucher.createdAt,
    redeemedAt: voucher.redeemedAt ?? undefined,
  };
}

/** gRPC handlers of spinroom.user.v1.ModerationService: who calls, what they ask; the rules are the domain's. */
export function moderationHandlers(deps: {
  moderation: Moderation;
  vouchers: Vouchers;
  unary: ReturnType<typeof createUnaryFactory>;
}): ModerationServiceServer {
  const { moderation, vouchers, unary } = deps;
  const standing = (account: ModeratedAccount) => ({ standing: toStandingMessage(account) });
  return {
    voucherSignUp: unary.public(async (request) => ({ grant: await vouchers.signUp(request) })),
    adminSignUp: unary(async (request, { caller }) => vouchers.adminSignUp(caller, request)),

    createVoucher: unary(async (request, { caller }) => ({ voucher: toVoucherMessage(await vouchers.create(caller, request.code)) })),
    listVouchers: unary(async (_request, { caller }) => ({ vouchers: (await vouchers.list(caller)).map(toVoucherMessage) })),
    revokeVoucher: unary(async (request, { caller }) => ({ voucher: toVoucherMessage(await vouchers.revoke(caller, request.id)) })),
    redeemVoucher: unary(async (request, { caller }) => ({ voucher: toVoucherMessage(await vouchers.redeem(caller, request.code)) })),

    kick: unary(async (request, { caller }) => standing(await moderation.kick(caller, request.userUuid))),
    ban: unary(async (request, { caller }) => standing(await moderation.ban(caller, request.userUuid))),
    temporaryBan: unary(async (request, { caller }) => {
      if (!request.endsAt) throw badRequest('endsAt must be a date');
      return standing(await moderation.temporaryBan(caller, request.userUuid, request.endsAt));
    }),
    unban: unary(async (request, { caller }) => standing(await moderation.unban(caller, request.userUuid))),
    addRole: unary(async (request, { caller }) => standing(await moderation.addRole(caller, request.userUuid, request.role))),
    addGlobalModeratorRole: unary(async (request, { caller }) =>
      standing(await moderation.addRole(caller, request.userUuid, 'globalModerator')),
    ),
    grantCapability: unary(async (request, { caller }) =>
      standing(await moderation.grantCapability(caller, request.userUuid, request.capability)),
    ),
    removeCapability: unary(async (request, { caller }) =>
      standing(await moderation.removeCapability(caller, request.userUuid, request.capability)),
    ),

    createModerationComment: unary(async (request, { caller }) => ({
      comment: await moderation.addComment(caller, request.userUuid, request.comment),
    })),
    listModerationComments: unary(async (request, { caller }) => ({
      comments: await moderation.listComments(caller, request.userUuid ?? null),
    })),
    getModerationComment: unary(async (request, { caller }) => ({ comment: await moderation.comment(caller, request.id) })),

    requestDeactivate: unary(async (_request, { caller }) => standing(await moderation.requestDeactivate(caller))),
    listDeactivateRequests: unary(async (_request, { caller }) => ({ requests: await moderation.listDeactivateRequests(caller) })),
    cancelRequestedDeactivate: unary(async (request, { caller }) =>
      standing(await moderation.cancelRequestedDeactivate(caller, request.userUuid)),
    ),
    deactivate: unary(async (request, { caller }) => standing(await moderation.deactivate(caller, request.userUuid))),
    reactivate: unary(async (request, { caller }) => standing(await moderation.reactivate(caller, request.userUuid))),
  };
}
