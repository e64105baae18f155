import type { AccountEmail, MailServiceClient } from '@spinroom/contracts/user/v1/mail';
import type { PromiseClient } from '@spinroom/platform/core';
import { z } from 'zod';
import { clientAddress, type BffLimits } from '../../http/limits.js';
import { route, type RouteDeps } from '../../http/route.js';
import { present } from '../../http/upstream.js';
import { AccessGrantSchema } from './schemas.js';

const USERS = '/api/user-service/users';
const AUTH = '/api/user-service/auth';

// Presence, formats and the exact messages are the user service's rules (spec 000); the edge bounds sizes.
const email = z.string().max(320);
const password = z.string().max(1024);
const linkToken = z.string().max(256);

const AccountEmailSchema = z
  .object({
    id: z.number().int(),
    email: z.string(),
    type: z.enum(['personal', 'work', 'payment', 'spotify', 'discord']),
    status: z.enum(['PENDING_VERIFICATION', 'VERIFIED', 'DELETED', 'CREATED_BY_ADMIN']),
    createdAt: z.string(),
    verifiedAt: z.string().nullable(),
  })
  .openapi('AccountEmail');

const VerificationSchema = z.object({ status: z.literal('VERIFIED'), email: AccountEmailSchema }).openapi('EmailVerification');
const VerifyBodySchema = z.object({ code: z.string().max(16) }).openapi('EmailVerificationCode');
const Done = z.object({}).openapi('Done');

/** Paths that answer nothing but success: `{}`. */
async function done(call: Promise<unknown>): Promise<Record<string, never>> {
  await call;
  return {};
}

function toEmailJson(message: AccountEmail): z.input<typeof AccountEmailSchema> {
  return {
    id: message.id,
    email: message.email,
    type: message.type as z.input<typeof AccountEmailSchema>['type'],
    status: message.status as z.input<typeof AccountEmailSchema>['status'],
    createdAt: present(message.createdAt).toISOString(),
    verifiedAt: message.verifiedAt?.toISOString() ?? null,
  };
}

/** The mail area of /api/user-service: email addresses, magic links, passwords (services/user/src/rpc/mail.ts). */
export function mailRoutes(deps: RouteDeps, mail: PromiseClient<MailServiceClient>, limits: Pick<BffLimits, 'mails'>): void {
  route(deps, {
    method: 'get',
    path: `${USERS}/emails`,
    summary: "The caller's email addresses",
    tags: ['emails'],
    response: z.array(AccountEmailSchema),
    errors: [403],
    handler: async () => (await mail.listEmails({})).emails.map(toEmailJson),
  });

  route(deps, {
    method: 'post',
    path: `${USERS}/emails`,
    summary: 'Add an email address (PENDING_VERIFICATION); its code is mailed',
    tags: ['emails'],
    status: 201,
    body: z.object({ email, type: AccountEmailSchema.shape.type.default('personal') }).openapi('NewEmail'),
    response: AccountEmailSchema,
    errors: [403],
    handler: async ({ body }) => toEmailJson(present((await mail.addEmail(body)).email)),
  });

  route(deps, {
    method: 'delete',
    path: `${USERS}/emails/{id}`,
    summary: "Delete one of the caller's email addresses (not the one they sign in with)",
    tags: ['emails'],
    params: z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) }),
    response: Done,
    errors: [403, 404],
    handler: async ({ params }) => done(mail.deleteEmail({ id: params.id })),
  });

  const verify = async ({ body }: { body: z.infer<typeof VerifyBodySchema> }) => ({
    status: 'VERIFIED' as const,
    email: toEmailJson(present((await mail.verifyEmail({ code: body.code })).email)),
  });
  route(deps, {
    method: 'post',
    path: `${USERS}/emails/verify`,
    summary: 'Verify an email address with the code mailed to it',
    tags: ['emails'],
    body: VerifyBodySchema,
    response: VerificationSchema,
    errors: [403],
    handler: verify,
  });
  route(deps, {
    method: 'post',
    path: `${USERS}/confirm-email`,
    summary: 'Deprecated: POST /api/user-service/users/emails/verify does the same',
    tags: ['emails'],
    deprecated: true,
    body: VerifyBodySchema,
    response: VerificationSchema,
    errors: [403],
    handler: verify,
  });

  route(deps, {
    method: 'post',
    path: `${USERS}/emails/verification-email`,
    summary: 'Mail a new verification code (at most one per MAIL_RESEND_INTERVAL_SECONDS)',
    tags: ['emails'],
    body: z.object({ email }).openapi('EmailAddress'),
    response: Done,
    errors: [403, 404, 429],
    handler: async ({ body, req }) => {
      await limits.mails.consume(clientAddress(req));
      return done(mail.sendVerificationEmail(body));
    },
  });

  route(deps, {
    method: 'get',
    path: `${AUTH}/magic-link`,
    summary: 'Mail a sign-in link (single use, 10 minutes); the answer is the same whether or not the address has an account',
    tags: ['auth'],
    auth: 'public',
    query: z.object({ email }),
    response: Done,
    errors: [429],
    handler: async ({ query, req }) => {
      await limits.mails.consume(clientAddress(req));
      return done(mail.requestMagicLink(query));
    },
  });

  route(deps, {
    method: 'post',
    path: `${AUTH}/validate-magic-link`,
    summary: "Trade a magic link's token for an access token, once",
    tags: ['auth'],
    auth: 'public',
    body: z.object({ token: linkToken }).openapi('MagicLinkToken'),
    response: AccessGrantSchema,
    errors: [401, 403],
    handler: async ({ body }) => present((await mail.validateMagicLink(body)).grant),
  });

  route(deps, {
    method: 'post',
    path: `${USERS}/change-password`,
    summary: "Change the caller's password; their other sessions end, the answer is a new token",
    tags: ['passwords'],
    body: z.object({ email, password, newPassword: password }).partial().openapi('PasswordChange'),
    response: AccessGrantSchema,
    errors: [403],
    handler: async ({ body }) =>
      present(
        (await mail.changePassword({ email: body.email ?? '', password: body.password ?? '', newPassword: body.newPassword ?? '' })).grant,
      ),
  });

  route(deps, {
    method: 'post',
    path: `${USERS}/forgot-password`,
    summary: 'Mail a password reset link; the answer is the same whether or not the address has an account',
    tags: ['passwords'],
    auth: 'public',
    body: z.object({ email }).openapi('EmailAddress'),
    response: Done,
    errors: [429],
    handler: async ({ body, req }) => {
      await limits.mails.consume(clientAddress(req));
      return done(mail.forgotPassword(body));
    },
  });

  route(deps, {
    method: 'post',
    path: `${USERS}/reset-password`,
    summary: "Set a new password with a reset link's token (single use); the account's sessions end",
    tags: ['passwords'],
    auth: 'public',
    body: z.object({ token: linkToken, newPassword: password }).openapi('PasswordReset'),
    response: Done,
    errors: [403],
    handler: async ({ body }) => done(mail.resetPassword(body)),
  });

  route(deps, {
    method: 'post',
    path: `${USERS}/set-password`,
    summary: 'Set the first password of an account that has none (magic-link or phone sign-up)',
    tags: ['passwords'],
    body: z.object({ password }).openapi('NewPassword'),
    response: Done,
    errors: [403],
    handler: async ({ body }) => done(mail.setPassword(body)),
  });

  route(deps, {
    method: 'post',
    path: `${USERS}/change-password-admin`,
    summary: "Admins: set a user's password; the user's sessions end",
    tags: ['passwords'],
    body: z.object({ userUuid: z.uuid(), newPassword: password }).openapi('AdminPasswordChange'),
    response: Done,
    errors: [403, 404],
    handler: async ({ body }) => done(mail.changePasswordByAdmin(body)),
  });
}
