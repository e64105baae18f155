import type { AccountEmail as AccountEmailMessage, MailServiceServer } from '@spinroom/contracts/user/v1/mail';
import { forbidden, type Caller, type createUnaryFactory } from '@spinroom/platform';
import type { Accounts } from '../domain/accounts.js';
import type { AccountEmail, Emails } from '../domain/mail/emails.js';
import type { MagicLinks } from '../domain/mail/magic-links.js';
import type { PasswordChanges } from '../domain/mail/passwords.js';

function toEmailMessage(email: AccountEmail): AccountEmailMessage {
  return {
    id: email.id,
    email: email.email,
    type: email.type,
    status: email.status,
    createdAt: email.createdAt,
    verifiedAt: email.verifiedAt ?? undefined,
  };
}

/** Addresses and passwords belong to signed-up people: not guests, bots or services. */
function person(caller: Caller): string {
  if (caller.kind !== 'user') throw forbidden();
  return caller.userUuid;
}

/** gRPC handlers of spinroom.user.v1.MailService: check the caller, delegate to the domain (domain/mail). */
export function mailHandlers(deps: {
  accounts: Accounts;
  emails: Emails;
  magicLinks: MagicLinks;
  passwords: PasswordChanges;
  unary: ReturnType<typeof createUnaryFactory>;
}): MailServiceServer {
  const { accounts, emails, magicLinks, passwords, unary } = deps;
  return {
    listEmails: unary(async (_request, context) => ({
      emails: (await emails.list(person(context.caller))).map(toEmailMessage),
    })),
    addEmail: unary(async (request, context) => ({
      email: toEmailMessage(await emails.add(person(context.caller), request)),
    })),
    deleteEmail: unary(async (request, context) => {
      await emails.delete(await accounts.profile(person(context.caller)), request.id);
      return {};
    }),
    verifyEmail: unary(async (request, context) => ({
      email: toEmailMessage(await emails.verify(person(context.caller), request.code)),
    })),
    sendVerificationEmail: unary(async (request, context) => {
      await emails.resend(person(context.caller), request.email);
      return {};
    }),
    requestMagicLink: unary.public(async (request) => {
      await magicLinks.request(request.email);
      return {};
    }),
    validateMagicLink: unary.public(async (request) => ({ grant: await magicLinks.validate(request.token) })),
    changePassword: unary(async (request, context) => ({
      grant: await passwords.change(person(context.caller), request),
    })),
    forgotPassword: unary.public(async (request) => {
      await passwords.forgot(request.email);
      return {};
    }),
    resetPassword: unary.public(async (request) => {
      await passwords.reset(request);
      return {};
    }),
    setPassword: unary(async (request, context) => {
      await passwords.set(person(context.caller), request.password);
      return {};
    }),
    changePasswordByAdmin: unary(async (request, context) => {
      await passwords.changeByAdmin(context.caller.role, request);
      return {};
    }),
  };
}
