import { useEffect, useState } from 'react';
import type { NowPlaying as NowPlayingState } from '../api/types';
import { useT } from '../i18n/i18n';
import { formatSeconds, playPosition, playProgress, type ServerClock } from './clock';
import { artwork } from './playback';
import type { PlayerStatus } from './player';

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
  const [now, setNow] = useState(() => clock.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(clock.now()), 250);
    return () => clearInterval(timer);
  }, [clock]);
  if (!nowPlaying)
    return (
      <section className="now-playing empty" aria-label="Now playing">
        <p>{t.nothingPlaying}</p>
      </section>
    );
  const { song } = nowPlaying;
  const position = playPosition(nowPlaying, now);
  const art = artwork(song);
  return (
    <section className="now-playing" aria-label="Now playing">
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
          aria-label="Song progress"
          aria-valuemin={0}
          aria-valuemax={Math.round(song.duration)}
          aria-valuenow={Math.round(position)}
          data-position={position.toFixed(2)}
        >
          <div style={{ width: `${(playProgress(nowPlaying, now) * 100).toFixed(1)}%` }} />
        </div>
        <p className="muted small">
          {formatSeconds(position)} / {formatSeconds(song.duration)}
          {player.state === 'unavailable' || player.state === 'error' ? <span className="reason"> · {player.reason}</span> : null}
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
