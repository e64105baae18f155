// The room drawn as a place: its design as the scene, the DJs behind the
// decks, the audience on the floor at their positions, heads nodding with the
// vibe, jumps and emoji on playedOneTimeAnimation.
import type { CSSProperties } from 'react';
import type { RoomState } from '../api/types';
import { Avatar } from '../avatars/Avatar';
import { nameOf, useT } from '../i18n/i18n';
import type { Animation } from './liveRoom';
import { nickname } from './roomState';

interface Props {
  state: RoomState;
  animations: Record<string, Animation>;
  meUuid: string | null;
  onPick: (uuid: string) => void;
}

const ANIMATION_MS = 2500;

function Person({
  uuid,
  state,
  animation,
  me,
  onPick,
  size,
}: {
  uuid: string;
  state: RoomState;
  animation?: Animation;
  me: boolean;
  onPick: (uuid: string) => void;
  size: number;
}) {
  const data = state.allUserData[uuid];
  const profile = data?.userProfile;
  const fresh = animation && Date.now() - animation.at < ANIMATION_MS;
  const vote = data?.songVotes?.like;
  const name = nickname(state, uuid);
  return (
    <button
      type="button"
      className={`person${fresh && animation.animation === 'jump' ? ' jump' : ''}${me ? ' me' : ''}${vote === true ? ' voted-up' : vote === false ? ' voted-down' : ''}`}
      onClick={() => onPick(uuid)}
      aria-label={name}
      data-user={uuid}
      key={animation?.at}
    >
      {fresh && animation.animation === 'emoji' && (
        <span className="bubble" aria-hidden="true">
          {animation.emoji ?? '🎉'}
        </span>
      )}
      <Avatar avatarId={profile?.avatarId} color={profile?.color} size={size} />
      <span className="name">{name}</span>
    </button>
  );
}

export function Scene({ state, animations, meUuid, onPick }: Props) {
  const t = useT();
  const design = (state.settings.design ?? 'CLUB').toLowerCase();
  // A vibe of 0.5 (no votes) nods at a relaxed pace; an awesome room nods fast, a lame one barely.
  const nod: CSSProperties = {
    ['--nod-duration' as string]: `${(1.6 - state.vibeMeter).toFixed(2)}s`,
    ['--nod-depth' as string]: `${Math.round(2 + state.vibeMeter * 6)}deg`,
  };
  const playing = !!state.nowPlaying;
  const seats = Math.max(1, state.settings.numberOfDjs ?? 1);
  return (
    // biome-ignore lint/a11y/useSemanticElements: the stage drawn as a picture, not a form's fieldset
    <div
      className={`scene design-${design}${playing ? ' playing' : ''}`}
      style={nod}
      role="group"
      aria-label={`${state.settings.name} (${nameOf(t.designs, state.settings.design)})`}
    >
      <div className="stage">
        <section className="decks" aria-label={t.djs}>
          {Array.from({ length: seats }, (_, i) => {
            const dj = state.djs[i];
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: a deck is its seat's position on the stage
              <div key={i} className={`deck${i === 0 && playing ? ' live' : ''}`}>
                {dj ? (
                  <Person uuid={dj.uuid} state={state} animation={animations[dj.uuid]} me={dj.uuid === meUuid} onPick={onPick} size={56} />
                ) : (
                  <span className="empty-seat" aria-hidden="true">
                    ·
                  </span>
                )}
                <div className="turntable" aria-hidden="true" />
              </div>
            );
          })}
        </section>
      </div>
      <div className="floor">
        {state.audienceUsers.map((user, i) => {
          const position = state.allUserData[user.uuid]?.position ?? { x: ((i * 0.37) % 0.9) + 0.05, y: ((i * 0.53) % 0.8) + 0.1 };
          return (
            <div key={user.uuid} className="spot" style={{ left: `${position.x * 92 + 4}%`, top: `${position.y * 80 + 10}%` }}>
              <Person
                uuid={user.uuid}
                state={state}
                animation={animations[user.uuid]}
                me={user.uuid === meUuid}
                onPick={onPick}
                size={44}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}
