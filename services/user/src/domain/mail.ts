/** One mail: plain text for every reader, simple HTML for those that show it. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Where the user service's mail goes. The implementation sends it over SMTP
 * (src/mail/smtp-mailer.ts); in development and tests Mailpit catches it.
 * Without an SMTP server nothing is sent (src/mail/mail-off.ts).
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
