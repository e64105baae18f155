import { nameOf, useT } from '../i18n/i18n';
import { type AvatarLook, avatarLook, bodyColor } from './catalogue';

interface Props {
  avatarId?: string;
  color?: string;
  /** The person's uuid: someone who has not chosen an avatar gets a look made from it. */
  seed?: string;
  size?: number;
  title?: string;
  className?: string;
  /** Drawn beside the person's name (hidden from screen readers, which read the name). */
  decorative?: boolean;
}

/** A person drawn in SVG: body and clothes in their colour, head, face, hair and an accessory. */
export function Avatar({ avatarId, color, seed, size = 48, title, className, decorative }: Props) {
  const t = useT();
  const look = avatarLook(avatarId, seed);
  const ghost = look.id === 'ghost';
  const label = title ?? (look.derived ? undefined : nameOf(t.avatarNames, look.id));
  const drawing = (
    <>
      <g className="avatar-body">
        <Body look={look} fill={ghost ? '#E5E7EB' : bodyColor(look, color)} />
      </g>
      <g className="avatar-head">
        <HairBehind look={look} />
        <circle cx="32" cy="26" r="13" fill={look.skin} stroke="#0002" />
        <HairOver look={look} />
        <Face look={look} />
        <Accessory look={look} />
      </g>
    </>
  );
  if (decorative || !label)
    return (
      <svg className={className} width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
        {drawing}
      </svg>
    );
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 64 64" role="img" aria-label={label}>
      {title ? <title>{title}</title> : null}
      {drawing}
    </svg>
  );
}

const TORSO = 'M12 64 C12 46 22 40 32 40 C42 40 52 46 52 64 Z';

function Body({ look, fill }: { look: AvatarLook; fill: string }) {
  return (
    <>
      {look.top === 'tank' ? (
        <>
          <path d={TORSO} fill={look.skin} stroke="#0003" />
          <path d="M20 64 L20 46 Q26 42 28 46 Q32 50 36 46 Q38 42 44 46 L44 64 Z" fill={fill} />
        </>
      ) : (
        <path d={TORSO} fill={fill} stroke="#0003" />
      )}
      {look.top === 'hoodie' && (
        <g fill="none" stroke="#0004" strokeWidth="1.5">
          <path d="M20 45 Q32 55 44 45" />
          <path d="M29 50 V57 M35 50 V57" strokeLinecap="round" />
        </g>
      )}
      {look.top === 'collar' && <path d="M25 41 L32 48 L39 41 L35 40 L32 44 L29 40 Z" fill="#F8FAFC" />}
      {look.top === 'jacket' && (
        <g>
          <path d="M29 41 L32 64 L35 41 Z" fill="#F8FAFC" />
          <path d="M27 41 L31 58 L27 64 L20 64 L22 45 Z M37 41 L33 58 L37 64 L44 64 L42 45 Z" fill="#0005" />
        </g>
      )}
      {look.pattern === 'stripe' && <rect x="16" y="51" width="32" height="4" fill="#FFFFFF66" />}
      {look.pattern === 'dots' && (
        <g fill="#FFFFFF88">
          <circle cx="26" cy="54" r="1.6" />
          <circle cx="32" cy="58" r="1.6" />
          <circle cx="38" cy="54" r="1.6" />
        </g>
      )}
      {look.pattern === 'bolt' && <path d="M34 46 L28 55 L32 55 L30 62 L37 52 L33 52 Z" fill="#FDE047" />}
      {look.pattern === 'star' && (
        <path
          d="M32 49 L33.8 53.6 L38.6 53.8 L34.8 56.8 L36.2 61.4 L32 58.8 L27.8 61.4 L29.2 56.8 L25.4 53.8 L30.2 53.6 Z"
          fill="#FFFFFFCC"
        />
      )}
    </>
  );
}

function HairBehind({ look }: { look: AvatarLook }) {
  const c = look.hairColor;
  switch (look.hair) {
    case 'long':
      return <path d="M14 30 C14 8 50 8 50 30 L50 44 L14 44 Z" fill={c} />;
    case 'afro':
      return <circle cx="32" cy="22" r="18" fill={c} />;
    case 'bun':
      return <circle cx="32" cy="10" r="6" fill={c} />;
    case 'ponytail':
      return <path d="M42 18 Q58 24 51 46 Q48 34 41 28 Z" fill={c} />;
    default:
      return null;
  }
}

function HairOver({ look }: { look: AvatarLook }) {
  const c = look.hairColor;
  switch (look.hair) {
    case 'short':
    case 'bun':
    case 'ponytail':
      return <path d="M19 24 C19 10 45 10 45 24 C40 18 26 18 19 24 Z" fill={c} />;
    case 'mohawk':
      return <path d="M29 6 L35 6 L36 18 L28 18 Z" fill={c} />;
    case 'spiky':
      return <path d="M19 23 L21 11 L26 17 L29 8 L33 16 L37 8 L40 16 L45 11 L45 24 C40 18 26 18 19 23 Z" fill={c} />;
    case 'curly':
      return (
        <g fill={c}>
          <circle cx="21" cy="20" r="5" />
          <circle cx="26" cy="15" r="5" />
          <circle cx="32" cy="13" r="5" />
          <circle cx="38" cy="15" r="5" />
          <circle cx="43" cy="20" r="5" />
        </g>
      );
    case 'bob':
      return <path d="M18 32 C16 9 48 9 46 32 L46 37 L41 37 L41 24 C36 18 28 18 23 24 L23 37 L18 37 Z" fill={c} />;
    default:
      return null;
  }
}

function Face({ look }: { look: AvatarLook }) {
  const ink = '#222';
  return (
    <g>
      {look.eyes === 'dots' && (
        <g fill={ink}>
          <circle cx="27" cy="26" r="1.8" />
          <circle cx="37" cy="26" r="1.8" />
        </g>
      )}
      {look.eyes === 'happy' && (
        <path d="M25 27 q2 -3 4 0 M35 27 q2 -3 4 0" stroke={ink} strokeWidth="1.5" fill="none" strokeLinecap="round" />
      )}
      {look.eyes === 'wide' && (
        <g>
          <circle cx="27" cy="26" r="3" fill="#FFF" stroke="#0003" />
          <circle cx="37" cy="26" r="3" fill="#FFF" stroke="#0003" />
          <circle cx="27.6" cy="26.4" r="1.5" fill={ink} />
          <circle cx="37.6" cy="26.4" r="1.5" fill={ink} />
        </g>
      )}
      {look.eyes === 'sleepy' && <path d="M25 26.5 h4 M35 26.5 h4" stroke={ink} strokeWidth="1.6" strokeLinecap="round" />}
      {look.mouth === 'smile' && <path d="M27 32 Q32 36 37 32" stroke={ink} strokeWidth="1.6" fill="none" strokeLinecap="round" />}
      {look.mouth === 'grin' && <path d="M26.5 31 Q32 38.5 37.5 31 Z" fill="#FFF" stroke={ink} strokeWidth="1.2" strokeLinejoin="round" />}
      {look.mouth === 'flat' && <path d="M28.5 33 h7" stroke={ink} strokeWidth="1.6" strokeLinecap="round" />}
      {look.mouth === 'open' && <ellipse cx="32" cy="33" rx="2.4" ry="3" fill="#7F1D1D" />}
    </g>
  );
}

function Accessory({ look }: { look: AvatarLook }) {
  switch (look.accessory) {
    case 'headphones':
      return (
        <g fill="none" stroke="#111" strokeWidth="3">
          <path d="M18 26 C18 8 46 8 46 26" />
          <rect x="14" y="22" width="6" height="10" rx="2" fill="#111" />
          <rect x="44" y="22" width="6" height="10" rx="2" fill="#111" />
        </g>
      );
    case 'cap':
      return <path d="M18 18 C20 8 44 8 46 18 L54 20 L18 20 Z" fill="#2563EB" />;
    case 'glasses':
      return (
        <g stroke="#111" strokeWidth="1.5" fill="#0008">
          <rect x="22" y="23" width="8" height="6" rx="2" />
          <rect x="34" y="23" width="8" height="6" rx="2" />
        </g>
      );
    case 'crown':
      return <path d="M21 14 L25 4 L29 11 L32 3 L35 11 L39 4 L43 14 Z" fill="#FACC15" stroke="#A16207" />;
    case 'beanie':
      return (
        <g>
          <path d="M18 21 C18 5 46 5 46 21 Z" fill="#0F766E" />
          <rect x="17" y="18" width="30" height="5" rx="2" fill="#115E59" />
          <circle cx="32" cy="5" r="3" fill="#F8FAFC" />
        </g>
      );
    case 'bandana':
      return (
        <g fill="#DC2626">
          <path d="M19 20 C22 11 42 11 45 20 L45 22 L19 22 Z" />
          <path d="M45 19 L52 16 L50 23 Z" />
        </g>
      );
    case 'shades':
      return <path d="M20 23 H44 V26 Q39 31 34 26 Q32 24 30 26 Q25 31 20 26 Z" fill="#111" />;
    case 'earrings':
      return (
        <g fill="#FACC15">
          <circle cx="19.5" cy="31" r="1.8" />
          <circle cx="44.5" cy="31" r="1.8" />
        </g>
      );
    case 'flower':
      return (
        <g>
          {[0, 72, 144, 216, 288].map((a) => (
            <circle
              key={a}
              cx={43 + Math.cos((a * Math.PI) / 180) * 2.6}
              cy={15 + Math.sin((a * Math.PI) / 180) * 2.6}
              r="2.2"
              fill="#F472B6"
            />
          ))}
          <circle cx="43" cy="15" r="1.6" fill="#FDE047" />
        </g>
      );
    default:
      return null;
  }
}
