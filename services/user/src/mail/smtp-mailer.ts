import { createTransport, type Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from '../domain/mail.js';

/** The user service's mail over SMTP with nodemailer (Mailpit in development and tests). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    // Pooled: a burst of sign-ups reuses a few connections instead of one each.
    this.transport = createTransport(`${smtpUrl}${smtpUrl.includes('?') ? '&' : '?'}pool=true`);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...message });
  }

  close(): void {
    this.transport.close();
  }
}
