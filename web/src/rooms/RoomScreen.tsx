import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
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
import { LiveRoom, type LiveSnapshot } from './liveRoom';
import { NowPlaying } from './NowPlaying';
import { SyncedPlayer, type PlayerStatus } from './player';
import { canModerate, chatDisabledUntil, isDj, stageFull } from './roomState';
import { clearCurrentRoom, currentRoom, rememberRoomPassword, setCurrentRoom } from './roomStore';
import { Scene } from './Scene';
import { UserMenu } from './UserMenu';

const EMOJI = ['🎉', '🔥', '❤️', '🙌'];
const IDLE: PlayerStatus = { state: 'idle' };
const noop = () => () => {};

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
          <form className="stack" onSubmit={(e) => (e.preventDefault(), rememberRoomPassword(slug, typed), setPassword(typed))}>
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
  const client = useQueryClient();
  // biome-ignore lint/correctness/useExhaustiveDependencies: one live connection per room and password; the token is read when used
  const live = useMemo(
    () => new LiveRoom({ baseUrl: window.location.origin, roomUuid: room.uuid, password: password || undefined, token: () => s.token }),
    [room.uuid, password],
  );
  const snapshot: LiveSnapshot = useSyncExternalStore(live.subscribe, () => live.snapshot);
  const audio = useRef<HTMLAudioElement>(null);
  const [player, setPlayer] = useState<SyncedPlayer>();
  const playerStatus = useSyncExternalStore(player?.subscribe ?? noop, () => player?.snapshot ?? IDLE);
  const [picked, setPicked] = useState<string>();
  const [actionError, setActionError] = useState<string>();
  const [volume, setVolume] = useState(0.8);

  useEffect(() => {
    live.start();
    const off = live.onEvent((name) => {
      if (name === 'playedSong') {
        void client.invalidateQueries({ queryKey: keys.queue });
        void client.invalidateQueries({ queryKey: keys.recentSongs(room.slug) });
      }
      if (name === 'updatedRoomSettings') void client.invalidateQueries({ queryKey: keys.room(room.slug) });
    });
    return () => {
      off();
      live.stop();
    };
  }, [live, client, room.slug]);

  useEffect(() => {
    if (!audio.current) return;
    const p = new SyncedPlayer(audio.current, live.clock, () => s.token);
    setPlayer(p);
    return () => p.stop();
  }, [live, s.token]);

  const state = snapshot.live?.state;
  const nowPlaying = state?.nowPlaying ?? null;
  useEffect(() => {
    void player?.play(nowPlaying);
  }, [player, nowPlaying]);
  useEffect(() => player?.setVolume(volume), [player, volume]);

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
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!disabledUntil) return;
    const wait = disabledUntil.getTime() - Date.now();
    if (wait > 2 ** 31 - 1) return;
    const timer = setTimeout(() => setTick((n) => n + 1), Math.max(0, wait) + 50);
    return () => clearTimeout(timer);
  }, [disabledUntil]);

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
  const amDj = isDj(state, s.userUuid);
  const onWaitlist = !!state?.waitlist?.includes(s.userUuid ?? '');
  const myVote = s.userUuid ? state?.allUserData[s.userUuid]?.songVotes : undefined;
  const playingDj = state?.djs[0]?.uuid;
  const people = state ? Object.entries(state.allUserData).map(([uuid, d]) => ({ uuid, nickname: d.userProfile?.nickname ?? '' })) : [];

  return (
    <div className="room">
      {/* biome-ignore lint/a11y/useMediaCaption: the room's music: there is no speech to caption */}
      <audio ref={audio} preload="auto" data-testid="room-audio" />
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
            <NowPlaying nowPlaying={nowPlaying} clock={live.clock} player={playerStatus} onEnableAudio={() => void player?.resume()} />
            <div className="controls" role="toolbar" aria-label="Room controls">
              <div className="votes">
                <button
                  type="button"
                  className="vote up"
                  aria-pressed={myVote?.like === true}
                  disabled={!nowPlaying || !s.isLoggedIn}
                  onClick={() => run('voteOnSong', { songVotes: { like: true } })}
                >
                  👍 {t.awesome} <span data-testid="likes">{state.voteCounts.likes}</span>
                </button>
                <button
                  type="button"
                  className="vote down"
                  aria-pressed={myVote?.like === false}
                  disabled={!nowPlaying || !s.isLoggedIn}
                  onClick={() => run('voteOnSong', { songVotes: { like: false } })}
                >
                  👎 {t.lame} <span data-testid="dislikes">{state.voteCounts.dislikes}</span>
                </button>
                <button
                  type="button"
                  className="vote star"
                  aria-pressed={myVote?.star === true}
                  disabled={!nowPlaying || !s.isLoggedIn}
                  onClick={() => run('voteOnSong', { songVotes: { star: true } })}
                  aria-label={t.star}
                >
                  ★ {state.voteCounts.stars}
                </button>
                {/* biome-ignore lint/a11y/useSemanticElements: a styled bar; <meter> cannot hold the bar that draws it */}
                <div
                  className="vibe"
                  role="meter"
                  aria-label={t.vibe}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={Math.round(state.vibeMeter * 100)}
                >
                  <div style={{ width: `${Math.round(state.vibeMeter * 100)}%` }} />
                </div>
              </div>
              <div className="seat">
                {amDj ? (
                  <button type="button" onClick={() => run('removeDj', {})}>
                    {t.leaveSeat}
                  </button>
                ) : !stageFull(state) ? (
                  <button type="button" className="primary" disabled={!s.isLoggedIn} onClick={() => run('addDj', {})}>
                    {t.takeSeat}
                  </button>
                ) : onWaitlist ? (
                  <button type="button" onClick={() => run('leaveWaitlist', {})}>
                    {t.leaveWaitlist}
                  </button>
                ) : (
                  <button type="button" disabled={!s.isLoggedIn} onClick={() => run('joinWaitlist', {})}>
                    {t.joinWaitlist}
                  </button>
                )}
                {nowPlaying && (playingDj === s.userUuid || moderator) && (
                  <button type="button" onClick={() => run('skipSong', {})}>
                    {t.skip}
                  </button>
                )}
                <button type="button" onClick={() => run('playOneTimeAnimation', { animation: 'jump' })}>
                  {t.jump}
                </button>
                {EMOJI.map((emoji) => (
                  <button
                    key={emoji}
                    type="button"
                    className="icon"
                    aria-label={`Emoji ${emoji}`}
                    onClick={() => run('playOneTimeAnimation', { animation: 'emoji', emoji })}
                  >
                    {emoji}
                  </button>
                ))}
                <label className="volume">
                  <span className="sr-only">Volume</span>🔈
                  <input type="range" min={0} max={1} step={0.05} value={volume} onChange={(e) => setVolume(Number(e.target.value))} />
                </label>
              </div>
              {actionError && (
                <p className="error" role="alert">
                  {actionError}
                </p>
              )}
              {s.userUuid && snapshot.afk[s.userUuid] && snapshot.afk[s.userUuid]! > Date.now() && (
                <p className="notice" role="status">
                  AFK: {new Date(snapshot.afk[s.userUuid]!).toLocaleTimeString()}
                </p>
              )}
            </div>
          </div>
          <aside className="room-side">
            {s.isLoggedIn && (
              <section className="dj-queue" aria-labelledby="queue-title">
                <h2 id="queue-title">{t.yourQueue}</h2>
                {queue.data && queue.data.length === 0 && (
                  <p className="muted">
                    {t.emptyQueue} <a href="#/crates">{t.crates}</a>
                  </p>
                )}
                <ol>
                  {queue.data?.slice(0, 8).map((song) => (
                    <li key={song.crateSongUuid}>
                      {song.trackName} <span className="muted">— {song.artistName}</span>
                    </li>
                  ))}
                </ol>
              </section>
            )}
            {(state.waitlist?.length ?? 0) > 0 && (
              <section aria-labelledby="waitlist-title">
                <h2 id="waitlist-title">{t.waitlist}</h2>
                <ol>
                  {state.waitlist!.map((uuid) => (
                    <li key={uuid}>{state.allUserData[uuid]?.userProfile?.nickname ?? uuid}</li>
                  ))}
                </ol>
              </section>
            )}
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
                onSend={chat.send}
                onEdit={chat.edit}
                onReact={chat.react}
                onPin={(m) => {
                  const pinned = m
                    ? [
                        {
                          message: {
                            message: m.text,
                            userName: m.userName,
                            avatarId: m.avatarId,
                            color: m.color,
                            userUuid: m.userUuid,
                            date: new Date(m.sentAt).toISOString(),
                            pinnedByName: me.data?.nickname,
                            pinnedByUUID: s.userUuid,
                          },
                        },
                      ]
                    : [];
                  roomApi.pin(room.slug, pinned).catch((e: unknown) => setActionError(errorText(e)));
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
