// Settings: the people the caller blocked, 12 a page, each with Unblock.
import { useInfiniteQuery } from '@tanstack/react-query';
import { keys } from '../api/keys';
import { nextSkip, social } from '../api/social';
import { ErrorNote } from '../app/ErrorNote';
import { fill, formatDate, useLocale, useT } from '../i18n/i18n';
import { PersonLink, useProfiles } from './people';
import { useSocialAct } from './SocialActions';
import './social.css';

export function BlockedUsersSection() {
  const t = useT();
  const locale = useLocale();
  const blocks = useInfiniteQuery({
    queryKey: keys.blocks,
    queryFn: ({ pageParam }) => social.blocks(pageParam),
    initialPageParam: 0,
    getNextPageParam: nextSkip,
  });
  const list = blocks.data?.pages.flatMap((p) => p.data) ?? [];
  const byUuid = useProfiles(list.map((b) => b.blockedUuid));
  return (
    <section className="card stack" aria-labelledby="blocked-title">
      <h2 id="blocked-title">{t.blockedUsers}</h2>
      <ErrorNote error={blocks.error} />
      {blocks.data && list.length === 0 && <p className="muted">{t.noBlockedUsers}</p>}
      <ul className="people-list" aria-label={t.blockedUsers}>
        {list.map((b) => (
          <li key={b.id}>
            <span className="stack">
              <PersonLink uuid={b.blockedUuid} profile={byUuid.get(b.blockedUuid)} />
              <span className="muted small">{fill(t.blockedOn, { date: formatDate(b.createdAt, 'date', locale) })}</span>
            </span>
            <Unblock uuid={b.blockedUuid} />
          </li>
        ))}
      </ul>
      {blocks.hasNextPage && (
        <button type="button" disabled={blocks.isFetchingNextPage} onClick={() => void blocks.fetchNextPage()}>
          {t.showMore}
        </button>
      )}
    </section>
  );
}

function Unblock({ uuid }: { uuid: string }) {
  const t = useT();
  const act = useSocialAct(uuid);
  return (
    <span className="row">
      <button type="button" disabled={act.isPending} onClick={() => act.mutate({ kind: 'unblock' })}>
        {t.unblock}
      </button>
      <ErrorNote error={act.error} />
    </span>
  );
}
