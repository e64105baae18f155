import { forbidden, type Caller, type SessionRevocations, type SessionsEnded } from '@spinroom/platform';

/** Ends every session (token) of a user issued until now: BFF, services, open feed sockets and chat tokens refuse them. */
export type EndSessions = (userUuid: string) => Promise<void>;

/** The user service's own record of ended sessions, from which Redis's copy is written back when lost. */
export interface SessionEndingStore {
  /** Keeps the end (a later one than the user's last; an earlier one changes nothing). */
  record(ended: SessionsEnded): Promise<void>;
  /** Every user's last end after `since`. */
  endedSince(since: Date): Promise<SessionsEnded[]>;
}

/**
 * Revocable sessions in the user service. Password change or reset, a ban, a
 * deactivation and logout call `endSessions(userUuid)`; the check itself is
 * packages/platform's (SessionRevocations, run by every TokenVerifier). Each
 * end is recorded in PostgreSQL first, then in Redis: a Redis that lost its
 * data (a restart without persistence, a flush, an older snapshot) would
 * otherwise let ended tokens back in until they expire (`keepEndsInRedis`).
 */
export class Sessions {
  constructor(
    private readonly revocations: SessionRevocations,
    /** The longest life of a token the service issues: the "valid after" is kept that long. */
    private readonly longestTokenSeconds: number,
    private readonly endings: SessionEndingStore,
    /** The uuid of the user's bot, or null (domain/sessions/bots.ts). */
    private readonly botOf: (ownerUuid: string) => Promise<string | null> = async () => null,
  ) {}

  readonly endSessions: EndSessions = async (userUuid) => {
    const ended = { userUuid, validAfterMs: Date.now() };
    await this.endings.record(ended);
    await this.revocations.endSessions(userUuid, this.longestTokenSeconds, ended.validAfterMs);
  };

  /**
   * Writes the ends of the last token lifetime back to Redis when it lost them
   * (its marker is gone), or always when `always` (a periodic pass, for a
   * Redis restored from an older snapshot, which keeps the marker but not the
   * ends since). Answers how many were written back, or null when none had to be.
   */
  async keepEndsInRedis(always = false, now = new Date()): Promise<number | null> {
    if (!always && (await this.revocations.kept())) return null;
    const since = new Date(now.getTime() - this.longestTokenSeconds * 1000);
    return this.revocations.restore(await this.endings.endedSince(since), this.longestTokenSeconds, now.getTime());
  }

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
