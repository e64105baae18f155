// The current season's ranking (#/ranking, issue 16): 20 places a page (take
// and skip), names and avatars beside the points; the person's own place is
// marked in the list and, when it is on another page, pinned above it.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../api/errors';
import { keys } from '../api/keys';
import { points, profilesOf, RANKING_PAGE, type RankingStatus } from '../api/points';
import type { UserProfile } from '../api/types';
import { ErrorNote } from '../app/ErrorNote';
import { href } from '../app/router';
import { Avatar } from '../avatars/Avatar';
import { fill, formatDate, plural, useLocale, useT } from '../i18n/i18n';
import { useSession } from '../session/session';
import './ranking.css';

/** Which places a page shows, 1-based: "21–40". */
export function pageSpan(skip: number, shown: number): { from: number; to: number } {
  return { from: shown === 0 ? 0 : skip + 1, to: skip + shown };
}

export function RankingScreen() {
  const t = useT();
  const locale = useLocale();
  const s = useSession();
  const [skip, setSkip] = useState(0);
  const ranking = useQuery({
    queryKey: keys.seasonRanking(skip),
    queryFn: () => points.currentRanking(skip),
    placeholderData: keepPreviousData,
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
  const data = ranking.data;
  const people = [...(data?.rankings ?? []), ...(data?.me ? [data.me] : [])].map((r) => r.userUuid);
  const profiles = useQuery({
    queryKey: keys.profiles(people),
    queryFn: () => profilesOf([...new Set(people)]),
    enabled: people.length > 0,
    staleTime: 300_000,
  });
  const byUuid = new Map((profiles.data ?? []).map((p) => [p.uuid, p]));

  if (ranking.error instanceof ApiError && ranking.error.status === 404) {
    return (
      <section className="card stack narrow" aria-labelledby="ranking-title">
        <h1 id="ranking-title">{t.ranking}</h1>
        <p>{t.noSeason}</p>
      </section>
    );
  }
  if (ranking.error) return <ErrorNote error={ranking.error} />;
  if (!data) return <p className="muted">{t.loading}</p>;

  const me = data.me;
  const mineShown = !!me && data.rankings.some((r) => r.userUuid === me.userUuid);
  const span = pageSpan(skip, data.rankings.length);
  return (
    <section className="ranking card stack" aria-labelledby="ranking-title">
      <h1 id="ranking-title">{fill(t.seasonRanking, { season: data.season.name })}</h1>
      <p className="muted">
        {data.season.end
          ? fill(t.seasonDates, { start: formatDate(data.season.start, 'date', locale), end: formatDate(data.season.end, 'date', locale) })
          : fill(t.seasonSince, { start: formatDate(data.season.start, 'date', locale) })}{' '}
        {plural(data.total, t.rankedPeople, locale)}
      </p>
      {s.isLoggedIn && !me && <p>{t.noPointsYet}</p>}
      {me && !mineShown && (
        <section className="ranking-mine" aria-labelledby="ranking-mine-title">
          <h2 id="ranking-mine-title">{t.yourPlace}</h2>
          <ol className="ranking-list">
            <RankRow status={me} profile={byUuid.get(me.userUuid)} mine />
          </ol>
        </section>
      )}
      {data.rankings.length === 0 ? (
        <p className="muted">{t.nobodyRanked}</p>
      ) : (
        <ol className="ranking-list" aria-label={fill(t.placesFromTo, { from: span.from, to: span.to })} data-testid="ranking-list">
          {data.rankings.map((r) => (
            <RankRow key={r.userUuid} status={r} profile={byUuid.get(r.userUuid)} mine={r.userUuid === me?.userUuid} />
          ))}
        </ol>
      )}
      <nav className="row ranking-pages" aria-label={t.rankingPages}>
        <button type="button" disabled={skip === 0} onClick={() => setSkip(Math.max(0, skip - RANKING_PAGE))}>
          {t.previousPage}
        </button>
        <span role="status">{fill(t.placesOf, { from: span.from, to: span.to, total: data.total })}</span>
        <button type="button" disabled={skip + RANKING_PAGE >= data.total} onClick={() => setSkip(skip + RANKING_PAGE)}>
          {t.nextPage}
        </button>
      </nav>
    </section>
  );
}

function RankRow({ status, profile, mine }: { status: RankingStatus; profile?: UserProfile; mine: boolean }) {
  const t = useT();
  const locale = useLocale();
  const name = profile?.nickname ?? t.mentionSomeone;
  return (
    <li className={mine ? 'mine' : undefined} aria-current={mine ? 'true' : undefined} data-rank={status.rank}>
      <span className="rank">#{status.rank}</span>
      <Avatar avatarId={profile?.avatarId ?? 'default'} color={profile?.color ?? '#8B5CF6'} seed={status.userUuid} size={32} decorative />
      <a className="name" href={href({ name: 'profile', userUuid: status.userUuid })}>
        {name}
      </a>
      {mine && <span className="you">{t.you}</span>}
      <span className="points">{plural(status.balance, t.pointCount, locale)}</span>
    </li>
  );
}
