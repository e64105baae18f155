import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { communities, events, PANEL_PAGE_SIZE } from '../api/communities';
import { keys } from '../api/keys';
import { Pager } from '../admin/Pager';
import { ErrorNote } from '../app/ErrorNote';
import { href } from '../app/router';
import { fill, plural, useT } from '../i18n/i18n';
import { useSession } from '../session/session';
import { EventList } from './EventList';
import { useNicknames } from './useNicknames';

/** #/communities/<slug>: a community, join or leave it, its rooms, members and upcoming events. */
export function CommunityScreen({ slug }: { slug: string }) {
  const t = useT();
  const s = useSession();
  const client = useQueryClient();
  const [roomPage, setRoomPage] = useState(1);
  const [memberPage, setMemberPage] = useState(1);
  const community = useQuery({ queryKey: keys.community(slug), queryFn: () => communities.get(slug) });
  const roomList = useQuery({
    queryKey: keys.communityRooms(slug, roomPage),
    queryFn: () => communities.rooms(slug, (roomPage - 1) * PANEL_PAGE_SIZE),
    placeholderData: keepPreviousData,
    enabled: community.isSuccess,
  });
  const members = useQuery({
    queryKey: keys.communityMembers(slug, memberPage),
    queryFn: () => communities.members(slug, (memberPage - 1) * PANEL_PAGE_SIZE),
    placeholderData: keepPreviousData,
    enabled: community.isSuccess,
  });
  const upcoming = useQuery({ queryKey: keys.upcomingEvents(slug), queryFn: () => events.upcoming(slug), enabled: community.isSuccess });
  const nameOf = useNicknames(members.data?.users.map((m) => m.userUuid) ?? []);
  const membership = useMutation({
    mutationFn: (join: boolean) => (join ? communities.join(slug) : communities.leave(slug)),
    onSuccess: (next) => {
      client.setQueryData(keys.community(slug), next);
      return client.invalidateQueries({ queryKey: keys.communities });
    },
  });
  if (community.error) return <ErrorNote error={community.error} />;
  const c = community.data;
  if (!c) return <p className="muted">{t.loading}</p>;
  return (
    <div className="stack">
      <section className="card stack" aria-labelledby="community-title">
        <h1 id="community-title">{c.name}</h1>
        {c.description && <p>{c.description}</p>}
        <p className="muted small">
          {plural(c.membersCount, t.membersCount)} · {plural(c.roomsCount, t.roomsCount)}
        </p>
        {c.isMember && <p role="status">{fill(t.youAreMember, { role: t.communityRoles[c.memberRole ?? 'member'] })}</p>}
        {s.isLoggedIn ? (
          <div className="row">
            {c.isMember ? (
              c.memberRole !== 'owner' && (
                <button type="button" disabled={membership.isPending} onClick={() => membership.mutate(false)}>
                  {t.leaveCommunity}
                </button>
              )
            ) : (
              <button type="button" className="primary" disabled={membership.isPending} onClick={() => membership.mutate(true)}>
                {t.joinCommunity}
              </button>
            )}
          </div>
        ) : (
          <p className="muted">{t.guestsCannotJoin}</p>
        )}
        <ErrorNote error={membership.error} />
      </section>
      <section className="card stack" aria-labelledby="community-rooms">
        <h2 id="community-rooms">{t.communityRooms}</h2>
        <ErrorNote error={roomList.error} />
        {roomList.data?.rooms.length === 0 && <p className="muted">{t.noRoomsInCommunity}</p>}
        <ul className="stack" aria-label={t.communityRooms}>
          {roomList.data?.rooms.map((room) => (
            <li key={room.uuid} className="row">
              <a href={href({ name: 'room', slug: room.slug })}>
                <strong>{room.name}</strong>
              </a>
              {room.song && (
                <span className="muted small">
                  {room.song.trackName} · {room.song.artistName}
                </span>
              )}
              <span className="muted small">{plural(room.numberOfUsersInRoom ?? 0, t.peopleCount)}</span>
            </li>
          ))}
        </ul>
        <Pager
          page={roomPage}
          pages={Math.ceil((roomList.data?.total ?? 0) / PANEL_PAGE_SIZE)}
          onPage={setRoomPage}
          label={t.communityRooms}
        />
      </section>
      <section className="card stack" aria-labelledby="community-events">
        <h2 id="community-events">{t.upcomingEvents}</h2>
        <ErrorNote error={upcoming.error} />
        <EventList events={upcoming.data?.events} />
      </section>
      <section className="card stack" aria-labelledby="community-members">
        <h2 id="community-members">{t.communityMembers}</h2>
        <ErrorNote error={members.error} />
        <ul className="stack" aria-label={t.communityMembers}>
          {members.data?.users.map((m) => (
            <li key={m.userUuid} className="row">
              <a href={href({ name: 'profile', userUuid: m.userUuid })}>{nameOf(m.userUuid)}</a>
              {m.role !== 'member' && <span className="muted small">{t.communityRoles[m.role]}</span>}
            </li>
          ))}
        </ul>
        <Pager
          page={memberPage}
          pages={Math.ceil((members.data?.total ?? 0) / PANEL_PAGE_SIZE)}
          onPage={setMemberPage}
          label={t.communityMembers}
        />
      </section>
    </div>
  );
}
