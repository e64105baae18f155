// What the caller can do about someone else, on their profile and in the
// room's menu: follow or unfollow them as a DJ, invite them as a friend (or
// answer, withdraw, end the friendship), write to them, block or unblock.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { keys } from '../api/keys';
import { relationTo, social } from '../api/social';
import { ErrorNote } from '../app/ErrorNote';
import { href } from '../app/router';
import { fill, plural, useLocale, useT } from '../i18n/i18n';
import { useSession } from '../session/session';
import './social.css';

export type SocialAct =
  | { kind: 'follow' | 'unfollow' | 'invite' | 'unfriend' | 'block' | 'unblock' }
  | { kind: 'withdraw'; invitationId: string }
  | { kind: 'answer'; invitationId: string; status: 'ACCEPTED' | 'REJECTED' };

export function runSocialAct(userUuid: string, act: SocialAct): Promise<unknown> {
  switch (act.kind) {
    case 'follow':
      return social.follow(userUuid);
    case 'unfollow':
      return social.unfollow(userUuid);
    case 'invite':
      return social.invite(userUuid);
    case 'unfriend':
      return social.removeFriend(userUuid);
    case 'block':
      return social.block(userUuid);
    case 'unblock':
      return social.unblock(userUuid);
    case 'withdraw':
      return social.withdraw(act.invitationId);
    case 'answer':
      return social.answer(act.invitationId, act.status);
  }
}

/** A social change refreshes every social list and count, and the conversations (grouped by friendship, hidden by blocks). */
export function useSocialAct(userUuid: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (act: SocialAct) => runSocialAct(userUuid, act),
    onSettled: async () => {
      await Promise.all([client.invalidateQueries({ queryKey: keys.social }), client.invalidateQueries({ queryKey: keys.messages })]);
    },
  });
}

/** How many follow someone and how many they follow, each a link to its page. */
export function FanCounts({ userUuid }: { userUuid: string }) {
  const t = useT();
  const locale = useLocale();
  const counts = useQuery({ queryKey: keys.fanCounts(userUuid), queryFn: () => social.counts(userUuid) });
  if (!counts.data) return null;
  return (
    <p className="fan-counts">
      <a href={href({ name: 'fans', userUuid, list: 'followers' })}>{plural(counts.data.fans, t.followerCount, locale)}</a>
      <a href={href({ name: 'fans', userUuid, list: 'following' })}>{plural(counts.data.following, t.followingCount, locale)}</a>
    </p>
  );
}

export function SocialActions({ userUuid, name }: { userUuid: string; name: string }) {
  const t = useT();
  const s = useSession();
  const [confirmingBlock, setConfirmingBlock] = useState(false);
  const relation = useQuery({ queryKey: keys.relation(userUuid), queryFn: () => relationTo(userUuid), enabled: s.isLoggedIn });
  const act = useSocialAct(userUuid);
  if (!s.isLoggedIn || userUuid === s.userUuid) return null;
  if (relation.error) return <ErrorNote error={relation.error} />;
  const r = relation.data;
  if (!r) return <p className="muted">{t.loading}</p>;
  const busy = act.isPending;
  const doIt = (what: SocialAct) => act.mutate(what);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of actions, not a form's fieldset
    <div className="social-actions stack" role="group" aria-label={t.friendsAndFans}>
      {r.block ? (
        <div className="row">
          <p className="muted">{t.youBlocked}</p>
          <button type="button" disabled={busy} onClick={() => doIt({ kind: 'unblock' })}>
            {t.unblock}
          </button>
        </div>
      ) : (
        <>
          <div className="row">
            {r.fan ? (
              <button type="button" aria-pressed="true" disabled={busy} onClick={() => doIt({ kind: 'unfollow' })}>
                {t.unfollow}
              </button>
            ) : (
              <button type="button" className="primary" disabled={busy} onClick={() => doIt({ kind: 'follow' })}>
                {t.follow}
              </button>
            )}
            <a className="button" href={href({ name: 'messages', withUuid: userUuid })}>
              {t.sendMessage}
            </a>
          </div>
          <div className="row">
            {r.friend && (
              <>
                <span className="muted">{t.youAreFriends}</span>
                <button type="button" disabled={busy} onClick={() => doIt({ kind: 'unfriend' })}>
                  {t.removeFriend}
                </button>
              </>
            )}
            {!r.friend && r.invitationReceived && (
              <>
                <span>{fill(t.invitedYou, { name })}</span>
                <button
                  type="button"
                  className="primary"
                  disabled={busy}
                  onClick={() => doIt({ kind: 'answer', invitationId: r.invitationReceived!.id, status: 'ACCEPTED' })}
                >
                  {t.acceptInvitation}
                </button>
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => doIt({ kind: 'answer', invitationId: r.invitationReceived!.id, status: 'REJECTED' })}
                >
                  {t.rejectInvitation}
                </button>
              </>
            )}
            {!r.friend && !r.invitationReceived && r.invitationSent && (
              <>
                <span className="muted">{t.invitationPending}</span>
                <button type="button" disabled={busy} onClick={() => doIt({ kind: 'withdraw', invitationId: r.invitationSent!.id })}>
                  {t.withdrawInvitation}
                </button>
              </>
            )}
            {!r.friend && !r.invitationReceived && !r.invitationSent && (
              <button type="button" disabled={busy} onClick={() => doIt({ kind: 'invite' })}>
                {t.addFriend}
              </button>
            )}
          </div>
          {confirmingBlock ? (
            <div className="notice stack" role="alertdialog" aria-label={t.block} aria-describedby={`block-question-${userUuid}`}>
              <p id={`block-question-${userUuid}`}>{fill(t.blockQuestion, { name })}</p>
              <div className="row">
                <button
                  type="button"
                  className="danger"
                  onClick={() => {
                    setConfirmingBlock(false);
                    doIt({ kind: 'block' });
                  }}
                >
                  {t.blockConfirm}
                </button>
                <button type="button" onClick={() => setConfirmingBlock(false)}>
                  {t.cancel}
                </button>
              </div>
            </div>
          ) : (
            <div className="row">
              <button type="button" className="danger" disabled={busy} onClick={() => setConfirmingBlock(true)}>
                {t.block}
              </button>
            </div>
          )}
        </>
      )}
      <ErrorNote error={act.error} />
    </div>
  );
}
