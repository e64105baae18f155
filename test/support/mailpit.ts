import { eventually } from '@spinroom/platform/testing';

/**
 * Mail the services sent, read back from Mailpit (the mail catcher that
 * deploy/local/up.sh starts; `npm test` passes its address as MAILPIT_URL)
 * through its REST API: /api/v1/search and /api/v1/messages to find a mail,
 * /api/v1/message/{id} to read it.
 */
export function mailpitUrl(): string {
  const url = process.env.MAILPIT_URL;
  if (!url) throw new Error('Mailpit is not configured: run the tests with `npm test`, which starts it (deploy/local/up.sh).');
  return url;
}

export interface CaughtMail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

interface Summary {
  ID: string;
  Created: string;
}

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${mailpitUrl()}${path}`);
  if (!res.ok) throw new Error(`Mailpit ${path}: ${res.status}`);
  return (await res.json()) as T;
}

/** The ids of the mails to an address, oldest first. Test addresses are unique, so parallel test files do not see each other's mail. */
async function mailsTo(address: string): Promise<Summary[]> {
  const query = encodeURIComponent(`to:"${address}"`);
  const found = await getJson<{ messages: Summary[] }>(`/api/v1/search?query=${query}&limit=200`);
  return [...found.messages].reverse();
}

export async function readMail(id: string): Promise<CaughtMail> {
  const message = await getJson<{
    ID: string;
    From: { Address: string };
    To: Array<{ Address: string }>;
    Subject: string;
    Text: string;
    HTML: string;
  }>(`/api/v1/message/${id}`);
  return {
    id: message.ID,
    from: message.From.Address,
    to: message.To.map((t) => t.Address),
    subject: message.Subject,
    text: message.Text,
    html: message.HTML,
  };
}

/** An address's mailbox: `next()` waits for the next mail not yet taken (in the order they arrived). */
export function mailbox(address: string) {
  const taken = new Set<string>();
  return {
    async next(timeoutMs = 10_000): Promise<CaughtMail> {
      const summary = await eventually(async () => (await mailsTo(address)).find((m) => !taken.has(m.ID)), timeoutMs);
      taken.add(summary.ID);
      return readMail(summary.ID);
    },
    /** How many mails the address has received so far. */
    async count(): Promise<number> {
      return (await mailsTo(address)).length;
    },
  };
}

/** The six-digit code in a verification mail. */
export function codeIn(mail: CaughtMail): string {
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in mail "${mail.subject}"`);
  return code;
}

/** The token of the link in a mail (magic link, password reset): it travels in the fragment, the web client's hash route `#/<page>/<token>`. */
export function linkTokenIn(mail: CaughtMail): { url: URL; token: string } {
  const href = /https?:\/\/\S+/.exec(mail.text)?.[0];
  const url = href ? new URL(href) : undefined;
  const token = url && /^#\/(?:magic-link|reset-password)\/([^/]+)$/.exec(url.hash)?.[1];
  if (!url || !token) throw new Error(`no link in mail "${mail.subject}"`);
  return { url, token: decodeURIComponent(token) };
}
