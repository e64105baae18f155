/** What a mailed link is for. */
export type LinkPurpose = 'magic-link' | 'password-reset';

/** A link as the store keeps it: the hash of its token, never the token. */
export interface MailedLink {
  purpose: LinkPurpose;
  /** The account it opens; null for a magic link to an address with no account yet. */
  userUuid: string | null;
  email: string;
}

/** Where mailed links are kept (db/mail-store.ts): single use, until they expire. */
export interface LinkStore {
  create(link: MailedLink & { tokenHash: string; expiresAt: Date }): Promise<void>;
  /** The link if it is unused and unexpired, without using it. */
  find(tokenHash: string, purpose: LinkPurpose, now: Date): Promise<MailedLink | null>;
  /** Uses the link, once: answers it only to the first caller, if unused and unexpired. */
  consume(tokenHash: string, purpose: LinkPurpose, now: Date): Promise<MailedLink | null>;
}

export const MAGIC_LINK_TTL_MINUTES = 10;
export const RESET_LINK_TTL_MINUTES = 30;

/**
 * The web client's page that takes a link's token (WEB_URL is where people
 * open the client, `/` of the BFF): its hash route, `#/<page>/<token>`. The
 * token is in the fragment: browsers never send a fragment to a server, so no
 * access log, trace or Referer carries it.
 */
export function linkUrl(webUrl: string, page: 'magic-link' | 'reset-password', token: string): string {
  const url = new URL(webUrl);
  url.hash = `/${page}/${encodeURIComponent(token)}`;
  return url.toString();
}

export function minutesFrom(now: Date, minutes: number): Date {
  return new Date(now.getTime() + minutes * 60_000);
}
