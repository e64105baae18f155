import { forbidden, notFound, type Caller, type OutboxEntry, type TokenIssuer } from '@spinroom/platform';
import { checkAvatarId, checkNickname, normalizeColor } from '../profiles.js';
import { tokenRole, type User } from '../user.js';

/** A bot's profile as its owner gives it. */
export interface BotProfile {
  nickname: string;
  avatarId: string;
  color: string;
}

/** Where bots and their owners are kept. The database implementation lives in db/. */
export interface BotStore {
  /** The owner's bot, or null. */
  findBotOf(ownerUuid: string): Promise<User | null>;
  /**
   * Creates the bot (a user of kind bot), links it to its owner and stages its
   * announcement, in one transaction; throws BotTakenError when the owner has one.
   */
  createBot(ownerUuid: string, profile: BotProfile, announce: (bot: User) => OutboxEntry): Promise<User>;
}

export class BotTakenError extends Error {}

export const BOT_TAKEN = 'You already have a bot';
export const NO_BOT = 'You have no bot yet';
export const BOTS_ARE_FOR_USERS = 'Only signed-in users can have a bot';

/**
 * Bots (../shared/ORIGINAL-API.md): one per user, a user of kind bot whose
 * token has role `bot` and its own uuid as `sub`. Its owner asks for its token.
 */
export class Bots {
  constructor(
    private readonly store: BotStore,
    private readonly tokens: TokenIssuer,
    private readonly announceSignUp: (bot: User) => OutboxEntry,
  ) {}

  async signUp(caller: Caller, input: { botNickName: string; avatarId: string; color: string }): Promise<User> {
    const owner = requireUser(caller);
    const profile: BotProfile = {
      nickname: checkNickname(input.botNickName),
      avatarId: checkAvatarId(input.avatarId),
      color: normalizeColor(input.color),
    };
    // Cheap refusal first; the owner's key in the bots table decides races.
    if (await this.store.findBotOf(owner)) throw forbidden(BOT_TAKEN);
    try {
      return await this.store.createBot(owner, profile, this.announceSignUp);
    } catch (error) {
      if (error instanceof BotTakenError) throw forbidden(BOT_TAKEN);
      throw error;
    }
  }

  /** A fresh token for the caller's bot. The original also answers `codeSyncNewUser`; Spinroom has no code sync, so it is empty. */
  async token(caller: Caller): Promise<{ accessToken: string; codeSyncNewUser: string }> {
    const bot = await this.store.findBotOf(requireUser(caller));
    if (!bot) throw notFound(NO_BOT);
    const accessToken = await this.tokens.sign({ sub: bot.uuid, role: tokenRole(bot), capabilities: bot.capabilities });
    return { accessToken, codeSyncNewUser: '' };
  }
}

function requireUser(caller: Caller): string {
  if (caller.kind !== 'user') throw forbidden(BOTS_ARE_FOR_USERS);
  return caller.userUuid;
}
