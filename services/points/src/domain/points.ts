/**
 * How points are earned in rooms (services/points/README.md, "Points"): a DJ
 * earns a point for each up-vote on their song and a point for a play heard
 * by at least one other listener, and nothing that can be farmed counts: not
 * guests, not bots, not the DJ's own vote, not accounts younger than
 * `minAccountAgeMs`, not votes cast (or listening) before `minListenMs` after
 * the song started or the voter joined, whichever was later.
 */

/** What the points service knows of a user from `user.signed-up`. */
export interface SignUp {
  /** "user" or "bot". */
  kind: string;
  signedUpAt: Date;
}

/** One person hearing a song when it ended (room-events SongPlayed's audience). */
export interface Listener {
  userUuid: string;
  tokenRole: string;
  listeningSince: Date;
  likedAt?: Date;
}

export interface PlayFacts {
  playId: string;
  roomSlug: string;
  djUuid: string;
  startedAt: Date;
  endedAt: Date;
  audience: Listener[];
}

export interface EarningRules {
  /** How long someone must have heard the song before their vote (or their listening) counts. */
  minListenMs: number;
  /** How old an account must be when it votes (or listens) to count. */
  minAccountAgeMs: number;
}

/** What a play earns its DJ: one point per counted up-vote, one for being heard. */
export interface PlayPoints {
  upVotes: number;
  heard: boolean;
  /** Whose up-votes counted. */
  voters: string[];
}

/**
 * The kinds of point rows: earned from a play (one `upvotes` and one `play`
 * row per play, one `listen` row per listener and play), or given by an
 * admin or a service.
 */
export type PointKind = 'upvotes' | 'play' | 'listen' | 'admin' | 'service';

/** Whether a person counts at `at`: signed up as a person (not a guest, not a bot), old enough, not the DJ. */
function counts(play: PlayFacts, listener: Listener, signUps: ReadonlyMap<string, SignUp>, rules: EarningRules, at: Date): boolean {
  if (listener.userUuid === play.djUuid || listener.tokenRole === 'guest') return false;
  const signUp = signUps.get(listener.userUuid);
  if (signUp?.kind !== 'user') return false;
  return at.getTime() - signUp.signedUpAt.getTime() >= rules.minAccountAgeMs;
}

const listenedEnough = (listener: Listener, until: Date, rules: EarningRules) =>
  until.getTime() - listener.listeningSince.getTime() >= rules.minListenMs;

/** Who heard the play by its end as the rule counts people: signed up, old enough, not the DJ, long enough. */
export function countedListeners(play: PlayFacts, signUps: ReadonlyMap<string, SignUp>, rules: EarningRules): string[] {
  const heard = play.audience.filter(
    (listener) => counts(play, listener, signUps, rules, play.endedAt) && listenedEnough(listener, play.endedAt, rules),
  );
  return [...new Set(heard.map((listener) => listener.userUuid))];
}

/** The rule, as a plain function of the play, what is known of its listeners' sign-ups and the settings. */
export function pointsForPlay(play: PlayFacts, signUps: ReadonlyMap<string, SignUp>, rules: EarningRules): PlayPoints {
  const voters = new Set<string>();
  for (const listener of play.audience) {
    if (listener.likedAt && counts(play, listener, signUps, rules, listener.likedAt) && listenedEnough(listener, listener.likedAt, rules)) {
      voters.add(listener.userUuid);
    }
  }
  return { upVotes: voters.size, heard: countedListeners(play, signUps, rules).length > 0, voters: [...voters] };
}

/**
 * A listener's own word that they played a song (`play-tracking`, spec 002's
 * play tracking record) earns its DJ a `listen` point only when it says 30
 * seconds were played with the sound on, and only for a listener the room
 * service counted in that play's audience (countedListeners): a report alone,
 * for a play the listener was not in or never happened, earns nothing.
 */
export function reportEarns(report: { thirtySeconds: boolean; volumeStart: number; volumeEnd: number }): boolean {
  return report.thirtySeconds && (report.volumeStart > 0 || report.volumeEnd > 0);
}
