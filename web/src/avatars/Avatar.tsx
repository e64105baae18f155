import { nameOf, useT } from '../i18n/i18n';
import { avatarLook } from './catalogue';

interface Props {
  avatarId?: string;
  color?: string;
  size?: number;
  title?: string;
  className?: string;
}

/** A person drawn in SVG: body in their colour, head, hair and one accessory. */
export function Avatar({ avatarId, color = '#8B5CF6', size = 48, title, className }: Props) {
  const t = useT();
  const look = avatarLook(avatarId);
  const ghost = look.id === 'ghost';
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 64 64"
      role="img"
      aria-label={title ?? nameOf(t.avatarNames, look.id)}
    >
      {title ? <title>{title}</title> : null}
      <g className="avatar-body">
        <path d="M12 64 C12 46 22 40 32 40 C42 40 52 46 52 64 Z" fill={ghost ? '#E5E7EB' : color} stroke="#0003" />
      </g>
      <g className="avatar-head">
        {look.hair === 'long' && <path d="M14 30 C14 8 50 8 50 30 L50 44 L14 44 Z" fill={look.hairColor} />}
        {look.hair === 'afro' && <circle cx="32" cy="22" r="18" fill={look.hairColor} />}
        <circle cx="32" cy="26" r="13" fill={look.skin} stroke="#0002" />
        {look.hair === 'short' && <path d="M19 24 C19 10 45 10 45 24 C40 18 26 18 19 24 Z" fill={look.hairColor} />}
        {look.hair === 'mohawk' && <path d="M29 6 L35 6 L36 18 L28 18 Z" fill={look.hairColor} />}
        <circle cx="27" cy="26" r="1.8" fill="#222" />
        <circle cx="37" cy="26" r="1.8" fill="#222" />
        <path d="M27 32 Q32 36 37 32" stroke="#222" strokeWidth="1.6" fill="none" strokeLinecap="round" />
        {look.accessory === 'headphones' && (
          <g fill="none" stroke="#111" strokeWidth="3">
            <path d="M18 26 C18 8 46 8 46 26" />
            <rect x="14" y="22" width="6" height="10" rx="2" fill="#111" />
            <rect x="44" y="22" width="6" height="10" rx="2" fill="#111" />
          </g>
        )}
        {look.accessory === 'cap' && <path d="M18 18 C20 8 44 8 46 18 L54 20 L18 20 Z" fill="#2563EB" />}
        {look.accessory === 'glasses' && (
          <g stroke="#111" strokeWidth="1.5" fill="#0008">
            <rect x="22" y="23" width="8" height="6" rx="2" />
            <rect x="34" y="23" width="8" height="6" rx="2" />
          </g>
        )}
        {look.accessory === 'crown' && <path d="M21 14 L25 4 L29 11 L32 3 L35 11 L39 4 L43 14 Z" fill="#FACC15" stroke="#A16207" />}
      </g>
    </svg>
  );
}
