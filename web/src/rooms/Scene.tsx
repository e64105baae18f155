// The room drawn as a place: its design as the backdrop and stage (stage/),
// the song's artwork on the stage's screen, the DJs at the decks (free seats
// invite whoever may DJ), the audience on the floor at their positions,
// bobbing with the vibe, jumping and sending emoji on playedOneTimeAnimation.
// Everyone drawn is one group and one tab stop: arrow keys move between them
// (roving focus), Enter opens their menu.
import { type CSSProperties, type KeyboardEvent, useRef, useState } from 'react';
import type { RoomState } from '../api/types';
import { Avatar } from '../avatars/Avatar';
import { nameOf, useT } from '../i18n/i18n';
import { playingDj } from '../stage/booth';
import { Backdrop } from '../stage/Backdrop';
import { designLook, drawnDesign } from '../stage/designs';
import type { Animation } from './liveRoom';
import { artwork } from './playback';
import { nickname } from './roomState';

interface Props {
  state: RoomState;
  animations: Record<string, Animation>;
  meUuid: string | null;
  onPick: (uuid: string) => void;
  /** Set when this person may take a free seat: the free seats offer it. */
  onTakeSeat?: () => void;
}

const ANIMATION_MS = 2500;
/** Above this many people on the floor, only your own name shows (the rest on hover and focus). */
const NAMED_FLOOR = 12;
const KEYS_ID = 'scene-keys';

/** 0..1 from a uuid: each person bobs on their own beat. */
function phase(uuid: string): number {
  let h = 0;
  for (let i = 0; i < uuid.length; i += 1) h = (h * 31 + uuid.charCodeAt(i)) >>> 0;
  return (h % 1000) / 1000;
}

function Person({
  uuid,
  state,
  animation,
  me,
  live,
  named,
  focusable,
  onPick,
  onFocus,
  size,
}: {
  uuid: string;
  state: RoomState;
  animation?: Animation;
  me: boolean;
  live?: boolean;
  named: boolean;
  focusable: boolean;
  onPick: (uuid: string) => void;
  onFocus: (uuid: string) => void;
  size: number;
}) {
  const data = state.allUserData[uuid];
  const profile = data?.userProfile;
  const fresh = animation && Date.now() - animation.at < ANIMATION_MS;
  const vote = data?.songVotes?.like;
  const name = nickname(state, uuid);
  const classes = ['person', me && 'me', live && 'live', named && 'named', vote === true && 'voted-up', vote === false && 'voted-down'];
  return (
    <button
      type="button"
      className={classes.filter(Boolean).join(' ')}
      onClick={() => onPick(uuid)}
      onFocus={() => onFocus(uuid)}
      aria-label={name}
      data-user={uuid}
      tabIndex={focusable ? 0 : -1}
    >
      <span className="bob" style={{ ['--phase' as string]: phase(uuid).toFixed(3) }}>
        {/* A new animation remounts only the figure, so the button keeps the focus. */}
        <span key={animation?.at} className={`figure${fresh && animation.animation === 'jump' ? ' jump' : ''}`}>
          {fresh && animation.animation === 'emoji' && (
            <span className="bubble" aria-hidden="true">
              {animation.emoji ?? '🎉'}
            </span>
          )}
          <Avatar avatarId={profile?.avatarId} color={profile?.color} seed={uuid} size={size} decorative />
        </span>
      </span>
      <span className="name" aria-hidden="true">
        {name}
      </span>
    </button>
  );
}

export function Scene({ state, animations, meUuid, onPick, onTakeSeat }: Props) {
  const t = useT();
  const design = drawnDesign(state.settings.design);
  const look = designLook(design);
  const group = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState<string>();
  const playing = !!state.nowPlaying;
  const seats = Math.max(1, state.settings.numberOfDjs ?? 1, state.djs.length);
  const live = playingDj(state);
  const art = state.nowPlaying ? artwork(state.nowPlaying.song) : undefined;
  const audience = state.audienceUsers;
  // Everyone drawn, in the order the arrow keys walk: the DJs, then the floor.
  const order = [...state.djs.map((d) => d.uuid), ...audience.map((u) => u.uuid)];
  const current = active && order.includes(active) ? active : order[0];
  // The vibe (0..1, 0.5 without votes) sets how deep heads nod and bodies bob, and how fast.
  const vibe = Math.min(1, Math.max(0, state.vibeMeter));
  const moves: CSSProperties = {
    ['--nod-duration' as string]: `${(1.6 - vibe).toFixed(2)}s`,
    ['--nod-depth' as string]: `${Math.round(2 + vibe * 6)}deg`,
    ['--bob-duration' as string]: `${(1.1 - vibe * 0.6).toFixed(2)}s`,
    ['--bob-height' as string]: `${(1 + vibe * 7).toFixed(1)}px`,
    ['--accent' as string]: look.accent,
    ['--accent-2' as string]: look.accent2,
  };

  const move = (event: KeyboardEvent) => {
    if (!current || order.length === 0) return;
    const at = order.indexOf(current);
    const to =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? (at + 1) % order.length
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? (at - 1 + order.length) % order.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? order.length - 1
              : -1;
    if (to < 0) return;
    event.preventDefault();
    const uuid = order[to]!;
    setActive(uuid);
    group.current?.querySelector<HTMLElement>(`[data-user="${CSS.escape(uuid)}"]`)?.focus();
  };

  const person = (uuid: string, size: number, extra: { live?: boolean; named: boolean }) => (
    <Person
      uuid={uuid}
      state={state}
      animation={animations[uuid]}
      me={uuid === meUuid}
      focusable={uuid === current}
      onPick={onPick}
      onFocus={setActive}
      size={size}
      {...extra}
    />
  );

  return (
    <figure
      className={`scene${playing ? ' playing' : ''}${look.brightFloor ? ' bright-floor' : ''}`}
      data-design={design}
      style={moves}
      aria-label={`${state.settings.name} (${nameOf(t.designs, design)})`}
    >
      <Backdrop look={look} />
      <div className="screen" aria-hidden="true">
        {art ? <img src={art} alt="" /> : <span className="vinyl" />}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a roving-focus group of people, not a form's fieldset */}
      <div className="scene-people" role="group" aria-label={t.peopleInRoom} aria-describedby={KEYS_ID} ref={group} onKeyDown={move}>
        <p id={KEYS_ID} className="sr-only">
          {t.sceneKeys}
        </p>
        <ul className="decks" aria-label={t.djs}>
          {Array.from({ length: seats }, (_, i) => {
            const dj = state.djs[i];
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: a deck is its seat's place on the stage
              <li key={i} className={`deck${dj && dj.uuid === live ? ' live' : ''}${dj ? '' : ' free'}`}>
                {dj ? (
                  person(dj.uuid, 72, { live: dj.uuid === live, named: true })
                ) : (
                  <div className="free-seat">
                    <span className="sr-only">{t.freeSeat}</span>
                    {onTakeSeat ? (
                      // The toolbar's "Take a seat" is the one for keyboards and screen readers; this is a nearer target to tap.
                      <button type="button" className="seat-invite" tabIndex={-1} aria-hidden="true" onClick={onTakeSeat}>
                        {t.takeSeat}
                      </button>
                    ) : (
                      <span className="seat-label" aria-hidden="true">
                        {t.freeSeat}
                      </span>
                    )}
                  </div>
                )}
                <div className="turntable" aria-hidden="true" />
              </li>
            );
          })}
        </ul>
        <ul className="floor" aria-label={t.onTheFloor}>
          {audience.map((user, i) => {
            const position = state.allUserData[user.uuid]?.position ?? { x: ((i * 0.37) % 0.9) + 0.05, y: ((i * 0.53) % 0.8) + 0.1 };
            const x = Math.min(1, Math.max(0, position.x));
            const y = Math.min(1, Math.max(0, position.y));
            return (
              <li key={user.uuid} className="spot" style={{ left: `${x * 88 + 6}%`, top: `${y * 34 + 64}%`, zIndex: Math.round(y * 100) }}>
                {person(user.uuid, 52, { named: audience.length <= NAMED_FLOOR || user.uuid === meUuid })}
              </li>
            );
          })}
        </ul>
      </div>
    </figure>
  );
}
