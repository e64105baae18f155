// The DJ booth: the song's artwork, title and artist, who plays it, a
// progress bar and the time left on the server's clock, and who is next
// (their song when it is known); why nothing plays when nothing can.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { NowPlaying as NowPlayingState, RoomState, Song } from '../api/types';
import { Avatar } from '../avatars/Avatar';
import type { Strings } from '../i18n/en';
import { fill, type Locale, useLocale, useT } from '../i18n/i18n';
import { nextUp, playingDj, secondsLeft } from '../stage/booth';
import { formatSeconds, playPosition, playProgress, type ServerClock } from './clock';
import { artwork, providerLabel } from './playback';
import type { PlayerReason, PlayerStatus } from './player';
import { openSignIn } from '../session/signInFrom';
import { nickname } from './roomState';

/** Why nothing plays, in the reader's language (the providers listed as the locale joins them). */
function reasonText(reason: PlayerReason | undefined, t: Strings, locale: Locale): string {
  if (!reason) return '';
  switch (reason.key) {
    case 'songNotPlayed':
    case 'previewLimitReached':
      return t[reason.key];
    case 'playbackFailed':
      return fill(t.playbackFailed[reason.failure], { provider: reason.provider });
    case 'songOnProviders': {
      const providers = reason.providers.length
        ? new Intl.ListFormat(locale, { type: 'conjunction' }).format(reason.providers)
        : t.outsideCatalogue;
      return fill(t.songOnProviders, { providers });
    }
  }
}

/**
 * What this listener hears the song on ("Playing on Apple Music"), or is
 * starting: on the line of the time left, so the booth grows no taller. The
 * compact booth of a phone leaves it out (room.css): there the chat box must
 * stay on the first screen.
 */
function HeardOn({ player, t }: { player: PlayerStatus; t: Strings }) {
  if (!player.provider || (player.state !== 'playing' && player.state !== 'loading')) return null;
  const provider = providerLabel(player.provider);
  const text = player.state === 'loading' ? t.startingOn : player.preview ? t.playingPreviewOn : t.playingOn;
  return (
    <span className="heard">
      <span aria-hidden="true"> · </span>
      <span className="heard-on" data-testid="heard-on" data-provider={player.provider} data-state={player.state}>
        {fill(text, { provider })}
      </span>
    </span>
  );
}

/** An anonymous visitor's free songs are used up: the way in (back to this room). */
function PreviewLimitPrompt({ t }: { t: Strings }) {
  const queryClient = useQueryClient();
  return (
    <div className="preview-limit notice" role="status">
      <p>{t.previewLimitReached}</p>
      <button
        type="button"
        className="primary"
        onClick={() => {
          queryClient.clear();
          openSignIn('signup');
        }}
      >
        {t.signUpToListen}
      </button>
    </div>
  );
}

/** A record in the song's colours when it has no artwork. */
export function SongArt({ song, size }: { song: Song | undefined; size: number }) {
  const art = song ? artwork(song) : undefined;
  if (art) return <img className="art" src={art} alt="" width={size} height={size} loading="lazy" />;
  let h = 0;
  for (const c of `${song?.trackName ?? ''}${song?.artistName ?? ''}`) h = (h * 31 + c.charCodeAt(0)) % 360;
  return (
    <span className="art vinyl" aria-hidden="true" style={{ width: size, height: size, ['--label' as string]: `hsl(${h} 80% 60%)` }} />
  );
}

function Person({ state, uuid }: { state: RoomState; uuid: string }) {
  const profile = state.allUserData[uuid]?.userProfile;
  return (
    <span className="booth-person">
      <Avatar avatarId={profile?.avatarId} color={profile?.color} seed={uuid} size={24} decorative />
      <strong>{nickname(state, uuid)}</strong>
    </span>
  );
}

function NextUpLine({ state }: { state: RoomState }) {
  const t = useT();
  const next = nextUp(state);
  return (
    <p className="next-up" data-testid="next-up">
      <span className="label">{t.nextUp}:</span>{' '}
      {next ? (
        <>
          <Person state={state} uuid={next.djUuid} />{' '}
          <span className="muted">
            {next.song
              ? `${next.song.trackName} — ${next.song.artistName}`
              : next.fromWaitlist
                ? `(${t.waitlist})`
                : `(${t.nextSongUnchosen})`}
          </span>
        </>
      ) : (
        <span className="muted">{t.nextUpNobody}</span>
      )}
    </p>
  );
}

export function NowPlaying({
  nowPlaying,
  clock,
  player,
  onEnableAudio,
  state,
}: {
  nowPlaying: NowPlayingState | null;
  clock: ServerClock;
  player: PlayerStatus;
  onEnableAudio: () => void;
  /** The live state: names who plays and who is next. */
  state?: RoomState;
}) {
  const t = useT();
  const locale = useLocale();
  const [now, setNow] = useState(() => clock.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(clock.now()), 250);
    return () => clearInterval(timer);
  }, [clock]);
  if (!nowPlaying)
    return (
      <section className="now-playing booth empty" aria-label={t.nowPlaying}>
        <SongArt song={undefined} size={56} />
        <div className="meta">
          <p>{t.nothingPlaying}</p>
          {state && state.djs.length + (state.waitlist?.length ?? 0) > 0 && <NextUpLine state={state} />}
        </div>
      </section>
    );
  const { song } = nowPlaying;
  const position = playPosition(nowPlaying, now);
  const dj = state ? playingDj(state) : null;
  return (
    <section className="now-playing booth" aria-label={t.nowPlaying}>
      <SongArt song={song} size={72} />
      <div className="meta">
        <p className="title" data-testid="now-title">
          {song.trackName}
        </p>
        <p className="artist">{song.artistName}</p>
        {state && dj && (
          <p className="dj" data-testid="now-dj">
            {fill(t.djPlaying, { name: '\u0000' })
              .split('\u0000')
              .flatMap((part, i) => (i === 0 ? [part] : [<Person key="dj" state={state} uuid={dj} />, part]))}
          </p>
        )}
        <div
          className="progress"
          role="progressbar"
          aria-label={t.songProgress}
          aria-valuemin={0}
          aria-valuemax={Math.round(song.duration)}
          aria-valuenow={Math.round(position)}
          data-position={position.toFixed(2)}
        >
          <div style={{ width: `${(playProgress(nowPlaying, now) * 100).toFixed(1)}%` }} />
        </div>
        <p className="muted small times">
          <span className="elapsed">
            {formatSeconds(position)} / {formatSeconds(song.duration)} ·{' '}
          </span>
          <span data-testid="time-left">{fill(t.timeLeft, { time: formatSeconds(secondsLeft(nowPlaying, now)) })}</span>
          {player.state === 'unavailable' || player.state === 'error' ? (
            <span className="reason"> · {reasonText(player.reason, t, locale)}</span>
          ) : null}
          <HeardOn player={player} t={t} />
        </p>
        {player.state === 'limit' && <PreviewLimitPrompt t={t} />}
        {state && <NextUpLine state={state} />}
        {player.state === 'blocked' && (
          <button type="button" className="primary enable-audio" onClick={onEnableAudio}>
            🔊 {t.enableAudio}
          </button>
        )}
      </div>
    </section>
  );
}
