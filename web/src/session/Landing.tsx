// What a visitor without a session sees above the sign-in forms: what
// Spinroom is, and the live rooms, busiest first. Opening one starts a guest
// session on the way in (guests listen; signing up from the room keeps it).
import { useMutation } from '@tanstack/react-query';
import { auth } from '../api/spinroom';
import type { Room } from '../api/types';
import { ErrorNote } from '../app/ErrorNote';
import { href } from '../app/router';
import { useT } from '../i18n/i18n';
import { byCrowd, RoomCard } from '../rooms/RoomCard';
import { useRoomList } from '../rooms/useRooms';
import { startSession } from './startSession';

const SHOWN = 6;

export function Landing() {
  const t = useT();
  const live = useRoomList('public');
  const enter = useMutation({
    mutationFn: async (room: Room) => ({ room, grant: await auth.guest() }),
    onSuccess: ({ room, grant }) => {
      window.location.hash = href({ name: 'room', slug: room.slug });
      startSession(grant);
    },
  });
  const rooms = byCrowd(live.data ?? []).slice(0, SHOWN);
  return (
    <>
      <section className="landing-hero" aria-labelledby="landing-title">
        <h2 id="landing-title">{t.landingTitle}</h2>
        <p>{t.landingPitch}</p>
        <ul className="landing-points">
          <li>{t.landingPointRooms}</li>
          <li>{t.landingPointDj}</li>
          <li>{t.landingPointTogether}</li>
        </ul>
      </section>
      <section className="room-list landing-live" aria-labelledby="landing-live">
        <h2 id="landing-live">{t.liveNow}</h2>
        {live.data && rooms.length === 0 ? <p className="muted">{t.noRooms}</p> : null}
        <ul data-list="live">
          {rooms.map((room) => (
            <RoomCard key={room.uuid} room={room} canFavorite={false} onOpen={(r) => enter.mutate(r)} />
          ))}
        </ul>
        <ErrorNote error={live.error ?? enter.error} />
      </section>
    </>
  );
}
