// A user's followers (their fans) or the DJs they follow: 12 a page, and
// "Show more" only while people remain (spec 002's pages of fans and following).
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { keys } from '../api/keys';
import { nextSkip, social } from '../api/social';
import { profiles as profileApi } from '../api/spinroom';
import { ErrorNote } from '../app/ErrorNote';
import { href } from '../app/router';
import { fill, useT } from '../i18n/i18n';
import { useSession } from '../session/session';
import { PersonLink, useProfiles } from './people';
import './social.css';

export function FansScreen({ userUuid, list }: { userUuid: string; list: 'followers' | 'following' }) {
  const t = useT();
  const s = useSession();
  const own = userUuid === s.userUuid;
  const owner = useQuery({
    queryKey: own ? keys.myProfile : keys.profile(userUuid),
    queryFn: () => (own ? profileApi.mine() : profileApi.other(userUuid)),
    staleTime: 300_000,
  });
  const pages = useInfiniteQuery({
    queryKey: keys.fanList(userUuid, list),
    queryFn: ({ pageParam }) => (list === 'followers' ? social.followers(userUuid, pageParam) : social.following(userUuid, pageParam)),
    initialPageParam: 0,
    getNextPageParam: nextSkip,
  });
  const items = pages.data?.pages.flatMap((p) => p.data) ?? [];
  const people = items.map((f) => (list === 'followers' ? f.fanUuid : f.djUuid));
  const byUuid = useProfiles(people);
  const total = pages.data?.pages.at(-1)?.total ?? 0;
  const name = owner.data?.nickname ?? t.someone;
  const title = fill(list === 'followers' ? t.followersOf : t.followedBy, { name });
  return (
    <section className="card stack narrow" aria-labelledby="fans-title">
      <h1 id="fans-title">{title}</h1>
      <nav className="row" aria-label={t.friendsAndFans}>
        <a href={href({ name: 'profile', userUuid: own ? undefined : userUuid })}>{t.profile}</a>
        <a href={href({ name: 'fans', userUuid, list: list === 'followers' ? 'following' : 'followers' })}>
          {fill(list === 'followers' ? t.followedBy : t.followersOf, { name })}
        </a>
      </nav>
      <ErrorNote error={pages.error} />
      {pages.isPending && <p className="muted">{t.loading}</p>}
      {pages.data && items.length === 0 && <p className="muted">{list === 'followers' ? t.noFollowers : t.noFollowing}</p>}
      {items.length > 0 && (
        <>
          <ul className="people-list" aria-label={title}>
            {people.map((uuid) => (
              <li key={uuid}>
                <PersonLink uuid={uuid} profile={byUuid.get(uuid)} />
              </li>
            ))}
          </ul>
          <p className="muted small">{fill(t.shownOf, { shown: items.length, total })}</p>
        </>
      )}
      {pages.hasNextPage && (
        <button type="button" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
          {t.showMore}
        </button>
      )}
    </section>
  );
}
