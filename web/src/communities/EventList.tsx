import type { SpinEvent } from '../api/communities';
import { href } from '../app/router';
import { formatDate, useLocale, useT } from '../i18n/i18n';

/** Events, soonest first: name (its page), when, status, the room and the community. */
export function EventList({ events }: { events: SpinEvent[] | undefined }) {
  const t = useT();
  const locale = useLocale();
  if (events?.length === 0) return <p className="muted">{t.noEvents}</p>;
  return (
    <ul className="stack" aria-label={t.upcomingEvents}>
      {events?.map((ev) => (
        <li key={ev.uuid} className="row">
          <a href={href({ name: 'event', slug: ev.slug })}>
            <strong>{ev.name}</strong>
          </a>
          <span className="small">{t.eventStatus[ev.status]}</span>
          <time className="muted small" dateTime={ev.startTime}>
            {formatDate(ev.startTime, 'dateTime', locale)}
          </time>
          <a className="small" href={href({ name: 'room', slug: ev.roomSlug })}>
            {ev.roomName || ev.roomSlug}
          </a>
          {ev.communitySlug && (
            <a className="small" href={href({ name: 'community', slug: ev.communitySlug })}>
              {ev.communitySlug}
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}
