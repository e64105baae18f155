import type { NowPlaying, RoomState } from '../api/types';
import { fill, formatDate, useLocale, useT } from '../i18n/i18n';
import { GUEST_PROMPT_ID, GuestPrompt } from './GuestPrompt';
import { isDj, stageFull } from './roomState';

const EMOJI = ['🎉', '🔥', '❤️', '🙌'];

/** The room's toolbar: votes and the vibe, the seat and waitlist, skip, animations, volume, and what an action answered. */
export function RoomControls(props: {
  state: RoomState;
  nowPlaying: NowPlaying | null;
  userUuid: string | null;
  isLoggedIn: boolean;
  moderator: boolean;
  /** AFK warnings: DJ uuid -> when they leave the stage. */
  afk: Record<string, number>;
  actionError: string | undefined;
  volume: number;
  onVolume: (volume: number) => void;
  run: (name: string, params?: Record<string, unknown>) => void;
}) {
  const t = useT();
  const locale = useLocale();
  const { state, nowPlaying, userUuid, isLoggedIn, moderator, afk, actionError, volume, onVolume, run } = props;
  const amDj = isDj(state, userUuid);
  const onWaitlist = !!state.waitlist?.includes(userUuid ?? '');
  const myVote = userUuid ? state.allUserData[userUuid]?.songVotes : undefined;
  const playingDj = state.djs[0]?.uuid;
  // A guest's disabled controls point at the note that says why.
  const why = isLoggedIn ? undefined : GUEST_PROMPT_ID;

  return (
    <div className="controls" role="toolbar" aria-label={t.roomControls}>
      {!isLoggedIn && <GuestPrompt />}
      <div className="votes">
        <button
          type="button"
          className="vote up"
          aria-pressed={myVote?.like === true}
          disabled={!nowPlaying || !isLoggedIn}
          aria-describedby={why}
          onClick={() => run('voteOnSong', { songVotes: { like: true } })}
        >
          <span aria-hidden="true">👍</span> <span className="label">{t.awesome}</span>{' '}
          <span data-testid="likes">{state.voteCounts.likes}</span>
        </button>
        <button
          type="button"
          className="vote down"
          aria-pressed={myVote?.like === false}
          disabled={!nowPlaying || !isLoggedIn}
          aria-describedby={why}
          onClick={() => run('voteOnSong', { songVotes: { like: false } })}
        >
          <span aria-hidden="true">👎</span> <span className="label">{t.lame}</span>{' '}
          <span data-testid="dislikes">{state.voteCounts.dislikes}</span>
        </button>
        <button
          type="button"
          className="vote star"
          aria-pressed={myVote?.star === true}
          disabled={!nowPlaying || !isLoggedIn}
          aria-describedby={why}
          onClick={() => run('voteOnSong', { songVotes: { star: true } })}
        >
          ★ <span className="label">{t.star}</span> <span data-testid="stars">{state.voteCounts.stars}</span>
        </button>
        {/* biome-ignore lint/a11y/useSemanticElements: a styled bar; <meter> cannot hold the bar that draws it */}
        <div
          className="vibe"
          role="meter"
          aria-label={t.vibe}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(state.vibeMeter * 100)}
        >
          <div style={{ width: `${Math.round(state.vibeMeter * 100)}%` }} />
        </div>
      </div>
      <div className="seat">
        {amDj ? (
          <button type="button" onClick={() => run('removeDj', {})}>
            {t.leaveSeat}
          </button>
        ) : !stageFull(state) ? (
          <button type="button" className="primary" disabled={!isLoggedIn} aria-describedby={why} onClick={() => run('addDj', {})}>
            {t.takeSeat}
          </button>
        ) : onWaitlist ? (
          <button type="button" onClick={() => run('leaveWaitlist', {})}>
            {t.leaveWaitlist}
          </button>
        ) : (
          <button type="button" disabled={!isLoggedIn} aria-describedby={why} onClick={() => run('joinWaitlist', {})}>
            {t.joinWaitlist}
          </button>
        )}
        {nowPlaying && (playingDj === userUuid || moderator) && (
          <button type="button" onClick={() => run('skipSong', {})}>
            {t.skip}
          </button>
        )}
        <button type="button" className="jump" onClick={() => run('playOneTimeAnimation', { animation: 'jump' })}>
          <span aria-hidden="true">↑</span> <span className="label">{t.jump}</span>
        </button>
        {EMOJI.map((emoji) => (
          <button
            key={emoji}
            type="button"
            className="icon"
            aria-label={fill(t.emojiAnimation, { emoji })}
            onClick={() => run('playOneTimeAnimation', { animation: 'emoji', emoji })}
          >
            {emoji}
          </button>
        ))}
        <label className="volume">
          <span className="sr-only">{t.volume}</span>
          <span aria-hidden="true">🔈</span>
          <input type="range" min={0} max={1} step={0.05} value={volume} onChange={(e) => onVolume(Number(e.target.value))} />
        </label>
      </div>
      {actionError && (
        <p className="error" role="alert">
          {actionError}
        </p>
      )}
      {userUuid && afk[userUuid] && afk[userUuid] > Date.now() && (
        <p className="notice" role="status">
          {fill(t.afkUntil, { time: formatDate(afk[userUuid], 'time', locale) })}
        </p>
      )}
    </div>
  );
}
