import type { MikroORM } from '@mikro-orm/postgresql';
import type { createRedis, Logger } from '@spinroom/platform';
import type { UserServiceConfig } from '../config.js';
import { PgMailStore } from '../db/mail-store.js';
import type { Accounts, UserStore } from '../domain/accounts.js';
import { Emails } from '../domain/mail/emails.js';
import { MagicLinks } from '../domain/mail/magic-links.js';
import { PasswordChanges } from '../domain/mail/passwords.js';
import type { PasswordHasher } from '../domain/passwords.js';
import { defaultNickname } from '../domain/profiles.js';
import type { EndSessions } from '../domain/sessions.js';
import type { User } from '../domain/user.js';
import { userSignedUp } from '../events/user-events.js';
import { RedisSendInterval } from './send-interval.js';
import { MailOff } from './mail-off.js';
import { SmtpMailer } from './smtp-mailer.js';

/** The mail area's objects, over the service's database, Redis and SMTP server (wired in app.ts). */
export function buildMail(
  config: UserServiceConfig,
  deps: {
    orm: MikroORM;
    redis: ReturnType<typeof createRedis>;
    logger: Logger;
    accounts: Accounts;
    users: UserStore;
    hasher: PasswordHasher;
    endSessions: EndSessions;
  },
) {
  const { orm, redis, logger, accounts, users, hasher, endSessions } = deps;
  const store = new PgMailStore(orm);
  const mailer = config.SMTP_URL ? new SmtpMailer(config.SMTP_URL, config.MAIL_FROM) : new MailOff(logger);
  if (!config.SMTP_URL) logger.warn('SMTP_URL is not set: mail is off (verification codes, magic links and resets are not sent)');
  const interval = new RedisSendInterval(redis, config.MAIL_RESEND_INTERVAL_SECONDS);
  const emails = new Emails(store, users, mailer, interval, logger);
  const grant = (user: User) => accounts.grant(user);
  const common = { users, links: store, emails, grant, mailer, interval, logger, webUrl: config.WEB_URL };
  const createPasswordless = (email: string) =>
    users.createAccount({ kind: 'user', email, passwordHash: null, nickname: defaultNickname(email), roles: ['user'] }, userSignedUp);
  return {
    emails,
    magicLinks: new MagicLinks({ ...common, createPasswordless }),
    passwords: new PasswordChanges({ ...common, passwords: store, hasher, endSessions }),
    stop: () => mailer.close(),
  };
}
