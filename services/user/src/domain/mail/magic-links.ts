import { ERROR_CODES, unauthorized, type Logger } from '@spinroom/platform';
import { EmailTakenError, normalizeEmail, type AccessGrant, type UserStore } from '../accounts.js';
import type { Mailer } from '../mail.js';
import type { User } from '../user.js';
import { sendInBackground, type Emails, type SendInterval } from './emails.js';
import { linkUrl, MAGIC_LINK_TTL_MINUTES, minutesFrom, type LinkStore } from './links.js';
import { newLinkToken, secretHash } from './secrets.js';
import { magicLinkMail } from './templates.js';

export const INVALID_LINK = 'This link is invalid or has expired';

export interface MagicLinkDeps {
  links: LinkStore;
  users: Pick<UserStore, 'findByEmail' | 'findByUuid'>;
  /** Creates an account with no password for a proven address (db, with its sign-up event). */
  createPasswordless(email: string): Promise<User>;
  emails: Emails;
  grant(user: User): Promise<AccessGrant>;
  mailer: Mailer;
  interval: SendInterval;
  logger: Logger;
  webUrl: string;
}

/** Sign-in by a mailed link: single use, MAGIC_LINK_TTL_MINUTES; an unknown address gets an account when its link is opened. */
export class MagicLinks {
  constructor(private readonly deps: MagicLinkDeps) {}

  /** Answers the same whether the address has an account or not, and whether or not a link was sent. */
  async request(emailInput: string): Promise<void> {
    const { links, users, mailer, interval, logger, webUrl } = this.deps;
    const email = normalizeEmail(emailInput);
    // One link per address per interval: the endpoint is public, the mailbox is someone's.
    if (!(await interval.pass(`magic-link:${email}`))) return;
    const user = await users.findByEmail(email);
    if (user && user.kind !== 'user') return;
    const token = newLinkToken();
    const expiresAt = minutesFrom(new Date(), MAGIC_LINK_TTL_MINUTES);
    await links.create({ tokenHash: secretHash(token), purpose: 'magic-link', userUuid: user?.uuid ?? null, email, expiresAt });
    const link = linkUrl(webUrl, 'magic-link', token);
    sendInBackground(mailer, logger, magicLinkMail(email, link, MAGIC_LINK_TTL_MINUTES), 'magic link');
  }

  async validate(token: string): Promise<AccessGrant> {
    const { links, users, emails, grant } = this.deps;
    const link = token ? await links.consume(secretHash(token), 'magic-link', new Date()) : null;
    if (!link) throw unauthorized(INVALID_LINK, ERROR_CODES.userLinkInvalid);
    const user = (link.userUuid ? await users.findByUuid(link.userUuid) : null) ?? (await this.accountFor(link.email));
    // Opening the link proved the mailbox.
    if (user.email === link.email) await emails.markVerified(user.uuid, link.email);
    return grant(user);
  }

  private async accountFor(email: string): Promise<User> {
    const { users, createPasswordless } = this.deps;
    const existing = await users.findByEmail(email);
    if (existing) return existing;
    try {
      return await createPasswordless(email);
    } catch (error) {
      if (!(error instanceof EmailTakenError)) throw error;
      // Signed up meanwhile (another link, or a sign-up): that account is the one.
      const account = await users.findByEmail(email);
      if (!account) throw error;
      return account;
    }
  }
}
