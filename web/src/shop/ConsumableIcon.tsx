// A consumable's picture: its imageUrl when an admin gave it one (the points
// service's files), else a drawing, a burst in a colour of its own made from
// its id, the same wherever it shows (shop, picker, chat).
import type { Consumable } from '../api/shop';

/** A hue from the id, the same every time. */
export function hueOf(id: string): number {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % 360;
}

const RAYS = Array.from({ length: 8 }, (_, i) => (i * Math.PI) / 4);

/** Decorative: its name is always written beside it. */
export function ConsumableIcon({ consumable, size = 32 }: { consumable: Pick<Consumable, 'id' | 'imageUrl'>; size?: number }) {
  if (consumable.imageUrl) {
    return <img className="consumable-icon" src={consumable.imageUrl} alt="" width={size} height={size} loading="lazy" />;
  }
  const hue = hueOf(consumable.id);
  return (
    <svg className="consumable-icon" width={size} height={size} viewBox="-12 -12 24 24" aria-hidden="true" focusable="false">
      <circle r="11.5" fill={`hsl(${hue} 70% 22%)`} />
      {RAYS.map((a) => (
        <line
          key={a}
          x1={Math.cos(a) * 4}
          y1={Math.sin(a) * 4}
          x2={Math.cos(a) * 9.5}
          y2={Math.sin(a) * 9.5}
          stroke={`hsl(${(hue + 40) % 360} 90% 70%)`}
          strokeWidth="1.8"
          strokeLinecap="round"
        />
      ))}
      <circle r="3.6" fill={`hsl(${hue} 95% 65%)`} />
    </svg>
  );
}
