import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { notify } from '../api/panel';
import { rooms } from '../api/spinroom';
import { ErrorNote } from '../app/ErrorNote';
import { plural } from '../i18n/i18n';
import { usePanelT } from './strings';

/** Admins' custom messages: to the people in a room now (phones and browsers), or to a DJ's fans. */
export function AdminNotifications() {
  const p = usePanelT();
  const [room, setRoom] = useState({ slug: '', title: '', message: '' });
  const [dj, setDj] = useState({ uuid: '', title: '', message: '' });
  const toRoom = useMutation({
    mutationFn: async () => {
      const found = await rooms.get(room.slug.trim().toLowerCase());
      return notify.roomUsers(found.uuid, room.message, room.title.trim() || undefined);
    },
  });
  const toFans = useMutation({ mutationFn: () => notify.djFans(dj.uuid.trim(), dj.title, dj.message) });
  return (
    <section className="card stack" aria-labelledby="admin-notifications-title">
      <h2 id="admin-notifications-title">{p.panelNotifications}</h2>
      <form
        className="stack"
        aria-label={p.panelNotifyRoom}
        onSubmit={(e) => {
          e.preventDefault();
          toRoom.mutate();
        }}
      >
        <h3>{p.panelNotifyRoom}</h3>
        <label>
          {p.panelRoomSlug}
          <input required value={room.slug} onChange={(e) => setRoom({ ...room, slug: e.target.value })} />
        </label>
        <label>
          {p.panelTitleOptional}
          <input maxLength={200} value={room.title} onChange={(e) => setRoom({ ...room, title: e.target.value })} />
        </label>
        <label>
          {p.panelMessage}
          <textarea required maxLength={2000} value={room.message} onChange={(e) => setRoom({ ...room, message: e.target.value })} />
        </label>
        <button type="submit" className="primary" disabled={toRoom.isPending}>
          {p.panelSend}
        </button>
        {toRoom.data && <p role="status">{plural(toRoom.data.queued, p.panelQueued)}</p>}
        <ErrorNote error={toRoom.error} />
      </form>
      <form
        className="stack"
        aria-label={p.panelNotifyFans}
        onSubmit={(e) => {
          e.preventDefault();
          toFans.mutate();
        }}
      >
        <h3>{p.panelNotifyFans}</h3>
        <label>
          {p.panelDjUuid}
          <input required pattern="[0-9a-fA-F\-]{36}" value={dj.uuid} onChange={(e) => setDj({ ...dj, uuid: e.target.value })} />
        </label>
        <label>
          {p.panelTitle}
          <input required maxLength={200} value={dj.title} onChange={(e) => setDj({ ...dj, title: e.target.value })} />
        </label>
        <label>
          {p.panelMessage}
          <textarea required maxLength={2000} value={dj.message} onChange={(e) => setDj({ ...dj, message: e.target.value })} />
        </label>
        <button type="submit" className="primary" disabled={toFans.isPending}>
          {p.panelSend}
        </button>
        {toFans.data && (
          <p role="status">
            {toFans.data.fanoutId || toFans.data.queued > 0 ? p.panelFansTold : plural(toFans.data.queued, p.panelQueued)}
          </p>
        )}
        <ErrorNote error={toFans.error} />
      </form>
    </section>
  );
}
