import { ERROR_CODES, badRequest, forbidden, notFound, type Logger } from '@spinroom/platform';
import { EMAIL_TAKEN, normalizeEmail, type SignUpOrigin, type UserStore } from '../accounts.js';
import type { Mailer } from '../mail.js';
import type { User } from '../user.js';
import { newVerificationCode, secretHash } from './secrets.js';
import { verificationCodeMail } from './templates.js';

export const EMAIL_TYPES = ['personal', 'work', 'payment', 'spotify', 'discord'] as const;
export type EmailType = (typeof EMAIL_TYPES)[number];
export const EMAIL_STATUSES = ['PENDING_VERIFICATION', 'VERIFIED', 'DELETED', 'CREATED_BY_ADMIN'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export const EMAIL_NOT_FOUND = 'Email not found';
export const INCORRECT_CODE = 'Email verification failed, incorrect code';
export const ALREADY_VERIFIED = 'This email is verified';
export const TOO_SOON = 'The minimum time has not yet elapsed since the last e-mail was sent';
export const SIGN_IN_EMAIL_KEPT = 'The email you sign in with can not be deleted';

/** Wrong codes an address takes before its code stops working (a new one must be sent): 6 digits are not guessed in 5 tries. */
export const MAX_CODE_ATTEMPTS = 5;
/** How long a mailed code works. */
export const CODE_TTL_MS = 24 * 3600 * 1000;

/** One of an account's addresses. */
export interface AccountEmail {
  id: number;
  userUuid: string;
  email: string;
  type: EmailType;
  status: EmailStatus;
  createdAt: Date;
  verifiedAt: Date | null;
}

/** An address counts as proven when verified by its code or created by an admin. */
export function isVerified(email: Pick<AccountEmail, 'status'>): boolean {
  return email.status === 'VERIFIED' || email.status === 'CREATED_BY_ADMIN';
}

export class EmailInUseError extends Error {}

/** Where addresses are kept (db/mail-store.ts). A live address (not DELETED) belongs to one account. */
export interface EmailStore {
  /** The account's addresses, deleted ones left out, oldest first. */
  list(userUuid: string): Promise<AccountEmail[]>;
  /** The live (not deleted) row of an address, on whichever account. */
  findLive(email: string): Promise<AccountEmail | null>;
  /**
   * Throws EmailInUseError when the address is live on any account. With
   * `takeOver`, other accounts' unproven (pending) claims to it are deleted first.
   */
  add(
    input: { userUuid: string; email: string; type: EmailType; status: EmailStatus; code: { hash: string; expiresAt: Date } | null },
    options?: { takeOver?: boolean },
  ): Promise<AccountEmail>;
  /** A new code for a pending address: the wrong attempts start again. */
  setCode(id: number, code: { hash: string; expiresAt: Date }): Promise<void>;
  markDeleted(id: number): Promise<void>;
  /** Verifies the account's pending address whose live code this is, at most MAX_CODE_ATTEMPTS wrong tries in; null when none. */
  verifyByCode(userUuid: string, codeHash: string, now: Date): Promise<AccountEmail | null>;
  /** Counts a wrong code against every pending address of the account. */
  countWrongCode(userUuid: string): Promise<void>;
  /** Marks an address VERIFIED (a magic link or a reset link proved the mailbox). */
  markVerified(userUuid: string, email: string, now: Date): Promise<void>;
}

/** At most one mail per key in an interval (Redis; src/mail/send-interval.ts). */
export interface SendInterval {
  /** True, and the interval starts, when the last mail for the key is old enough. */
  pass(key: string): Promise<boolean>;
}

/** Sends a mail without making the caller wait for the SMTP server, so an answer takes the same time whatever was sent. */
export function sendInBackground(mailer: Mailer, logger: Logger, message: Parameters<Mailer['send']>[0], kind: string): void {
  // Never the message itself in the log: it carries a code or a link.
  mailer.send(message).catch((error: unknown) => logger.error({ err: error, mail: kind }, 'mail not sent'));
}

/** An account's email addresses: adding, deleting, and proving each with a mailed code. */
export class Emails {
  constructor(
    private readonly store: EmailStore,
    private readonly users: Pick<UserStore, 'findByEmail'>,
    private readonly mailer: Mailer,
    private readonly interval: SendInterval,
    private readonly logger: Logger,
  ) {}

  list(userUuid: string): Promise<AccountEmail[]> {
    return this.store.list(userUuid);
  }

  async add(userUuid: string, input: { email: string; type: string }): Promise<AccountEmail> {
    try {
      return await this.addOwn(userUuid, input);
    } catch (error) {
      if (error instanceof EmailInUseError) throw forbidden(EMAIL_TAKEN, ERROR_CODES.userEmailTaken);
      throw error;
    }
  }

  private async addOwn(userUuid: string, input: { email: string; type: string }): Promise<AccountEmail> {
    const type = parseEmailType(input.type);
    const email = normalizeEmail(input.email);
    // Another account's sign-in address is theirs, proven or not.
    const account = await this.users.findByEmail(email);
    if (account && account.uuid !== userUuid) throw forbidden(EMAIL_TAKEN, ERROR_CODES.userEmailTaken);
    return this.addPending(userUuid, email, type);
  }

  /** A sign-up may take an address that another account claims but has not proven. */
  async checkFree(email: string): Promise<void> {
    const live = await this.store.findLive(email);
    if (live && isVerified(live)) throw forbidden(EMAIL_TAKEN, ERROR_CODES.userEmailTaken);
  }

  /**
   * A new account's sign-in address: pending until its code comes back, or as
   * given (CREATED_BY_ADMIN) when an admin made the account. It takes the
   * address over from other accounts' pending claims.
   */
  async startAccount(user: Pick<User, 'uuid' | 'email'>, origin: SignUpOrigin = 'self'): Promise<void> {
    if (!user.email) return;
    try {
      if (origin === 'byAdmin') {
        const given = {
          userUuid: user.uuid,
          email: user.email,
          type: 'personal' as const,
          status: 'CREATED_BY_ADMIN' as const,
          code: null,
        };
        await this.store.add(given, { takeOver: true });
      } else {
        await this.addPending(user.uuid, user.email, 'personal', { takeOver: true });
      }
    } catch (error) {
      // Verified as another account's extra address: the account stands, its address stays unproven here.
      if (!(error instanceof EmailInUseError)) throw error;
      this.logger.warn({ userUuid: user.uuid }, 'sign-in address is verified on another account');
    }
  }

  async delete(user: Pick<User, 'uuid' | 'email'>, id: number): Promise<void> {
    const email = (await this.store.list(user.uuid)).find((e) => e.id === id);
    if (!email) throw notFound(EMAIL_NOT_FOUND);
    if (email.email === user.email) throw forbidden(SIGN_IN_EMAIL_KEPT);
    await this.store.markDeleted(email.id);
  }

  async verify(userUuid: string, code: string): Promise<AccountEmail> {
    const trimmed = code.trim();
    const verified = /^\d{6}$/.test(trimmed) ? await this.store.verifyByCode(userUuid, secretHash(trimmed), new Date()) : null;
    if (verified) return verified;
    await this.store.countWrongCode(userUuid);
    throw forbidden(INCORRECT_CODE, ERROR_CODES.userEmailCodeWrong);
  }

  /** Mails a new code to one of the caller's pending addresses, no more often than the interval allows. */
  async resend(userUuid: string, emailInput: string): Promise<void> {
    const email = (await this.store.list(userUuid)).find((e) => e.email === emailInput.trim().toLowerCase());
    if (!email) throw notFound(EMAIL_NOT_FOUND);
    if (isVerified(email)) throw forbidden(ALREADY_VERIFIED, ERROR_CODES.userEmailVerified);
    if (!(await this.interval.pass(`verify:${email.id}`))) throw forbidden(TOO_SOON, ERROR_CODES.userEmailTooSoon);
    const code = newVerificationCode();
    await this.store.setCode(email.id, { hash: secretHash(code), expiresAt: new Date(Date.now() + CODE_TTL_MS) });
    sendInBackground(this.mailer, this.logger, verificationCodeMail(email.email, code), 'verification code');
  }

  async isVerified(userUuid: string, email: string): Promise<boolean> {
    return (await this.store.list(userUuid)).some((e) => e.email === email && isVerified(e));
  }

  /** A link that reached the mailbox proved the address (magic link, password reset). */
  async markVerified(userUuid: string, email: string): Promise<void> {
    try {
      await this.store.markVerified(userUuid, email, new Date());
    } catch (error) {
      if (!(error instanceof EmailInUseError)) throw error;
      this.logger.warn({ userUuid }, 'address proven by a link is verified on another account');
    }
  }

  private async addPending(userUuid: string, email: string, type: EmailType, options: { takeOver?: boolean } = {}): Promise<AccountEmail> {
    const code = newVerificationCode();
    const pending = { userUuid, email, type, status: 'PENDING_VERIFICATION' as const };
    const added = await this.store.add(
      { ...pending, code: { hash: secretHash(code), expiresAt: new Date(Date.now() + CODE_TTL_MS) } },
      options,
    );
    await this.interval.pass(`verify:${added.id}`); // the first mail counts for the resend interval
    sendInBackground(this.mailer, this.logger, verificationCodeMail(email, code), 'verification code');
    return added;
  }
}

export function parseEmailType(type: string): EmailType {
  if (!(EMAIL_TYPES as readonly string[]).includes(type)) throw badRequest(`type must be one of ${EMAIL_TYPES.join(', ')}`);
  return type as EmailType;
}
