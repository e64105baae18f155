import { forbidden, type Caller, type SessionRevocations } from '@spinroom/platform';

/** Ends every session (token) of a user issued until now: BFF, services, open feed sockets and chat tokens refuse them. */
export type EndSessions = (userUuid: string) => Promise<void>;

/**
 * Revocable sessions in the user service. Password change or reset, a ban, a
 * deactivation and logout call `endSessions(userUuid)`; the check itself is
 * packages/platform's (SessionRevocations, run by every TokenVerifier).
 */
export class Sessions {
  constructor(
    private readonly revocations: SessionRevocations,
    /** The longest life of a token the service issues: the "valid after" is kept that long. */
    private readonly longestTokenSeconds: number,
    /** The uuid of the user's bot, or null (domain/sessions/bots.ts). */
    private readonly botOf: (ownerUuid: string) => Promise<string | null> = async () => null,
  ) {}

  readonly endSessions: EndSessions = async (userUuid) => {
    await this.revocations.endSessions(userUuid, this.longestTokenSeconds);
  };

  /**
   * Ends the sessions of the user and of their bot. A ban, kick or
   * deactivation takes the account off the platform, and its bot acts for it
   * there with tokens the owner fetched. Logout and password changes end the
   * user's own sessions only: the bot is a separate login the owner keeps.
   */
  readonly endSessionsWithBot: EndSessions = async (userUuid) => {
    const bot = await this.botOf(userUuid);
    await Promise.all([this.endSessions(userUuid), bot ? this.endSessions(bot) : undefined]);
  };

  /**
   * Logout is "sign out everywhere": the caller's every token ends, not the
   * one presented alone. One rule for every end (a per-user "valid after")
   * keeps a session check at one cached Redis read; a per-token denylist would
   * add a read per token for a choice the web client does not offer.
   */
  async logOut(caller: Caller): Promise<void> {
    if (caller.kind === 'service') throw forbidden('Services have no session to end');
    await this.endSessions(caller.userUuid);
  }
}
