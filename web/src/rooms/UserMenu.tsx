// What you can do about someone in the room: see their profile and fan counts,
// follow them, invite them as a friend, write to them or block them
// (web/src/social), and with a staff role moderate them (kick, ban, roles, chat-disable with an expiry).
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { rooms as roomApi } from '../api/spinroom';
import type { RoomRole, RoomState } from '../api/types';
import { ErrorNote } from '../app/ErrorNote';
import { href } from '../app/router';
import { Avatar } from '../avatars/Avatar';
import { fill, plural, useLocale, useT } from '../i18n/i18n';
import { FanCounts, SocialActions } from '../social/SocialActions';
import { nickname } from './roomState';

type Act = { kind: 'kick' } | { kind: 'grant'; role: RoomRole; expiresInMinutes?: number } | { kind: 'remove'; role: RoomRole };

interface Props {
  uuid: string;
  state: RoomState;
  slug: string;
  canModerate: boolean;
  isMe: boolean;
  onClose: () => void;
  onRemoveDj: (uuid: string) => void;
}

export function UserMenu({ uuid, state, slug, canModerate, isMe, onClose, onRemoveDj }: Props) {
  const t = useT();
  const locale = useLocale();
  const [minutes, setMinutes] = useState(10);
  const [done, setDone] = useState<string>();
  const [confirmingBan, setConfirmingBan] = useState(false);
  const profile = state.allUserData[uuid]?.userProfile;
  const roles = (state.settings.roomRoles ?? []).filter((r) => r.userUuid === uuid).map((r) => r.role);
  const doneLabel = (what: Act): string => {
    if (what.kind === 'kick') return t.kick;
    if (what.kind === 'remove') return what.role === 'moderator' ? t.removeModerator : `−${what.role}`;
    if (what.role === 'banned') return t.ban;
    if (what.role === 'moderator') return t.makeModerator;
    if (what.role === 'dj') return t.makeDj;
    if (what.role === 'chatDisabled' && what.expiresInMinutes) {
      return `${t.disableChat} ${what.expiresInMinutes} ${plural(what.expiresInMinutes, t.minutesUnit, locale)}`;
    }
    return what.role;
  };
  const act = useMutation({
    mutationFn: async (what: Act) => {
      if (what.kind === 'kick') return roomApi.kick(slug, uuid);
      if (what.kind === 'remove') return roomApi.removeRole(slug, uuid, what.role);
      const expires = what.expiresInMinutes ? new Date(Date.now() + what.expiresInMinutes * 60_000).toISOString() : null;
      return roomApi.grantRole(slug, uuid, what.role, expires);
    },
    // What was done, as the button that did it says.
    onSuccess: (_data, what) => setDone(doneLabel(what)),
  });
  const isDj = state.djs.some((d) => d.uuid === uuid);
  return (
    <div className="user-menu card" role="dialog" aria-label={nickname(state, uuid)}>
      <div className="row">
        <Avatar avatarId={profile?.avatarId} color={profile?.color} size={40} />
        <strong>{nickname(state, uuid)}</strong>
        <button type="button" className="icon" aria-label={t.cancel} onClick={onClose}>
          ✕
        </button>
      </div>
      <a href={href({ name: 'profile', userUuid: uuid })}>{t.profile}</a>
      <FanCounts userUuid={uuid} />
      {!isMe && <SocialActions userUuid={uuid} name={nickname(state, uuid)} />}
      {canModerate && !isMe && (
        // biome-ignore lint/a11y/useSemanticElements: a group of actions, not a form's fieldset
        <div className="stack" role="group" aria-label={t.moderate}>
          {isDj && (
            <button type="button" onClick={() => onRemoveDj(uuid)}>
              {t.leaveSeat}
            </button>
          )}
          <button type="button" onClick={() => act.mutate({ kind: 'kick' })}>
            {t.kick}
          </button>
          {confirmingBan ? (
            <div className="notice stack" role="alertdialog" aria-label={t.ban} aria-describedby="ban-question">
              <p id="ban-question">{fill(t.banQuestion, { name: nickname(state, uuid) })}</p>
              <div className="row">
                <button
                  type="button"
                  className="danger"
                  onClick={() => {
                    setConfirmingBan(false);
                    act.mutate({ kind: 'grant', role: 'banned' });
                  }}
                >
                  {t.banConfirm}
                </button>
                <button type="button" onClick={() => setConfirmingBan(false)}>
                  {t.cancel}
                </button>
              </div>
            </div>
          ) : (
            // A ban takes them out of the room until someone lifts it: asked once more.
            <button type="button" className="danger" onClick={() => setConfirmingBan(true)}>
              {t.ban}
            </button>
          )}
          {roles.includes('moderator') ? (
            <button type="button" onClick={() => act.mutate({ kind: 'remove', role: 'moderator' })}>
              {t.removeModerator}
            </button>
          ) : (
            <button type="button" onClick={() => act.mutate({ kind: 'grant', role: 'moderator' })}>
              {t.makeModerator}
            </button>
          )}
          {!roles.includes('dj') && (
            <button type="button" onClick={() => act.mutate({ kind: 'grant', role: 'dj' })}>
              {t.makeDj}
            </button>
          )}
          <form
            className="row"
            onSubmit={(e) => {
              e.preventDefault();
              act.mutate({ kind: 'grant', role: 'chatDisabled', expiresInMinutes: minutes });
            }}
          >
            <button type="submit">{t.disableChat}</button>
            <label className="sr-only" htmlFor="chat-off-minutes">
              {t.minutes}
            </label>
            <input
              id="chat-off-minutes"
              type="number"
              min={1}
              max={10080}
              value={minutes}
              onChange={(e) => setMinutes(Number(e.target.value))}
            />
            <span>{plural(minutes, t.minutesUnit, locale)}</span>
          </form>
          {done && (
            <p className="muted" role="status">
              ✓ {done}
            </p>
          )}
          <ErrorNote error={act.error} />
        </div>
      )}
    </div>
  );
}
