import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { communities, events } from '../api/communities';
import { keys } from '../api/keys';
import { ErrorNote } from '../app/ErrorNote';
import { href, navigate } from '../app/router';
import { plural, useT } from '../i18n/i18n';
import { useSession } from '../session/session';
import { EventList } from './EventList';

/** #/communities: the caller's communities, a community found by its slug, and the upcoming events (everyone's). */
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
              <li key={c.uuid} className="row">
                <a href={href({ name: 'community', slug: c.slug })}>
                  <strong>{c.name}</strong>
                </a>
                <span className="muted small">{plural(c.membersCount, t.membersCount)}</span>
                <span className="muted small">{plural(c.roomsCount, t.roomsCount)}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
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
