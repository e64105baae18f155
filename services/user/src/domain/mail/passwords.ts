import {
  ERROR_CODES,
  badRequest,
  forbidden,
  isAdminRole,
  isUuid,
  notFound,
  unauthorized,
  type Logger,
  type Role,
} from '@spinroom/platform';
import { BAD_CREDENTIALS, normalizeEmail, PROFILE_NOT_FOUND, type AccessGrant, type UserStore } from '../accounts.js';
import type { Mailer } from '../mail.js';
import { checkPasswordPolicy, type PasswordHasher } from '../passwords.js';
import type { EndSessions } from '../sessions.js';
import type { User } from '../user.js';
import { sendInBackground, type Emails, type SendInterval } from './emails.js';
import { linkUrl, minutesFrom, RESET_LINK_TTL_MINUTES, type LinkStore } from './links.js';
import { newLinkToken, secretHash } from './secrets.js';
import { passwordResetMail } from './templates.js';

export const SAME_PASSWORD = 'New password must be different from your previous password';
export const EMAIL_NOT_VERIFIED = 'Email address is not verified';
export const CANNOT_RESET = 'Can not reset password';
export const PASSWORD_ALREADY_SET = 'A password is already set';

/** Where password hashes are written (db/mail-store.ts). */
export interface PasswordStore {
  setPasswordHash(userUuid: string, passwordHash: string): Promise<void>;
  /** Sets it only while the account has none; false when it had one. */
  setFirstPasswordHash(userUuid: string, passwordHash: string): Promise<boolean>;
}

export interface PasswordChangeDeps {
  users: Pick<UserStore, 'findByEmail' | 'findByUuid'>;
  passwords: PasswordStore;
  hasher: PasswordHasher;
  emails: Emails;
  links: LinkStore;
  grant(user: User): Promise<AccessGrant>;
  /** Ends the user's earlier sessions everywhere (domain/sessions.ts). */
  endSessions: EndSessions;
  mailer: Mailer;
  interval: SendInterval;
  logger: Logger;
  webUrl: string;
}

/** Changing, resetting (through a mailed link), setting and, for admins, overriding a password. */
export class PasswordChanges {
  constructor(private readonly deps: PasswordChangeDeps) {}

  /** The caller's own change; their other sessions end, and they get a new grant. */
  async change(userUuid: string, input: { email: string; password: string; newPassword: string }): Promise<AccessGrant> {
    const { users, hasher, emails, grant } = this.deps;
    if (!input.email || !input.password || !input.newPassword) throw badRequest('Email, password and new password are required');
    const user = await users.findByUuid(userUuid);
    if (!user?.email || user.email !== input.email.trim().toLowerCase())
      throw unauthorized(BAD_CREDENTIALS, ERROR_CODES.userBadCredentials);
    if (!(await emails.isVerified(user.uuid, user.email))) throw unauthorized(EMAIL_NOT_VERIFIED, ERROR_CODES.userEmailNotVerified);
    if (!user.passwordHash || !(await hasher.verify(user.passwordHash, input.password)))
      throw unauthorized(BAD_CREDENTIALS, ERROR_CODES.userBadCredentials);
    if (input.newPassword === input.password) throw badRequest(SAME_PASSWORD, ERROR_CODES.userPasswordUnchanged);
    checkPasswordPolicy(input.newPassword);
    await this.replace(user, input.newPassword);
    return grant(user);
  }

  /** Mails a reset link when the address is an account's; answers the same either way. */
  async forgot(emailInput: string): Promise<void> {
    const { users, links, mailer, interval, logger, webUrl } = this.deps;
    const email = normalizeEmail(emailInput);
    const user = await users.findByEmail(email);
    if (user?.kind !== 'user') return;
    if (!(await interval.pass(`password-reset:${user.uuid}`))) return;
    const token = newLinkToken();
    const expiresAt = minutesFrom(new Date(), RESET_LINK_TTL_MINUTES);
    await links.create({ tokenHash: secretHash(token), purpose: 'password-reset', userUuid: user.uuid, email, expiresAt });
    const link = linkUrl(webUrl, 'reset-password', token);
    sendInBackground(mailer, logger, passwordResetMail(email, link, RESET_LINK_TTL_MINUTES), 'password reset');
  }

  /** A new password by a reset link's token, once; the account's sessions end. */
  async reset(input: { token: string; newPassword: string }): Promise<void> {
    const { users, links, hasher, emails } = this.deps;
    const tokenHash = secretHash(input.token ?? '');
    const now = new Date();
    // Checked before the link is used, so a refused password does not spend it.
    const link = input.token ? await links.find(tokenHash, 'password-reset', now) : null;
    const user = link?.userUuid ? await users.findByUuid(link.userUuid) : null;
    if (!link || !user) throw forbidden(CANNOT_RESET, ERROR_CODES.userPasswordResetRefused);
    checkPasswordPolicy(input.newPassword ?? '');
    if (user.passwordHash && (await hasher.verify(user.passwordHash, input.newPassword)))
      throw badRequest(SAME_PASSWORD, ERROR_CODES.userPasswordUnchanged);
    if (!(await links.consume(tokenHash, 'password-reset', now))) throw forbidden(CANNOT_RESET, ERROR_CODES.userPasswordResetRefused);
    await this.replace(user, input.newPassword);
    // The link reached the mailbox: the address is proven.
    if (user.email === link.email) await emails.markVerified(user.uuid, link.email);
  }

  /** The first password of an account that signed up without one (magic link, phone). */
  async set(userUuid: string, password: string): Promise<void> {
    const { users, passwords, hasher } = this.deps;
    const user = await users.findByUuid(userUuid);
    if (user?.kind !== 'user') throw forbidden();
    if (user.passwordHash) throw forbidden(PASSWORD_ALREADY_SET);
    checkPasswordPolicy(password ?? '');
    if (!(await passwords.setFirstPasswordHash(user.uuid, await hasher.hash(password)))) throw forbidden(PASSWORD_ALREADY_SET);
  }

  /** An admin sets a user's password; the user's sessions end. */
  async changeByAdmin(callerRole: Role, input: { userUuid: string; newPassword: string }): Promise<void> {
    if (!isAdminRole(callerRole)) throw forbidden();
    const user = isUuid(input.userUuid) ? await this.deps.users.findByUuid(input.userUuid) : null;
    if (user?.kind !== 'user') throw notFound(PROFILE_NOT_FOUND, ERROR_CODES.userProfileNotFound);
    checkPasswordPolicy(input.newPassword ?? '');
    await this.replace(user, input.newPassword);
  }

  private async replace(user: User, password: string): Promise<void> {
    const { passwords, hasher, endSessions } = this.deps;
    await passwords.setPasswordHash(user.uuid, await hasher.hash(password));
    await endSessions(user.uuid);
  }
}
