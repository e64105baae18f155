import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { errorCode, errorText, KEPT_OUT_CODES, PASSWORD_CODES } from '../api/errors';
import { keys } from '../api/keys';
import { auth, crates as crateApi, profiles, rooms as roomApi } from '../api/spinroom';
import type { Room } from '../api/types';
import { ErrorNote } from '../app/ErrorNote';
import { href } from '../app/router';
import { ChatPanel } from '../chat/ChatPanel';
import { useRoomChat } from '../chat/useRoomChat';
import { useT } from '../i18n/i18n';
import { useSession } from '../session/session';
import { KickedScreen } from './KickedScreen';
import { NowPlaying } from './NowPlaying';
import { RoomControls } from './RoomControls';
import { pinnedMessages, QueuePanel, WaitlistPanel } from './RoomSide';
import { canModerate, chatDisabledUntil } from './roomState';
import { clearCurrentRoom, currentRoom, rememberRoomPassword, setCurrentRoom } from './roomStore';
import { Scene } from './Scene';
import { UserMenu } from './UserMenu';
import { useLiveRoom } from './useLiveRoom';
import { useRerenderAt } from './useRerenderAt';
import { useRoomAudio } from './useRoomAudio';

/** Loads the room over REST (password checked, recent room recorded), then goes live. */
export function RoomScreen({ slug }: { slug: string }) {
  const t = useT();
  const [password, setPassword] = useState(() => currentRoom(slug).password ?? '');
  const [typed, setTyped] = useState('');
  const join = useMutation({ mutationFn: (pw: string) => roomApi.join(slug, pw || undefined) });
  const { mutate } = join;
  useEffect(() => {
    setCurrentRoom(slug);
    mutate(password);
  }, [slug, password, mutate]);
  if (join.isError) {
    const code = errorCode(join.error);
    const needsPassword = code !== undefined && PASSWORD_CODES.has(code);
    if (code !== undefined && KEPT_OUT_CODES.has(code)) return <KickedScreen reason={errorText(join.error)} />;
    return (
      <section className="card stack narrow">
        <ErrorNote error={join.error} />
        {needsPassword && (
          <form
            className="stack"
            onSubmit={(e) => {
              e.preventDefault();
              rememberRoomPassword(slug, typed);
              setPassword(typed);
            }}
          >
            <label>
              {t.password}
              <input type="password" required value={typed} onChange={(e) => setTyped(e.target.value)} />
            </label>
            <button type="submit" className="primary">
              {t.join}
            </button>
          </form>
        )}
        <a href={href({ name: 'lobby' })}>{t.backToLobby}</a>
      </section>
    );
  }
  if (!join.data) return <p className="muted">{t.loading}</p>;
  return <LiveRoomView room={join.data} password={password} />;
}

function LiveRoomView({ room, password }: { room: Room; password: string }) {
  const t = useT();
  const s = useSession();
  const { live, snapshot } = useLiveRoom(room, password);
  const state = snapshot.live?.state;
  const nowPlaying = state?.nowPlaying ?? null;
  const player = useRoomAudio(live, nowPlaying);
  const [picked, setPicked] = useState<string>();
  const [actionError, setActionError] = useState<string>();

  const session = useQuery({ queryKey: keys.session, queryFn: auth.session, staleTime: 300_000 });
  const me = useQuery({ queryKey: keys.myProfile, queryFn: profiles.mine, enabled: s.isLoggedIn, staleTime: 300_000 });
  const queue = useQuery({ queryKey: keys.queue, queryFn: crateApi.queueSongs, enabled: s.isLoggedIn });
  const moderator = canModerate(state, s.userUuid, session.data?.roles ?? []);
  const disabledUntil = chatDisabledUntil(state, s.userUuid);
  const chat = useRoomChat({
    room: live,
    roomUuid: room.uuid,
    slug: room.slug,
    me: me.data ? { uuid: me.data.uuid, nickname: me.data.nickname, avatarId: me.data.avatarId, color: me.data.color } : undefined,
    enabled: room.hasChat !== false && !!state,
  });
  // Chat-disabled status ends at its expiry: re-render then.
  useRerenderAt(disabledUntil);

  if (snapshot.status === 'kicked') {
    clearCurrentRoom();
    return <KickedScreen reason={snapshot.kickReason} />;
  }
  if (snapshot.status === 'failed')
    return (
      <section className="card narrow">
        <p className="error" role="alert">
          {snapshot.error}
        </p>
        <a href="#/">{t.backToLobby}</a>
      </section>
    );

  const run = (name: string, params: Record<string, unknown> = {}) => {
    setActionError(undefined);
    live.action(name, params).catch((error: unknown) => setActionError(errorText(error)));
  };
  const people = state ? Object.entries(state.allUserData).map(([uuid, d]) => ({ uuid, nickname: d.userProfile?.nickname ?? '' })) : [];

  return (
    <div className="room">
      {/* biome-ignore lint/a11y/useMediaCaption: the room's music: there is no speech to caption */}
      <audio ref={player.audio} preload="auto" data-testid="room-audio" />
      <div className="room-head">
        <h1>{state?.settings.name ?? room.name}</h1>
        {snapshot.status !== 'live' && (
          <span className="status" role="status">
            {snapshot.status === 'connecting' ? t.loading : t.reconnecting}
          </span>
        )}
        {/* biome-ignore lint/a11y/useValidAnchor: a real link to the lobby; the click also forgets the room */}
        <a href="#/" className="button" onClick={() => clearCurrentRoom()}>
          {t.leaveRoom}
        </a>
      </div>
      {state ? (
        <div className="room-grid">
          <div className="room-main">
            <Scene state={state} animations={snapshot.animations} meUuid={s.userUuid} onPick={setPicked} />
            <NowPlaying nowPlaying={nowPlaying} clock={live.clock} player={player.status} onEnableAudio={player.resume} />
            <RoomControls
              state={state}
              nowPlaying={nowPlaying}
              userUuid={s.userUuid}
              isLoggedIn={s.isLoggedIn}
              moderator={moderator}
              afk={snapshot.afk}
              actionError={actionError}
              volume={player.volume}
              onVolume={player.setVolume}
              run={run}
            />
          </div>
          <aside className="room-side">
            {s.isLoggedIn && <QueuePanel songs={queue.data} />}
            <WaitlistPanel state={state} />
            {room.hasChat !== false && (
              <ChatPanel
                messages={chat.messages}
                meUuid={s.userUuid}
                people={people}
                canPost={s.isLoggedIn && !!me.data}
                disabledUntil={disabledUntil}
                isModerator={moderator}
                pinned={state.settings.pinnedMessages ?? []}
                error={chat.error}
                mention={chat.mention}
                onDismissMention={chat.dismissMention}
                onSend={chat.send}
                onRetry={chat.retry}
                onDiscard={chat.discard}
                onEdit={chat.edit}
                onReact={chat.react}
                onPin={(m) => {
                  roomApi
                    .pin(room.slug, pinnedMessages(m, { name: me.data?.nickname, uuid: s.userUuid }))
                    .catch((e: unknown) => setActionError(errorText(e)));
                }}
              />
            )}
          </aside>
          {picked && state && (
            <UserMenu
              uuid={picked}
              state={state}
              slug={room.slug}
              canModerate={moderator}
              isMe={picked === s.userUuid}
              onClose={() => setPicked(undefined)}
              onRemoveDj={(uuid) => run('removeDj', { djUuid: uuid })}
            />
          )}
        </div>
      ) : (
        <p className="muted">{snapshot.error ?? t.loading}</p>
      )}
    </div>
  );
}
