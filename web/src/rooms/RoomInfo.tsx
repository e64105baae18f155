// What the room played lately, with the votes each song got (the playlist
// service's recent songs, refreshed when the feed says a song played), and
// what the room is: its description and its house rules (the stage rules in
// its settings, as the live state carries them).
import { useQuery } from '@tanstack/react-query';
import { keys } from '../api/keys';
import { recentSongs } from '../api/spinroom';
import type { Room, RoomState } from '../api/types';
import { songToAdd } from '../crates/music';
import { SongActions } from '../crates/SongActions';
import { fill, formatDate, nameOf, plural, useLocale, useT } from '../i18n/i18n';
import { formatSeconds } from './clock';
import { SongArt } from './NowPlaying';

/** The recent-songs cache stays fresh this long (spec 002: 60 s); a played song refreshes it sooner. */
const RECENT_FRESH_MS = 60_000;
const SHOWN = 10;

export function RecentSongs({ slug, state }: { slug: string; state: RoomState }) {
  const t = useT();
  const locale = useLocale();
  const plays = useQuery({ queryKey: keys.recentSongs(slug), queryFn: () => recentSongs.list(slug), staleTime: RECENT_FRESH_MS });
  return (
    <section className="recent-songs" aria-labelledby="recent-title">
      <h2 id="recent-title">{t.recentSongs}</h2>
      {plays.data?.length === 0 && <p className="muted">{t.noRecentSongs}</p>}
      <ol>
        {plays.data?.slice(0, SHOWN).map((play) => {
          const dj = state.allUserData[play.djUuid]?.userProfile?.nickname;
          const { likes, dislikes, stars } = play.voteCounts;
          return (
            <li key={play.playId} data-play={play.playId}>
              <SongArt song={play.song} size={40} />
              <div className="recent-meta">
                <span className="song-name">
                  {play.song.trackName} <span className="muted">— {play.song.artistName}</span>
                </span>
                <span className="muted small">
                  {dj ? `${fill(t.playedBy, { name: dj })} · ` : ''}
                  {formatDate(play.playedAt, 'time', locale)}
                </span>
              </div>
              <span className="recent-votes small" role="img" aria-label={fill(t.songVotes, { likes, dislikes, stars })}>
                <span aria-hidden="true">▲ {likes}</span> <span aria-hidden="true">▼ {dislikes}</span>{' '}
                <span aria-hidden="true">★ {stars}</span>
              </span>
              <SongActions song={play.song} toAdd={songToAdd(play.song)} />
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** The stage rules the room's settings carry beside the RoomDto fields this client types. */
type RoomRules = Room & {
  songsPerDj?: number;
  roomSize?: number;
  maxSongLengthSeconds?: number;
  repeatWindowMinutes?: number;
  afkLimitMinutes?: number;
};

/** The house rules worth saying, in the reader's language (limits of 0 mean none, and are left out). */
export function houseRules(settings: RoomRules, t: ReturnType<typeof useT>, locale: ReturnType<typeof useLocale>): string[] {
  const rules: string[] = [];
  if (settings.djType) rules.push(nameOf(t.djTypes, settings.djType));
  if (settings.songsPerDj) rules.push(plural(settings.songsPerDj, t.ruleSongsPerDj, locale));
  if (settings.maxSongLengthSeconds) rules.push(fill(t.ruleMaxSong, { time: formatSeconds(settings.maxSongLengthSeconds) }));
  if (settings.repeatWindowMinutes) rules.push(plural(settings.repeatWindowMinutes, t.ruleRepeat, locale));
  if (settings.afkLimitMinutes) rules.push(plural(settings.afkLimitMinutes, t.ruleAfk, locale));
  if (settings.roomSize) rules.push(plural(settings.roomSize, t.ruleRoomSize, locale));
  if (settings.waitlistEnabled) rules.push(t.ruleWaitlist);
  return rules;
}

export function AboutRoom({ state }: { state: RoomState }) {
  const t = useT();
  const locale = useLocale();
  const settings = state.settings as RoomRules;
  const rules = houseRules(settings, t, locale);
  return (
    <section className="about-room" aria-labelledby="about-title">
      <h2 id="about-title">{t.aboutRoom}</h2>
      {settings.description?.trim() && (
        <p className="description" data-testid="room-description">
          {settings.description}
        </p>
      )}
      {rules.length > 0 && (
        <>
          <h3>{t.roomRules}</h3>
          <ul className="rules">
            {rules.map((rule) => (
              <li key={rule}>{rule}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
