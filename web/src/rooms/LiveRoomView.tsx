// The live room once joined: the stage (scene and booth), the controls, the
// chat, the people, and the room's songs and rules. Its order is the focus
// order: the stage's people (one tab stop), the booth, the controls, then the
// chat. On phones (under 700 px) the chat, the people and the room's songs and
// rules are tabs below the stage and the controls, the chat first, so the chat
// box is on the first screen; "Skip to chat" at the top of the page goes
// straight to it.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { errorText } from '../api/errors';
import { keys } from '../api/keys';
import { auth, crates as crateApi, profiles, rooms as roomApi } from '../api/spinroom';
import type { Room } from '../api/types';
import { ChatPanel } from '../chat/ChatPanel';
import { PlayingSong, QueueStart } from '../crates/RoomMusic';
import { useRoomChat } from '../chat/useRoomChat';
import { useT } from '../i18n/i18n';
import { useSession } from '../session/session';
import { ConsumablePicker } from '../shop/ConsumablePicker';
import { ENTRY_FEE_CODES, EntryFeeRefused } from '../shop/EntryFee';
import { mayTakeSeat } from '../stage/booth';
import { KickedScreen } from './KickedScreen';
import { NowPlaying } from './NowPlaying';
import { RoomControls } from './RoomControls';
import { AboutRoom, RecentSongs } from './RoomInfo';
import { PeoplePanel, pinnedMessages, QueuePanel } from './RoomSide';
import { canModerate, chatDisabledUntil, stageFull } from './roomState';
import { clearCurrentRoom } from './roomStore';
import { Scene } from './Scene';
import { UserMenu } from './UserMenu';
import { useLiveRoom } from './useLiveRoom';
import { PHONE_QUERY, useMediaQuery } from './useMediaQuery';
import { useRerenderAt } from './useRerenderAt';
import { useRoomAudio } from './useRoomAudio';
import { useRoomPlayTracking } from '../tracking/useRoomPlayTracking';
import './room.css';

export type RoomTab = 'chat' | 'people' | 'room';
const TABS: RoomTab[] = ['chat', 'people', 'room'];
const PANEL_ID: Record<RoomTab, string> = { chat: 'room-chat', people: 'room-people', room: 'room-info' };

/** The phone's sections as tabs (arrow keys, Home and End move between them and show theirs). */
function RoomTabs({ tab, tabs, onTab }: { tab: RoomTab; tabs: RoomTab[]; onTab: (tab: RoomTab) => void }) {
  const t = useT();
  const label: Record<RoomTab, string> = { chat: t.chat, people: t.tabPeople, room: t.tabRoom };
  const move = (event: KeyboardEvent) => {
    const at = tabs.indexOf(tab);
    const to =
      event.key === 'ArrowRight'
        ? (at + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (at - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : -1;
    if (to < 0) return;
    event.preventDefault();
    onTab(tabs[to]!);
    document.getElementById(`room-tab-${tabs[to]}`)?.focus();
  };
  return (
    <div className="room-tabs" role="tablist" aria-label={t.roomSections} onKeyDown={move}>
      {tabs.map((name) => (
        <button
          key={name}
          type="button"
          role="tab"
          id={`room-tab-${name}`}
          aria-selected={tab === name}
          aria-controls={PANEL_ID[name]}
          tabIndex={tab === name ? 0 : -1}
          onClick={() => onTab(name)}
        >
          {label[name]}
        </button>
      ))}
    </div>
  );
}

/** "Skip to chat", first on the page (before the site's header): a link that moves the focus instead of the address. */
function SkipToChat({ onSkip }: { onSkip: () => void }) {
  const t = useT();
  const [host] = useState(() => document.createElement('div'));
  useLayoutEffect(() => {
    host.className = 'skip-links';
    document.body.prepend(host);
    return () => host.remove();
  }, [host]);
  return createPortal(
    <a
      className="skip-link"
      href={`#${PANEL_ID.chat}`}
      onClick={(event) => {
        // The address is the router's (#/room/...): move the focus, not the page.
        event.preventDefault();
        onSkip();
      }}
    >
      {t.skipToChat}
    </a>,
    host,
  );
}

export function LiveRoomView({ room, password }: { room: Room; password: string }) {
  const t = useT();
  const s = useSession();
  const { live, snapshot } = useLiveRoom(room, password);
  const state = snapshot.live?.state;
  const nowPlaying = state?.nowPlaying ?? null;
  const player = useRoomAudio(live, nowPlaying);
  useRoomPlayTracking(room, state, player.volume);
  const [picked, setPicked] = useState<string>();
  const [actionError, setActionError] = useState<string>();
  const phone = useMediaQuery(PHONE_QUERY);
  const hasChat = room.hasChat !== false && state?.settings.hasChat !== false;
  const tabs = hasChat ? TABS : TABS.filter((x) => x !== 'chat');
  const [chosenTab, setTab] = useState<RoomTab>('chat');
  const tab = tabs.includes(chosenTab) ? chosenTab : tabs[0]!;
  const [skips, setSkips] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  // On phones the room fills the screen below the site's header: where it starts is measured (the header wraps).
  useLayoutEffect(() => {
    const element = root.current;
    if (!phone || !element) return;
    const measure = () => element.style.setProperty('--room-top', `${Math.round(element.getBoundingClientRect().top + window.scrollY)}px`);
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [phone]);

  const queryClient = useQueryClient();
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

  // Entering a paid room may have charged its fee: the balance is read again once in.
  const paid = (room.entryFee ?? 0) > 0;
  const inRoom = snapshot.status === 'live';
  useEffect(() => {
    if (paid && inRoom && s.isLoggedIn) void queryClient.invalidateQueries({ queryKey: keys.tokenAccount });
  }, [paid, inRoom, s.isLoggedIn, queryClient]);

  // Skip to chat: the chat box when the person may write, else the history; once the chat tab shows.
  useEffect(() => {
    if (skips === 0) return;
    const target = document.getElementById('chat-input') ?? document.querySelector<HTMLElement>(`#${PANEL_ID.chat} [role="log"]`);
    target?.focus();
  }, [skips]);

  if (snapshot.status === 'kicked') {
    clearCurrentRoom();
    return <KickedScreen reason={snapshot.kickReason} />;
  }
  if (snapshot.status === 'failed' && snapshot.errorCode && ENTRY_FEE_CODES.has(snapshot.errorCode))
    return <EntryFeeRefused room={room} code={snapshot.errorCode} message={snapshot.error ?? ''} onRetry={() => live.retry()} />;
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
  /** A section's panel: a tab panel on phones (hidden unless chosen), a plain region elsewhere. */
  const panel = (name: RoomTab) =>
    phone ? { role: 'tabpanel', 'aria-labelledby': `room-tab-${name}`, hidden: tab !== name, 'data-tab': name } : { 'data-tab': name };
  const canSit = !!state && !stageFull(state) && mayTakeSeat(state, s.userUuid, s.isLoggedIn);

  return (
    <div className={`room${phone ? ' phone' : ''}`} ref={root}>
      {/* biome-ignore lint/a11y/useMediaCaption: the room's music: there is no speech to caption */}
      <audio ref={player.audio} preload="auto" data-testid="room-audio" />
      <div ref={player.video} className="playback-video-host" data-testid="room-video" />
      {hasChat && state && (
        <SkipToChat
          onSkip={() => {
            setTab('chat');
            setSkips((n) => n + 1);
          }}
        />
      )}
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
          <Scene
            state={state}
            animations={snapshot.animations}
            meUuid={s.userUuid}
            onPick={setPicked}
            onTakeSeat={canSit ? () => run('addDj', {}) : undefined}
          />
          <NowPlaying nowPlaying={nowPlaying} clock={live.clock} player={player.status} onEnableAudio={player.resume} state={state} />
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
          {s.isLoggedIn && <QueueStart queue={queue.data} seated={state.djs.some((dj) => dj.uuid === s.userUuid)} />}
          {phone && <RoomTabs tab={tab} tabs={tabs} onTab={setTab} />}
          <div className="room-side">
            {hasChat && (
              <div id={PANEL_ID.chat} className="room-panel" {...panel('chat')}>
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
                  composerExtra={<ConsumablePicker roomUuid={room.uuid} />}
                />
              </div>
            )}
            <div id={PANEL_ID.people} className="room-panel" {...panel('people')}>
              <PeoplePanel state={state} />
            </div>
          </div>
          <div id={PANEL_ID.room} className="room-panel room-info" {...panel('room')}>
            {s.isLoggedIn && <PlayingSong playing={nowPlaying?.song} />}
            {s.isLoggedIn && <QueuePanel songs={queue.data} />}
            <RecentSongs slug={room.slug} state={state} />
            <AboutRoom state={state} />
          </div>
          {picked && (
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
