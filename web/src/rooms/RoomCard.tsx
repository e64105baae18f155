// A room in a list: what plays and who plays it, how busy it is, its look.
// The lobby's lists and the landing page's "Live now" both show these.
import { useQuery } from '@tanstack/react-query';
import type { MouseEvent } from 'react';
import { keys } from '../api/keys';
import { profiles } from '../api/spinroom';
import type { Room } from '../api/types';
import { href } from '../app/router';
import { fill, nameOf, plural, useLocale, useT } from '../i18n/i18n';
import { useSession } from '../session/session';
import { artwork } from './playback';
import { useToggleFavorite } from './useRooms';

/** The busiest first (people in the room, then DJs on stage); otherwise the list's own order. */
export function byCrowd(rooms: readonly Room[]): Room[] {
  return [...rooms].sort(
    (a, b) => (b.numberOfUsersInRoom ?? 0) - (a.numberOfUsersInRoom ?? 0) || (b.numberOfActiveDjs ?? 0) - (a.numberOfActiveDjs ?? 0),
  );
}

/** The playing DJ's nickname, for callers with a token (a visitor's card says a DJ plays). */
function useDjName(djUuid: string | undefined): string | undefined {
  const { token } = useSession();
  const profile = useQuery({
    queryKey: keys.profile(djUuid ?? ''),
    queryFn: () => profiles.other(djUuid!),
    enabled: !!djUuid && !!token,
    staleTime: 300_000,
  });
  return profile.data?.nickname;
}

export function RoomCard(props: {
  room: Room;
  canFavorite: boolean;
  /** Instead of following the link (a visitor first needs a guest session). */
  onOpen?: (room: Room) => void;
}) {
  const { room, canFavorite, onOpen } = props;
  const t = useT();
  const locale = useLocale();
  const toggle = useToggleFavorite();
  const djUuid = room.song ? room.djUuids?.[0] : undefined;
  const djName = useDjName(djUuid);
  const art = room.song ? artwork(room.song) : undefined;
  const open = onOpen
    ? (e: MouseEvent) => {
        e.preventDefault();
        onOpen(room);
      }
    : undefined;
  return (
    <li className={`room-card design-${room.design?.toLowerCase()}`} data-design={room.design}>
      <a href={href({ name: 'room', slug: room.slug })} className="room-card-link" onClick={open}>
        <span className="room-card-art" aria-hidden="true">
          {art ? <img src={art} alt="" loading="lazy" /> : <span className="room-card-glyph">♪</span>}
        </span>
        <span className="room-card-text">
          <strong>{room.name}</strong>
          {room.song ? (
            <span className="room-card-song">
              {room.song.trackName} · {room.song.artistName}
            </span>
          ) : (
            <span className="muted">{t.roomQuiet}</span>
          )}
          {djUuid && <span className="muted small">{djName ? fill(t.djPlaying, { name: djName }) : t.aDjPlays}</span>}
          <span className="muted small">
            {plural(room.numberOfUsersInRoom ?? 0, t.people, locale)} · {nameOf(t.designs, room.design)}
            {room.isPasswordProtected ? ` · 🔒 ${t.passwordRoom}` : ''}
          </span>
        </span>
      </a>
      {canFavorite && (
        <button
          type="button"
          className="icon"
          aria-pressed={!!room.favorited}
          aria-label={`${room.favorited ? t.unfavorite : t.favorite}: ${room.name}`}
          onClick={() => toggle.mutate({ room, favorited: !room.favorited })}
        >
          {room.favorited ? '★' : '☆'}
        </button>
      )}
    </li>
  );
}
