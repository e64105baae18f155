import { useEffect, useState } from 'react';
import type { NowPlaying as NowPlayingState } from '../api/types';
import type { Strings } from '../i18n/en';
import { fill, type Locale, useLocale, useT } from '../i18n/i18n';
import { formatSeconds, playPosition, playProgress, type ServerClock } from './clock';
import { artwork } from './playback';
import type { PlayerReason, PlayerStatus } from './player';

/** Why nothing plays, in the reader's language (the providers listed as the locale joins them). */
function reasonText(reason: PlayerReason | undefined, t: Strings, locale: Locale): string {
  if (!reason) return '';
  if (reason.key !== 'songOnProviders') return t[reason.key];
  const providers = reason.providers.length
    ? new Intl.ListFormat(locale, { type: 'conjunction' }).format(reason.providers)
    : t.outsideCatalogue;
  return fill(t.songOnProviders, { providers });
}

/** Artwork, title, artist and a progress bar on the server clock. */
export function NowPlaying({
  nowPlaying,
  clock,
  player,
  onEnableAudio,
}: {
  nowPlaying: NowPlayingState | null;
  clock: ServerClock;
  player: PlayerStatus;
  onEnableAudio: () => void;
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
      <section className="now-playing empty" aria-label={t.nowPlaying}>
        <p>{t.nothingPlaying}</p>
      </section>
    );
  const { song } = nowPlaying;
  const position = playPosition(nowPlaying, now);
  const art = artwork(song);
  return (
    <section className="now-playing" aria-label={t.nowPlaying}>
      {art ? (
        <img className="art" src={art} alt="" width={72} height={72} />
      ) : (
        <div className="art placeholder" aria-hidden="true">
          ♪
        </div>
      )}
      <div className="meta">
        <p className="title" data-testid="now-title">
          {song.trackName}
        </p>
        <p className="artist">{song.artistName}</p>
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
        <p className="muted small">
          {formatSeconds(position)} / {formatSeconds(song.duration)}
          {player.state === 'unavailable' || player.state === 'error' ? (
            <span className="reason"> · {reasonText(player.reason, t, locale)}</span>
          ) : null}
        </p>
        {player.state === 'blocked' && (
          <button type="button" className="primary" onClick={onEnableAudio}>
            🔊 {t.enableAudio}
          </button>
        )}
      </div>
    </section>
  );
}
