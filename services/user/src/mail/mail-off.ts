import type { Logger } from '@spinroom/platform';
import type { Mailer, MailMessage } from '../domain/mail.js';

/**
 * Mail when no SMTP server is configured (SMTP_URL unset, as the chart leaves
 * it by default): nothing is sent, and each mail that would have gone is said
 * in the log by its subject (never its address, link or code).
 */
export class MailOff implements Mailer {
  constructor(private readonly logger: Logger) {}

  async send(message: MailMessage): Promise<void> {
    this.logger.warn({ subject: message.subject }, 'mail is off (SMTP_URL is not set): not sent');
  }

  close(): void {}
}
