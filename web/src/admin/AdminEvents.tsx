import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type EventInput, events, type SpinEvent } from '../api/communities';
import { keys } from '../api/keys';
import { ErrorNote } from '../app/ErrorNote';
import { href } from '../app/router';
import { fill, formatDate, useLocale, useT } from '../i18n/i18n';
import { usePanelT } from './strings';
import { useDebounced } from '../search/useDebounced';
import { ConfirmDelete, PagedRows, SearchBox } from './controls';

/** A datetime-local input's value (the viewer's clock) as an instant; '' stays undefined. */
export const instantOf = (local: string): string | undefined => (local ? new Date(local).toISOString() : undefined);
/** An instant as a datetime-local input's value in the viewer's clock. */
export function localInputOf(instant: string): string {
  const d = new Date(instant);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const refreshEvents = (client: ReturnType<typeof useQueryClient>) =>
  Promise.all([client.invalidateQueries({ queryKey: ['admin', 'events'] }), client.invalidateQueries({ queryKey: keys.communities })]);

/** Events (global roles): search, schedule one in a room (and a community), change its name and times, delete it. */
export function AdminEvents() {
  const t = useT();
  const p = usePanelT();
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDebounced(search, 300);
  const list = useQuery({
    queryKey: keys.adminEvents(q, page),
    queryFn: () => events.adminList(q, page),
    placeholderData: keepPreviousData,
  });
  const empty = { name: '', room: '', community: '', start: '', end: '', description: '' };
  const [draft, setDraft] = useState(empty);
  const create = useMutation({
    mutationFn: () =>
      events.create({
        name: draft.name,
        room: draft.room.trim(),
        description: draft.description,
        ...(draft.community.trim() ? { community: draft.community.trim() } : {}),
        startTime: instantOf(draft.start),
        endTime: instantOf(draft.end),
      }),
    onSuccess: () => {
      setDraft(empty);
      return refreshEvents(client);
    },
  });
  return (
    <section className="card stack" aria-labelledby="admin-events-title">
      <h2 id="admin-events-title">{p.panelEvents}</h2>
      <form
        className="stack"
        aria-label={p.panelCreateEvent}
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <h3>{p.panelCreateEvent}</h3>
        <label>
          {p.panelName}
          <input required maxLength={100} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
        </label>
        <label>
          {p.panelEventRoom}
          <input required value={draft.room} onChange={(e) => setDraft({ ...draft, room: e.target.value })} />
        </label>
        <label>
          {p.panelEventCommunity}
          <input value={draft.community} onChange={(e) => setDraft({ ...draft, community: e.target.value })} />
        </label>
        <label>
          {p.panelStarts}
          <input type="datetime-local" required value={draft.start} onChange={(e) => setDraft({ ...draft, start: e.target.value })} />
        </label>
        <label>
          {p.panelEndsOptional}
          <input type="datetime-local" value={draft.end} onChange={(e) => setDraft({ ...draft, end: e.target.value })} />
        </label>
        <label>
          {p.panelDescription}
          <textarea maxLength={2000} value={draft.description} onChange={(e) => setDraft({ ...draft, description: e.target.value })} />
        </label>
        <button type="submit" className="primary" disabled={create.isPending}>
          {p.panelCreate}
        </button>
        {create.data && (
          <p role="status">
            {fill(p.panelCreated, { name: create.data.name })}{' '}
            <a href={href({ name: 'event', slug: create.data.slug })}>{create.data.slug}</a>
          </p>
        )}
        <ErrorNote error={create.error} />
      </form>
      <SearchBox
        label={p.panelSearchEvents}
        value={search}
        onSearch={(value) => {
          setSearch(value);
          setPage(1);
        }}
      />
      <PagedRows
        list={list}
        label={p.panelEvents}
        empty={t.noEvents}
        page={page}
        onPage={setPage}
        row={(ev) => <AdminEventRow key={ev.uuid} event={ev} />}
      />
    </section>
  );
}

function AdminEventRow({ event }: { event: SpinEvent }) {
  const t = useT();
  const p = usePanelT();
  const locale = useLocale();
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [edit, setEdit] = useState({ name: event.name, start: localInputOf(event.startTime), end: localInputOf(event.endTime) });
  const update = useMutation({
    mutationFn: (body: EventInput) => events.update(event.id, body),
    onSuccess: () => {
      setEditing(false);
      return refreshEvents(client);
    },
  });
  const remove = useMutation({ mutationFn: () => events.remove(event.id), onSuccess: () => refreshEvents(client) });
  return (
    <li className="stack" aria-label={event.name}>
      <div className="row">
        <a href={href({ name: 'event', slug: event.slug })}>
          <strong>{event.name}</strong>
        </a>
        <span className="small">{t.eventStatus[event.status]}</span>
        <span className="muted small">{formatDate(event.startTime, 'dateTime', locale)}</span>
        <span className="muted small">{event.roomName || event.roomSlug}</span>
        {event.communitySlug && <span className="muted small">{event.communitySlug}</span>}
        <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)} aria-label={`${p.panelEdit} ${event.name}`}>
          {p.panelEdit}
        </button>
        <ConfirmDelete name={event.name} pending={remove.isPending} onDelete={() => remove.mutate()} />
      </div>
      {editing && (
        <form
          className="stack"
          aria-label={`${p.panelEdit} ${event.name}`}
          onSubmit={(e) => {
            e.preventDefault();
            update.mutate({ name: edit.name, startTime: instantOf(edit.start), endTime: instantOf(edit.end) });
          }}
        >
          <label>
            {p.panelName}
            <input required maxLength={100} value={edit.name} onChange={(e) => setEdit({ ...edit, name: e.target.value })} />
          </label>
          <label>
            {p.panelStarts}
            <input type="datetime-local" required value={edit.start} onChange={(e) => setEdit({ ...edit, start: e.target.value })} />
          </label>
          <label>
            {p.panelEnds}
            <input type="datetime-local" required value={edit.end} onChange={(e) => setEdit({ ...edit, end: e.target.value })} />
          </label>
          <button type="submit" disabled={update.isPending}>
            {t.save}
          </button>
        </form>
      )}
      <ErrorNote error={update.error ?? remove.error} />
    </li>
  );
}
