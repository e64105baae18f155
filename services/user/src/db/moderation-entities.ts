import { defineEntity, p } from '@mikro-orm/postgresql';
import type { VoucherStatus } from '../domain/moderation/vouchers.js';

/** `voucher`: a sign-up or redemption code, PENDING until REDEEMED or REVOKED. */
export const VoucherEntity = defineEntity({
  name: 'Voucher',
  tableName: 'voucher',
  properties: {
    id: p.uuid().primary(),
    code: p.string().unique(),
    status: p.string().$type<VoucherStatus>(),
    createdBy: p.uuid(),
    redeemedBy: p.uuid().nullable(),
    createdAt: p.datetime(),
    redeemedAt: p.datetime().nullable(),
  },
});

/** `moderation_comment`: a moderator's note about a user. */
export const ModerationCommentEntity = defineEntity({
  name: 'ModerationComment',
  tableName: 'moderation_comment',
  properties: {
    id: p.uuid().primary(),
    userUuid: p.uuid(),
    authorUuid: p.uuid(),
    comment: p.string(),
    createdAt: p.datetime(),
  },
});
