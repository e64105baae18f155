import { createHmac } from 'node:crypto';
import { badRequest, unavailable } from '@spinroom/platform/core';
import { requireAdmin, requireMember, requireUserUuid, type Actor, type Page, type Paged } from './actors.js';

export type ContactKind = 'phone' | 'email';

export interface StoredContact {
  id: string;
  kind: ContactKind;
  createdAt: Date;
}

export interface HashedContact {
  kind: ContactKind;
  hash: string;
}

export interface ContactMatch {
  userUuid: string;
  kind: ContactKind;
  isFriend: boolean;
  pendingInvitationId: string | null;
  invitedByCaller: boolean;
}

export interface ContactStore {
  /** Stores the owner's hashes (replacing the book when asked); answers how many were new and how many the owner has. */
  store(ownerUuid: string, contacts: HashedContact[], replace: boolean, now: Date): Promise<{ stored: number; total: number }>;
  deleteAll(ownerUuid: string): Promise<number>;
  list(ownerUuid: string, page: Page): Promise<Paged<StoredContact>>;
  /**
   * The users (other than the owner, and none blocked either way) whose
   * directory hashes are in the owner's book or among `extra`, with the
   * owner's friendship and pending invitation.
   */
  match(ownerUuid: string, extra: HashedContact[]): Promise<ContactMatch[]>;
}

/** At most this many identifiers in one request: an address book, not a directory scrape. */
export const MAX_CONTACTS_PER_REQUEST = 5000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An email as matched: trimmed and lower-cased; undefined when it is not one. */
export function normaliseEmail(value: string): string | undefined {
  const email = value.trim().toLowerCase();
  return email.length <= 320 && EMAIL.test(email) ? email : undefined;
}

/**
 * A phone number as matched: its digits, international (E.164, a leading
 * `+`; a `00` prefix is read as `+`); undefined when it has not 8 to 15
 * digits. A number without its country code is kept as dialled (digits only),
 * which matches only the same national form.
 */
export function normalisePhone(value: string): string | undefined {
  const trimmed = value.trim();
  if (!/^[+\d\s().\-/]+$/.test(trimmed)) return undefined;
  let digits = trimmed.replace(/\D/g, '');
  let international = trimmed.startsWith('+');
  if (!international && digits.startsWith('00')) {
    digits = digits.slice(2);
    international = true;
  }
  if (digits.length < 8 || digits.length > 15) return undefined;
  return international ? `+${digits}` : digits;
}

/** HMAC-SHA256 of a normalised identifier under the deployment's secret, hex: all that is kept of it. */
export class ContactHasher {
  constructor(private readonly secret: string) {}

  hash(kind: ContactKind, normalised: string): string {
    return createHmac('sha256', this.secret).update(`${kind}:${normalised}`).digest('hex');
  }
}

export interface ContactInput {
  phoneNumbers: string[];
  emails: string[];
}

/** Every identifier of an address book, normalised and hashed, each once; those that are neither phone nor email are counted as skipped. */
export function hashContacts(hasher: ContactHasher, contacts: ContactInput[]): { hashed: HashedContact[]; skipped: number } {
  const seen = new Map<string, HashedContact>();
  let skipped = 0;
  let count = 0;
  for (const contact of contacts) {
    count += contact.phoneNumbers.length + contact.emails.length;
    if (count > MAX_CONTACTS_PER_REQUEST) throw badRequest(`At most ${MAX_CONTACTS_PER_REQUEST} phone numbers and emails at once`);
    for (const [kind, values, normalise] of [
      ['phone', contact.phoneNumbers, normalisePhone],
      ['email', contact.emails, normaliseEmail],
    ] as const) {
      for (const value of values) {
        const normalised = normalise(value);
        if (normalised === undefined) {
          skipped += 1;
          continue;
        }
        const hash = hasher.hash(kind, normalised);
        seen.set(hash, { kind, hash });
      }
    }
  }
  return { hashed: [...seen.values()], skipped };
}

/**
 * User book contacts: a member's address book is kept only as HMACs of its
 * normalised phone numbers and emails, and matched against the users'
 * directory (their own emails, hashed the same way). Without the
 * deployment's secret every call answers 503.
 */
export class Contacts {
  constructor(
    private readonly store: ContactStore,
    private readonly hasher: ContactHasher | undefined,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private requireHasher(): ContactHasher {
    if (!this.hasher) throw unavailable('Contacts are not available');
    return this.hasher;
  }

  async save(actor: Actor, contacts: ContactInput[], replace: boolean) {
    const hasher = this.requireHasher();
    requireMember(actor);
    const { hashed, skipped } = hashContacts(hasher, contacts);
    const { stored, total } = await this.store.store(actor.userUuid, hashed, replace, this.now());
    return { stored, total, skipped };
  }

  deleteAll(actor: Actor): Promise<number> {
    this.requireHasher();
    return this.store.deleteAll(actor.userUuid);
  }

  list(actor: Actor, page: Page): Promise<Paged<StoredContact>> {
    this.requireHasher();
    return this.store.list(actor.userUuid, page);
  }

  adminList(actor: Actor, userUuid: string, page: Page): Promise<Paged<StoredContact>> {
    this.requireHasher();
    requireAdmin(actor);
    return this.store.list(requireUserUuid(userUuid), page);
  }

  match(actor: Actor, contacts: ContactInput[]): Promise<ContactMatch[]> {
    const hasher = this.requireHasher();
    requireMember(actor);
    return this.store.match(actor.userUuid, hashContacts(hasher, contacts).hashed);
  }

  /** A signed-up user's email as the directory keeps it (user-events); none without the secret or a readable email. */
  directoryEntry(email: string): HashedContact | undefined {
    const normalised = normaliseEmail(email);
    if (!this.hasher || !normalised) return undefined;
    return { kind: 'email', hash: this.hasher.hash('email', normalised) };
  }

  /** A user's sign-in number as the directory keeps it (user-events), hashed as address books' numbers are. */
  phoneDirectoryEntry(phone: string): HashedContact | undefined {
    const normalised = normalisePhone(phone);
    if (!this.hasher || !normalised) return undefined;
    return { kind: 'phone', hash: this.hasher.hash('phone', normalised) };
  }
}
