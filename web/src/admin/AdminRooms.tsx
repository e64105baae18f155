import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { keys } from '../api/keys';
import { adminRooms, type RoomEdit } from '../api/panel';
import { rooms } from '../api/spinroom';
import type { Room } from '../api/types';
import { ErrorNote } from '../app/ErrorNote';
import { href } from '../app/router';
import { plural, useT } from '../i18n/i18n';
import { usePanelT } from './strings';
import { ConfirmDelete, PagedRows } from './controls';

/** Every room (global roles): edit its name and description, promote or demote it, delete it. */
export function AdminRooms() {
  const t = useT();
  const p = usePanelT();
  const [page, setPage] = useState(1);
  const list = useQuery({ queryKey: keys.adminRooms(page), queryFn: () => adminRooms.list(page), placeholderData: keepPreviousData });
  const [slug, setSlug] = useState('');
  const [wanted, setWanted] = useState('');
  const found = useQuery({ queryKey: [...keys.adminRooms(0), wanted], queryFn: () => rooms.get(wanted), enabled: wanted !== '' });
  return (
    <section className="card stack" aria-labelledby="admin-rooms-title">
      <h2 id="admin-rooms-title">{p.panelRooms}</h2>
      <form
        className="row"
        aria-label={p.panelFindRoom}
        onSubmit={(e) => {
          e.preventDefault();
          setWanted(slug.trim().toLowerCase());
        }}
      >
        <label>
          {p.panelFindRoom}
          <input required value={slug} onChange={(e) => setSlug(e.target.value)} />
        </label>
        <button type="submit">{t.open}</button>
      </form>
      <ErrorNote error={found.error} />
      {found.data && (
        <ul className="stack" aria-label={p.panelFoundRoom}>
          <AdminRoomRow key={found.data.uuid} room={found.data} />
        </ul>
      )}
      <PagedRows
        list={list}
        label={p.panelRooms}
        empty={p.panelNoRooms}
        page={page}
        onPage={setPage}
        row={(room) => <AdminRoomRow key={room.uuid} room={room} />}
      />
    </section>
  );
}

function AdminRoomRow({ room }: { room: Room }) {
  const t = useT();
  const p = usePanelT();
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(room.name);
  const [description, setDescription] = useState(room.description);
  const refresh = () => client.invalidateQueries({ queryKey: ['admin', 'rooms'] });
  const update = useMutation({
    mutationFn: (body: RoomEdit) => adminRooms.update(room.id, body),
    onSuccess: () => {
      setEditing(false);
      return Promise.all([refresh(), client.invalidateQueries({ queryKey: keys.roomLists })]);
    },
  });
  const remove = useMutation({ mutationFn: () => adminRooms.remove(room.slug), onSuccess: refresh });
  return (
    <li className="stack" aria-label={room.name}>
      <div className="row">
        <a href={href({ name: 'room', slug: room.slug })}>
          <strong>{room.name}</strong>
        </a>
        <span className="muted small">{room.slug}</span>
        <span className="muted small">{room.type}</span>
        {room.promoted && <span className="small">{p.panelPromoted}</span>}
        <span className="muted small">{plural(room.numberOfUsersInRoom ?? 0, t.peopleCount)}</span>
        <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)} aria-label={`${p.panelEdit} ${room.name}`}>
          {p.panelEdit}
        </button>
        <button
          type="button"
          disabled={update.isPending}
          onClick={() => update.mutate({ promoted: !room.promoted })}
          aria-label={`${room.promoted ? p.panelUnpromote : p.panelPromote} ${room.name}`}
        >
          {room.promoted ? p.panelUnpromote : p.panelPromote}
        </button>
        <ConfirmDelete name={room.name} pending={remove.isPending} onDelete={() => remove.mutate()} />
      </div>
      {editing && (
        <form
          className="stack"
          aria-label={`${p.panelEdit} ${room.name}`}
          onSubmit={(e) => {
            e.preventDefault();
            update.mutate({ name, description });
          }}
        >
          <label>
            {p.panelName}
            <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            {p.panelDescription}
            <textarea maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} />
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
