import {
  ERROR_CODES,
  badRequest,
  forbidden,
  isUuid,
  notFound,
  unauthorized,
  type OutboxEntry,
  type Role,
  type TokenIssuer,
} from '@spinroom/platform';
import type { PasswordHasher } from './passwords.js';
import { checkPasswordPolicy } from './passwords.js';
import { accessRefusal } from './moderation/standing.js';
import { checkWearable, NO_CATALOGUE, type Wardrobe } from './profiles/wardrobe.js';
import { applyProfilePatch, checkNickname, defaultNickname, type ProfilePatch } from './profiles.js';
import { tokenRole, type User, type UserKind } from './user.js';

export interface NewAccount {
  kind: Exclude<UserKind, 'guest'>;
  email: string;
  /** Null for accounts that sign in another way (Discord). */
  passwordHash: string | null;
  nickname: string;
  roles: Role[];
}

/** Where accounts are kept. The database implementation lives in db/. */
export interface UserStore {
  findByEmail(email: string): Promise<User | null>;
  findByUuid(uuid: string): Promise<User | null>;
  /** What a session needs of the account: the hottest read, so no more than that. */
  findSession(uuid: string): Promise<Session | null>;
  findManyByUuid(uuids: string[]): Promise<User[]>;
  /** Inserts the account and its announcing event in one transaction; throws EmailTakenError on a duplicate. */
  createAccount(account: NewAccount, announce: (user: User) => OutboxEntry): Promise<User>;
  createGuest(): Promise<User>;
  saveProfile(user: User): Promise<User>;
  addRole(uuid: string, role: Role): Promise<void>;
}

/** The account behind a token, as the session path reports it. */
export type Session = Pick<User, 'uuid' | 'kind' | 'roles'>;

export class EmailTakenError extends Error {}

/**
 * A sign-up's address beyond the account row (domain/mail/emails.ts): refused
 * when another account has proven it, then pending with its code mailed.
 */
export interface SignUpAddresses {
  checkFree(email: string): Promise<void>;
  /** `byAdmin`: an admin created the account, so the address is taken as given (CREATED_BY_ADMIN, no code). */
  start(user: User, origin: SignUpOrigin): Promise<void>;
}

export type SignUpOrigin = 'self' | 'byAdmin';

export interface AccessGrant {
  accessToken: string;
  userUuid: string;
}

export const EMAIL_TAKEN = 'This email is already registered';
export const BAD_CREDENTIALS = 'Incorrect email or password';
export const PROFILE_NOT_FOUND = 'User profile not found';

export function normalizeEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  if (trimmed.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed)) throw badRequest('email must be an email');
  return trimmed;
}

/** Sign-up, login, guests and sessions: the account rules, over a store, a hasher and a token issuer. */
export class Accounts {
  constructor(
    private readonly store: UserStore,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenIssuer,
    private readonly announceSignUp: (user: User) => OutboxEntry,
    private readonly addresses: SignUpAddresses = { checkFree: async () => undefined, start: async () => undefined },
    private readonly wardrobe: Wardrobe = NO_CATALOGUE,
  ) {}

  /**
   * `create` stores the account: by default alone, for a voucher sign-up with
   * the voucher's redemption (domain/moderation/vouchers.ts); `origin` says
   * whether the person signs up or an admin does it for them.
   */
  async signUp(
    input: { email: string; password: string; nickname?: string },
    roles: Role[] = ['user'],
    create: (account: NewAccount, announce: (user: User) => OutboxEntry) => Promise<User> = (account, announce) =>
      this.store.createAccount(account, announce),
    origin: SignUpOrigin = 'self',
  ): Promise<AccessGrant> {
    if (!input.email || !input.password) throw badRequest('Sign-up requires email and password');
    const email = normalizeEmail(input.email);
    checkPasswordPolicy(input.password);
    const nickname = input.nickname ? checkNickname(input.nickname) : defaultNickname(email);
    // Cheap refusal before paying for a hash; the unique index still decides races.
    if (await this.store.findByEmail(email)) throw forbidden(EMAIL_TAKEN, ERROR_CODES.userEmailTaken);
    await this.addresses.checkFree(email);
    const passwordHash = await this.hasher.hash(input.password);
    try {
      const user = await create({ kind: 'user', email, passwordHash, nickname, roles }, this.announceSignUp);
      await this.addresses.start(user, origin);
      return await this.grant(user);
    } catch (error) {
      if (error instanceof EmailTakenError) throw forbidden(EMAIL_TAKEN, ERROR_CODES.userEmailTaken);
      throw error;
    }
  }

  async logIn(input: { email: string; password: string }): Promise<AccessGrant> {
    if (!input.email || !input.password) throw badRequest('Email or password is missing in request');
    const user = await this.store.findByEmail(input.email.trim().toLowerCase());
    const ok = user?.passwordHash
      ? await this.hasher.verify(user.passwordHash, input.password)
      : await this.hasher.verifyDecoy(input.password);
    if (!user || !ok) throw unauthorized(BAD_CREDENTIALS, ERROR_CODES.userBadCredentials);
    return this.grant(user);
  }

  /** Makes sure the platform's admin account exists (start-up seeding); an existing account keeps its password. */
  async ensureAdmin(input: { email: string; password: string; nickname: string }): Promise<{ created: boolean }> {
    const existing = await this.store.findByEmail(normalizeEmail(input.email));
    if (!existing) {
      await this.signUp(input, ['user', 'admin']);
      return { created: true };
    }
    if (!existing.roles.includes('admin')) await this.store.addRole(existing.uuid, 'admin');
    return { created: false };
  }

  async createGuest(): Promise<AccessGrant> {
    return this.grant(await this.store.createGuest());
  }

  /** The account behind a verified token; a 401 when it is gone. */
  async session(userUuid: string): Promise<Session> {
    const session = await this.store.findSession(userUuid);
    if (!session) throw unauthorized();
    return session;
  }

  async profile(userUuid: string): Promise<User> {
    const user = isUuid(userUuid) ? await this.store.findByUuid(userUuid) : null;
    if (!user) throw notFound(PROFILE_NOT_FOUND, ERROR_CODES.userProfileNotFound);
    return user;
  }

  async profiles(userUuids: string[]): Promise<User[]> {
    const unique = [...new Set(userUuids)].filter(isUuid);
    if (unique.length > 150) throw badRequest('At most 150 profiles can be read at once');
    const users = await this.store.findManyByUuid(unique);
    const byUuid = new Map(users.map((u) => [u.uuid, u]));
    return unique.flatMap((u) => byUuid.get(u) ?? []);
  }

  async updateProfile(userUuid: string, patch: ProfilePatch): Promise<User> {
    const user = await this.profile(userUuid);
    const next = applyProfilePatch(user, patch);
    await checkWearable(this.wardrobe, user, patch);
    return this.store.saveProfile(next);
  }

  /** A token for the account (also Discord sign-in's way in). */
  async grant(user: User): Promise<AccessGrant> {
    // Every way in ends here, so a ban or a deactivation refuses them all.
    const refusal = accessRefusal(user, new Date());
    if (refusal) throw forbidden(refusal);
    const accessToken = await this.tokens.sign({ sub: user.uuid, role: tokenRole(user), capabilities: user.capabilities });
    return { accessToken, userUuid: user.uuid };
  }
}
