import { defineEntity, p } from '@mikro-orm/postgresql';
import type { EmailStatus, EmailType } from '../domain/mail/emails.js';
import type { LinkPurpose } from '../domain/mail/links.js';

/** `user_email`: one of an account's addresses; `code_hash` is the sha256 of its mailed code. */
export const UserEmailEntity = defineEntity({
  name: 'UserEmail',
  tableName: 'user_email',
  properties: {
    id: p.integer().primary().autoincrement(),
    userUuid: p.uuid(),
    email: p.string(),
    type: p.string().$type<EmailType>(),
    status: p.string().$type<EmailStatus>(),
    codeHash: p.string().nullable(),
    codeExpiresAt: p.datetime().nullable(),
    codeAttempts: p.integer(),
    createdAt: p.datetime(),
    verifiedAt: p.datetime().nullable(),
  },
});

/** `mail_link`: a mailed link, by the sha256 of its token; used once. */
export const MailLinkEntity = defineEntity({
  name: 'MailLink',
  tableName: 'mail_link',
  properties: {
    tokenHash: p.string().primary(),
    purpose: p.string().$type<LinkPurpose>(),
    userUuid: p.uuid().nullable(),
    email: p.string(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});
