// #/friends: the invitations waiting for the caller's answer (accept, reject),
// those they sent (withdraw), and their friends, 12 a page (write to one,
// end a friendship).
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { keys } from '../api/keys';
import { FANS_PAGE, nextSkip, social, type FriendInvitation } from '../api/social';
import { ErrorNote } from '../app/ErrorNote';
import { href } from '../app/router';
import { fill, formatDate, useLocale, useT } from '../i18n/i18n';
import { useSession } from '../session/session';
import { PersonLink, useProfiles } from './people';
import { useSocialAct } from './SocialActions';
import './social.css';

export function FriendsScreen() {
  const t = useT();
  const s = useSession();
  const me = s.userUuid ?? '';
  const received = useQuery({ queryKey: keys.invitations('received'), queryFn: () => social.received(), refetchInterval: 15_000 });
  const sent = useQuery({ queryKey: keys.invitations('sent'), queryFn: () => social.sent() });
  const friends = useInfiniteQuery({
    queryKey: keys.friends(me),
    queryFn: ({ pageParam }) => social.friends(me, pageParam, FANS_PAGE),
    initialPageParam: 0,
    getNextPageParam: nextSkip,
    enabled: !!me,
  });
  const friendList = friends.data?.pages.flatMap((p) => p.data) ?? [];
  const friendUuid = (f: { userUuid: string; friendUuid: string }) => (f.userUuid === me ? f.friendUuid : f.userUuid);
  const byUuid = useProfiles([
    ...(received.data?.data ?? []).map((i) => i.fromUuid),
    ...(sent.data?.data ?? []).map((i) => i.toUuid),
    ...friendList.map(friendUuid),
  ]);
  const locale = useLocale();
  return (
    <div className="stack narrow">
      <h1>{t.friends}</h1>
      <section className="card stack" aria-labelledby="received-title">
        <h2 id="received-title">{t.invitationsReceived}</h2>
        <ErrorNote error={received.error} />
        <InvitationList invitations={received.data?.data} other={(i) => i.fromUuid} byUuid={byUuid} incoming />
      </section>
      <section className="card stack" aria-labelledby="friends-title">
        <h2 id="friends-title">{t.yourFriends}</h2>
        <ErrorNote error={friends.error} />
        {friends.data && friendList.length === 0 && <p className="muted">{t.noFriends}</p>}
        <ul className="people-list" aria-label={t.friends}>
          {friendList.map((f) => {
            const uuid = friendUuid(f);
            return (
              <li key={f.id}>
                <span className="stack">
                  <PersonLink uuid={uuid} profile={byUuid.get(uuid)} />
                  <span className="muted small">{fill(t.friendsSince, { date: formatDate(f.createdAt, 'date', locale) })}</span>
                </span>
                <span className="row">
                  <a className="button" href={href({ name: 'messages', withUuid: uuid })}>
                    {t.sendMessage}
                  </a>
                  <RemoveFriend uuid={uuid} />
                </span>
              </li>
            );
          })}
        </ul>
        {friends.hasNextPage && (
          <button type="button" disabled={friends.isFetchingNextPage} onClick={() => void friends.fetchNextPage()}>
            {t.showMore}
          </button>
        )}
      </section>
      <section className="card stack" aria-labelledby="sent-title">
        <h2 id="sent-title">{t.invitationsSent}</h2>
        <ErrorNote error={sent.error} />
        <InvitationList invitations={sent.data?.data} other={(i) => i.toUuid} byUuid={byUuid} incoming={false} />
      </section>
    </div>
  );
}

function InvitationList({
  invitations,
  other,
  byUuid,
  incoming,
}: {
  invitations: FriendInvitation[] | undefined;
  other: (i: FriendInvitation) => string;
  byUuid: ReturnType<typeof useProfiles>;
  incoming: boolean;
}) {
  const t = useT();
  const locale = useLocale();
  if (!invitations) return <p className="muted">{t.loading}</p>;
  if (invitations.length === 0) return <p className="muted">{t.noInvitations}</p>;
  return (
    <ul className="people-list">
      {invitations.map((i) => (
        <li key={i.id}>
          <span className="stack">
            <PersonLink uuid={other(i)} profile={byUuid.get(other(i))} />
            <span className="muted small">{fill(t.invitedOn, { date: formatDate(i.createdAt, 'date', locale) })}</span>
          </span>
          <InvitationButtons invitation={i} other={other(i)} incoming={incoming} />
        </li>
      ))}
    </ul>
  );
}

function InvitationButtons({ invitation, other, incoming }: { invitation: FriendInvitation; other: string; incoming: boolean }) {
  const t = useT();
  const act = useSocialAct(other);
  return (
    <span className="row">
      {incoming ? (
        <>
          <button
            type="button"
            className="primary"
            disabled={act.isPending}
            onClick={() => act.mutate({ kind: 'answer', invitationId: invitation.id, status: 'ACCEPTED' })}
          >
            {t.acceptInvitation}
          </button>
          <button
            type="button"
            disabled={act.isPending}
            onClick={() => act.mutate({ kind: 'answer', invitationId: invitation.id, status: 'REJECTED' })}
          >
            {t.rejectInvitation}
          </button>
        </>
      ) : (
        <button type="button" disabled={act.isPending} onClick={() => act.mutate({ kind: 'withdraw', invitationId: invitation.id })}>
          {t.withdrawInvitation}
        </button>
      )}
      <ErrorNote error={act.error} />
    </span>
  );
}

function RemoveFriend({ uuid }: { uuid: string }) {
  const t = useT();
  const act = useSocialAct(uuid);
  return (
    <>
      <button type="button" disabled={act.isPending} onClick={() => act.mutate({ kind: 'unfriend' })}>
        {t.removeFriend}
      </button>
      <ErrorNote error={act.error} />
    </>
  );
}
