import { env } from '@spinroom/platform/core';
import { z } from 'zod';

/** The mail area's environment (spread into the user service's config). */
export const mailConfig = {
  /**
   * Where mail goes out (nodemailer's URL form: smtp://user:pass@host:port, smtps:// for TLS); `npm start`
   * and the tests name their Mailpit. Unset: mail is off (logged, not sent).
   */
  SMTP_URL: env.url(['smtp', 'smtps']).optional(),
  /** The sender of every mail. */
  MAIL_FROM: z.string().min(3).default('Spinroom <no-reply@spinroom.local>'),
  /** Where people open the web client: mailed links point to its pages (/magic-link, /reset-password). */
  WEB_URL: env.url(['http', 'https']).default('http://localhost:8080'),
  /** Minimum time between two mails of one kind to one address (verification codes, magic links, resets). */
  MAIL_RESEND_INTERVAL_SECONDS: z.coerce.number().int().positive().default(60),
};
