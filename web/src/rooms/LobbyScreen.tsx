import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type SubmitEvent, useState } from 'react';
import { keys } from '../api/keys';
import { rooms as roomApi } from '../api/spinroom';
import type { Room, RoomDesign } from '../api/types';
import { ErrorNote } from '../app/ErrorNote';
import { href, navigate } from '../app/router';
import { useT } from '../i18n/i18n';
import { useSession } from '../session/session';
import { rememberRoomPassword } from './roomStore';
import { byCrowd, RoomCard } from './RoomCard';
import { useRoomList, type ListName } from './useRooms';

export const DESIGNS: RoomDesign[] = [
  'CLUB',
  'FESTIVAL',
  'YACHT',
  'BARN',
  'STADIUM',
  'THEATER',
  'UNDERGROUND',
  'TOMORROWLAND',
  'FERRY_BUILDING',
  'CHAT_ONLY',
];

function RoomList({ name, title }: { name: ListName; title: string }) {
  const t = useT();
  const { isLoggedIn } = useSession();
  const list = useRoomList(name);
  if (!isLoggedIn && name !== 'public' && name !== 'promoted') return null;
  return (
    <section className="room-list" aria-labelledby={`list-${name}`}>
      <h2 id={`list-${name}`}>{title}</h2>
      {list.isPending ? <p className="muted">{t.loading}</p> : null}
      <ErrorNote error={list.error} />
      {list.data && list.data.length === 0 ? <p className="muted">{t.noRooms}</p> : null}
      <ul data-list={name}>
        {(name === 'public' || name === 'promoted' ? byCrowd(list.data ?? []) : (list.data ?? [])).map((room) => (
          <RoomCard key={room.uuid} room={room} canFavorite={isLoggedIn} />
        ))}
      </ul>
    </section>
  );
}

function CreateRoomForm() {
  const t = useT();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [design, setDesign] = useState<RoomDesign>('CLUB');
  const [seats, setSeats] = useState(3);
  const [isPrivate, setPrivate] = useState(false);
  const [password, setPassword] = useState('');
  const create = useMutation({
    mutationFn: () =>
      roomApi.create({ name, design, numberOfDjs: seats, type: isPrivate ? 'PRIVATE' : 'PUBLIC', ...(password ? { password } : {}) }),
    onSuccess: (room) => {
      void client.invalidateQueries({ queryKey: keys.roomLists });
      if (password) rememberRoomPassword(room.slug, password);
      navigate({ name: 'room', slug: room.slug });
    },
  });
  const onSubmit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form className="card stack" onSubmit={onSubmit} aria-labelledby="create-room">
      <h2 id="create-room">{t.createRoom}</h2>
      <label>
        {t.roomName}
        <input required maxLength={64} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <div className="row">
        <label>
          {t.design}
          <select value={design} onChange={(e) => setDesign(e.target.value as RoomDesign)}>
            {DESIGNS.map((d) => (
              <option key={d} value={d}>
                {t.designs[d]}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.djSeats}
          <input type="number" min={1} max={5} value={seats} onChange={(e) => setSeats(Number(e.target.value))} />
        </label>
      </div>
      <label className="check">
        <input type="checkbox" checked={isPrivate} onChange={(e) => setPrivate(e.target.checked)} /> {t.privateRoom}
      </label>
      <label>
        {t.passwordOptional}
        <input type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      </label>
      <button type="submit" className="primary" disabled={create.isPending}>
        {t.create}
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}

function JoinPasswordRoomForm() {
  const t = useT();
  const [slug, setSlug] = useState('');
  const [password, setPassword] = useState('');
  const join = useMutation({
    mutationFn: () => roomApi.join(slug.trim().toLowerCase(), password),
    onSuccess: (room) => {
      rememberRoomPassword(room.slug, password);
      navigate({ name: 'room', slug: room.slug });
    },
  });
  return (
    <form
      className="card stack"
      aria-labelledby="join-room"
      onSubmit={(e) => {
        e.preventDefault();
        join.mutate();
      }}
    >
      <h2 id="join-room">{t.joinPasswordRoom}</h2>
      <label>
        {t.roomSlug}
        <input required value={slug} onChange={(e) => setSlug(e.target.value)} />
      </label>
      <label>
        {t.password}
        <input type="password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </label>
      <button type="submit" disabled={join.isPending}>
        {t.join}
      </button>
      <ErrorNote error={join.error} />
    </form>
  );
}

export function LobbyScreen() {
  const t = useT();
  const { isLoggedIn } = useSession();
  return (
    <div className="lobby">
      <div className="lobby-lists">
        {!isLoggedIn && <p className="notice">{t.guestNotice}</p>}
        <RoomList name="promoted" title={t.promotedRooms} />
        <RoomList name="public" title={t.publicRooms} />
        <RoomList name="favorites" title={t.favoriteRooms} />
        <RoomList name="owned" title={t.ownRooms} />
        <RoomList name="recent" title={t.recentRooms} />
      </div>
      {isLoggedIn && (
        <aside className="lobby-side">
          <CreateRoomForm />
          <JoinPasswordRoomForm />
        </aside>
      )}
    </div>
  );
}
