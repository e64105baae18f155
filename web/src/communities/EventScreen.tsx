import { useQuery } from '@tanstack/react-query';
import { events } from '../api/communities';
import { keys } from '../api/keys';
import { ErrorNote } from '../app/ErrorNote';
import { href } from '../app/router';
import { fill, formatDate, useLocale, useT } from '../i18n/i18n';

/** #/events/<slug>: an event, when it is, its status, its room (to go in) and its community. */
export function EventScreen({ slug }: { slug: string }) {
  const t = useT();
  const locale = useLocale();
  const event = useQuery({ queryKey: keys.event(slug), queryFn: () => events.bySlug(slug) });
  if (event.error) return <ErrorNote error={event.error} />;
  const ev = event.data;
  if (!ev) return <p className="muted">{t.loading}</p>;
  return (
    <section className="card stack" aria-labelledby="event-title">
      <h1 id="event-title">{ev.name}</h1>
      <p className="small">{t.eventStatus[ev.status]}</p>
      <p>
        <time dateTime={ev.startTime}>{formatDate(ev.startTime, 'dateTime', locale)}</time>
        {' – '}
        <time dateTime={ev.endTime}>{formatDate(ev.endTime, 'dateTime', locale)}</time>
      </p>
      {ev.description && <p>{ev.description}</p>}
      <p>
        <a className="button primary" href={href({ name: 'room', slug: ev.roomSlug })}>
          {fill(t.goToEventRoom, { room: ev.roomName || ev.roomSlug })}
        </a>
      </p>
      {ev.communitySlug && (
        <p>
          {t.inCommunity} <a href={href({ name: 'community', slug: ev.communitySlug })}>{ev.communitySlug}</a>
        </p>
      )}
    </section>
  );
}
