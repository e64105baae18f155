import { ERROR_CODES, badRequest, conflict, forbidden, type OutboxEntry } from '@spinroom/platform';
import { type AccessGrant, type Accounts, EMAIL_TAKEN, EmailTakenError, normalizeEmail, type UserStore } from '../accounts.js';
import { defaultNickname, NICKNAME_MAX_LENGTH } from '../profiles.js';
import type { User } from '../user.js';

/** The Discord account behind an authorization code (GET /users/@me). */
export interface DiscordUser {
  id: string;
  username: string;
  globalName: string | null;
  /** With the `email` scope only. */
  email: string | null;
  verified: boolean;
}

/** Discord's OAuth: code -> the Discord user. 400 for a refused code, 502 for other failures, 503 unconfigured. */
export interface DiscordOAuth {
  userFromCode(input: { code: string; redirectUri: string }): Promise<DiscordUser>;
}

export class DiscordTakenError extends Error {}

/** The Discord side of accounts (the `discord_id` column). */
export interface DiscordAccountStore {
  findUserUuidByDiscordId(discordId: string): Promise<string | null>;
  /** Sets the account's Discord id, `discord` (username) and `discordNickname`; DiscordTakenError when another account has that id. */
  link(userUuid: string, discord: DiscordUser): Promise<void>;
}

export const DISCORD_TAKEN = 'This Discord account is linked to another user';
export const DISCORD_NO_EMAIL = 'Discord did not share a verified email address';

function checkCode(input: { code: string; redirectUri: string }): { code: string; redirectUri: string } {
  const code = input.code.trim();
  if (!/^[\x21-\x7E]{1,512}$/.test(code)) throw badRequest('code must be a Discord authorization code');
  if (!/^[a-z][a-z0-9+.-]*:\S{1,2000}$/i.test(input.redirectUri)) throw badRequest('redirectUri must be a URI');
  return { code, redirectUri: input.redirectUri };
}

/**
 * Discord sign-in: a Discord account signs in the user it is linked to, or
 * signs up a new user with Discord's verified email. An email that already has
 * an account is refused (sign in and link instead): an address is not proof
 * that the Discord account and the Spinroom account are the same person's.
 */
export class DiscordAccounts {
  constructor(
    private readonly discord: DiscordOAuth,
    private readonly links: DiscordAccountStore,
    private readonly users: UserStore,
    private readonly accounts: Accounts,
    private readonly announceSignUp: (user: User) => OutboxEntry,
  ) {}

  async signIn(input: { code: string; redirectUri: string }): Promise<{ grant: AccessGrant; created: boolean }> {
    const discordUser = await this.discord.userFromCode(checkCode(input));
    const linked = await this.links.findUserUuidByDiscordId(discordUser.id);
    if (linked) return { grant: await this.accounts.grant(await this.accounts.profile(linked)), created: false };
    if (!discordUser.email || !discordUser.verified) throw badRequest(DISCORD_NO_EMAIL);
    const email = normalizeEmail(discordUser.email);
    if (await this.users.findByEmail(email)) throw forbidden(EMAIL_TAKEN, ERROR_CODES.userEmailTaken);
    let user: User;
    try {
      user = await this.users.createAccount(
        { kind: 'user', email, passwordHash: null, nickname: nicknameOf(discordUser, email), roles: ['user'] },
        this.announceSignUp,
      );
    } catch (error) {
      if (error instanceof EmailTakenError) throw forbidden(EMAIL_TAKEN, ERROR_CODES.userEmailTaken);
      throw error;
    }
    await this.linkTo(user.uuid, discordUser);
    return { grant: await this.accounts.grant(user), created: true };
  }

  /** The Discord user behind a code, nothing stored. */
  async exchange(input: { code: string; redirectUri: string }): Promise<DiscordUser> {
    return this.discord.userFromCode(checkCode(input));
  }

  async link(userUuid: string, input: { code: string; redirectUri: string }): Promise<User> {
    const discordUser = await this.discord.userFromCode(checkCode(input));
    await this.linkTo(userUuid, discordUser);
    return this.accounts.profile(userUuid);
  }

  private async linkTo(userUuid: string, discordUser: DiscordUser): Promise<void> {
    try {
      await this.links.link(userUuid, discordUser);
    } catch (error) {
      if (error instanceof DiscordTakenError) throw conflict(DISCORD_TAKEN);
      throw error;
    }
  }
}

/** The Discord display name when it fits a nickname, else the username, else one from the email. */
function nicknameOf(discordUser: DiscordUser, email: string): string {
  for (const name of [discordUser.globalName, discordUser.username]) {
    const trimmed = name?.trim();
    if (trimmed && trimmed.length <= NICKNAME_MAX_LENGTH) return trimmed;
  }
  return defaultNickname(email);
}
