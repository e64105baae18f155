import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { communities, events, PANEL_PAGE_SIZE, type Community } from '../api/communities';
import { keys } from '../api/keys';
import { Pager } from '../admin/Pager';
import { ErrorNote } from '../app/ErrorNote';
import { href, navigate } from '../app/router';
import { plural, useT } from '../i18n/i18n';
import { useSession } from '../session/session';
import { EventList } from './EventList';

/** A community in a list: its page, how many members and rooms, and whether the caller is in it. */
function CommunityItem({ community: c }: { community: Community }) {
  const t = useT();
  return (
    <li className="row">
      <a href={href({ name: 'community', slug: c.slug })}>
        <strong>{c.name}</strong>
      </a>
      <span className="muted small">{plural(c.membersCount, t.membersCount)}</span>
      <span className="muted small">{plural(c.roomsCount, t.roomsCount)}</span>
      {c.isMember && <span className="small">{t.joined}</span>}
    </li>
  );
}

/** Every community, the most members first, searched as the caller types. */
function BrowseCommunities() {
  const t = useT();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const words = useDeferredValue(search.trim());
  const all = useQuery({
    queryKey: keys.allCommunities(words, page),
    queryFn: () => communities.all(words, (page - 1) * PANEL_PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="card stack" aria-labelledby="browse-communities">
      <h2 id="browse-communities">{t.browseCommunities}</h2>
      <label>
        {t.searchCommunities}
        <input
          type="search"
          maxLength={100}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
      </label>
      <ErrorNote error={all.error} />
      {all.data?.total === 0 && <p className="muted">{t.noCommunitiesFound}</p>}
      <ul className="stack" aria-label={t.browseCommunities}>
        {all.data?.communities.map((c) => (
          <CommunityItem key={c.uuid} community={c} />
        ))}
      </ul>
      {(all.data?.total ?? 0) > PANEL_PAGE_SIZE && (
        <Pager page={page} pages={Math.ceil((all.data?.total ?? 0) / PANEL_PAGE_SIZE)} onPage={setPage} label={t.browseCommunities} />
      )}
    </section>
  );
}

/** #/communities: the caller's communities, every community to browse, one found by its slug, and the upcoming events (everyone's). */
export function CommunitiesScreen() {
  const t = useT();
  const s = useSession();
  const [slug, setSlug] = useState('');
  const mine = useQuery({ queryKey: keys.myCommunities, queryFn: communities.mine, enabled: s.isLoggedIn });
  const upcoming = useQuery({ queryKey: keys.upcomingEvents(''), queryFn: () => events.upcoming() });
  return (
    <div className="stack">
      <h1>{t.communities}</h1>
      {s.isLoggedIn && (
        <section className="card stack" aria-labelledby="my-communities">
          <h2 id="my-communities">{t.myCommunities}</h2>
          <ErrorNote error={mine.error} />
          {mine.data?.length === 0 && <p className="muted">{t.noCommunitiesYet}</p>}
          <ul className="stack" aria-label={t.myCommunities}>
            {mine.data?.map((c) => (
              <CommunityItem key={c.uuid} community={c} />
            ))}
          </ul>
        </section>
      )}
      <BrowseCommunities />
      <form
        className="card row"
        aria-label={t.findCommunity}
        onSubmit={(e) => {
          e.preventDefault();
          if (slug.trim()) navigate({ name: 'community', slug: slug.trim().toLowerCase() });
        }}
      >
        <label>
          {t.findCommunity}
          <input required value={slug} placeholder="jqbx" onChange={(e) => setSlug(e.target.value)} />
        </label>
        <button type="submit">{t.open}</button>
      </form>
      <section className="card stack" aria-labelledby="upcoming-events">
        <h2 id="upcoming-events">{t.upcomingEvents}</h2>
        <ErrorNote error={upcoming.error} />
        <EventList events={upcoming.data?.events} />
      </section>
    </div>
  );
}
