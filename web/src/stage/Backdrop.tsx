// The room's design drawn as one small SVG (320 x 180; no images): the back
// wall or sky, the stage the DJs stand on (its top at y 84, its front at 96)
// and the floor. Parts with a class move while a song plays (styles.css:
// .scene.playing), never under prefers-reduced-motion.
import { type ReactNode, useId } from 'react';
import type { DesignLook, StageShape } from './designs';

const W = 320;
const HORIZON = 96;

/** n evenly spaced values from `from`, `step` apart. */
const steps = (n: number, from: number, step: number) => Array.from({ length: n }, (_, i) => from + i * step);

export function Backdrop({ look }: { look: DesignLook }) {
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const sky = `sky${uid}`;
  const floor = `floor${uid}`;
  return (
    <svg className="backdrop" viewBox={`0 0 ${W} 180`} preserveAspectRatio="xMidYMid slice" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={sky} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor={look.sky[0]} />
          <stop offset="1" stopColor={look.sky[1]} />
        </linearGradient>
        <linearGradient id={floor} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor={look.floor[0]} />
          <stop offset="1" stopColor={look.floor[1]} />
        </linearGradient>
      </defs>
      <rect width={W} height={HORIZON} fill={`url(#${sky})`} />
      <rect y={HORIZON} width={W} height={180 - HORIZON} fill={`url(#${floor})`} />
      {BACKDROPS[look.backdrop](look, uid)}
      <Stage shape={look.stage} look={look} />
    </svg>
  );
}

type Draw = (look: DesignLook, uid: string) => ReactNode;

const club: Draw = (look) => (
  <g>
    {/* An LED wall behind the decks; the UA club shows the flag on it. */}
    <g className="led-wall">
      {steps(6, 16, 9).map((y, row) =>
        steps(16, 88, 9).map((x, col) => (
          <rect
            key={`${x}-${y}`}
            x={x}
            y={y}
            width={7.5}
            height={7.5}
            rx={1}
            fill={look.flag ? (row < 3 ? '#0057B7' : '#FFD700') : (row + col) % 3 === 0 ? look.accent2 : look.accent}
            opacity={look.flag ? 0.85 : 0.25 + ((row * 7 + col * 3) % 5) * 0.15}
          />
        )),
      )}
    </g>
    <line x1={160} y1={0} x2={160} y2={8} stroke="#CBD5E1" />
    <circle className="disco" cx={160} cy={12} r={6} fill="#CBD5E1" stroke="#64748B" strokeDasharray="2 1.5" />
    {[
      [30, look.accent],
      [80, look.accent2],
      [240, look.accent2],
      [290, look.accent],
    ].map(([x, color], i) => (
      <polygon
        key={String(x)}
        className={`beam beam-${i % 2 ? 'b' : 'a'}`}
        points={`${x},0 ${Number(x) - 26},${HORIZON + 40} ${Number(x) + 26},${HORIZON + 40}`}
        fill={String(color)}
        opacity={0.16}
      />
    ))}
    {/* The dance floor's tiles, in perspective. */}
    <g stroke={look.accent} strokeOpacity={0.25}>
      {steps(11, -160, 64).map((x) => (
        <line key={x} x1={160 + (x - 160) * 0.35} y1={HORIZON} x2={x} y2={180} />
      ))}
      {[108, 124, 146, 174].map((y) => (
        <line key={y} x1={0} y1={y} x2={W} y2={y} />
      ))}
    </g>
  </g>
);

/** A point on a quadratic curve. */
const quad = (t: number, a: number, b: number, c: number) => (1 - t) * (1 - t) * a + 2 * (1 - t) * t * b + t * t * c;

const barn: Draw = (look) => (
  <g>
    <g stroke="#00000038">
      {steps(23, 7, 14).map((x) => (
        <line key={x} x1={x} y1={0} x2={x} y2={HORIZON} />
      ))}
    </g>
    {look.flag && (
      // The open door: blue sky over a yellow wheat field.
      <g>
        <rect x={124} y={34} width={72} height={50} fill="#0057B7" />
        <rect x={124} y={60} width={72} height={24} fill="#FFD700" />
        <rect x={124} y={34} width={72} height={50} fill="none" stroke="#3B2414" strokeWidth={4} />
      </g>
    )}
    <g fill="none" stroke="#2B160A" strokeWidth={4}>
      <path d="M0 30 L160 2 L320 30" />
      <path d="M0 30 H320 M160 2 V30 M80 16 L100 30 M240 16 L220 30" strokeWidth={3} />
    </g>
    <path d="M8 40 Q84 62 160 42 Q236 62 312 40" fill="none" stroke="#00000066" />
    {steps(7, 0.08, 0.14).flatMap((t) => [
      <circle key={`l${t}`} className="bulb" cx={quad(t, 8, 84, 160)} cy={quad(t, 40, 62, 42)} r={2.2} fill={look.accent} />,
      <circle key={`r${t}`} className="bulb" cx={quad(t, 160, 236, 312)} cy={quad(t, 42, 62, 40)} r={2.2} fill={look.accent} />,
    ])}
    {look.flag &&
      steps(9, 20, 35).map((x, i) => <polygon key={x} points={`${x},32 ${x + 12},32 ${x + 6},42`} fill={i % 2 ? '#FFD700' : '#0057B7'} />)}
    {[
      [6, 66],
      [14, 44],
      [266, 66],
      [274, 44],
    ].map(([x, y]) => (
      <g key={`${x}-${y}`}>
        <rect x={x} y={y} width={42} height={22} rx={3} fill="#D4A017" stroke="#8A6410" />
        <path d={`M${x! + 4} ${y! + 7} h34 M${x! + 4} ${y! + 15} h34`} stroke="#8A6410" strokeWidth={0.8} />
      </g>
    ))}
    <g stroke="#00000026">
      {steps(6, 112, 13).map((y) => (
        <line key={y} x1={0} y1={y} x2={W} y2={y} />
      ))}
    </g>
  </g>
);

const festival: Draw = (look) => (
  <g>
    <circle className="sun" cx={252} cy={74} r={20} fill="#FDE68A" opacity={0.9} />
    <path d="M0 84 Q60 62 120 80 T240 76 T320 80 V96 H0 Z" fill="#365314" />
    {/* The main stage: truss towers, a roof, speaker stacks. */}
    <path d="M44 22 L160 4 L276 22 Z" fill="#18181B" />
    <rect x={50} y={20} width={220} height={7} fill="#3F3F46" />
    {[50, 262].map((x) => (
      <g key={x}>
        <rect x={x} y={20} width={8} height={76} fill="none" stroke="#A1A1AA" strokeWidth={1.2} />
        <path d={`M${x} 28 l8 10 l-8 10 l8 10 l-8 10 l8 10 l-8 10`} fill="none" stroke="#A1A1AA" strokeWidth={0.8} />
      </g>
    ))}
    {[62, 242].map((x) => (
      <g key={x}>
        <rect x={x} y={54} width={16} height={30} fill="#111" />
        <circle cx={x + 8} cy={62} r={4} fill="#27272A" stroke="#52525B" />
        <circle cx={x + 8} cy={75} r={5} fill="#27272A" stroke="#52525B" />
      </g>
    ))}
    {[
      [16, look.accent],
      [300, look.accent2],
    ].map(([x, color]) => (
      <g key={String(x)} className="flag">
        <line x1={Number(x)} y1={30} x2={Number(x)} y2={96} stroke="#E4E4E7" />
        <polygon points={`${x},30 ${Number(x) + 16},35 ${x},40`} fill={String(color)} />
      </g>
    ))}
    <g stroke="#84CC16" strokeOpacity={0.5}>
      {steps(12, 14, 27).map((x, i) => (
        <path key={x} d={`M${x} ${112 + (i % 4) * 16} l3 -6 l3 6`} fill="none" />
      ))}
    </g>
  </g>
);

const stadium: Draw = (look, uid) => (
  <g>
    <defs>
      <pattern id={`crowd${uid}`} width={6} height={5} patternUnits="userSpaceOnUse">
        <circle cx={3} cy={2.5} r={1.3} fill={look.accent2} opacity={0.55} />
      </pattern>
    </defs>
    {steps(9, 14, 36).map((x, i) => (
      <circle key={x} cx={x} cy={6 + (i % 3) * 5} r={0.7} fill="#E2E8F0" />
    ))}
    <path d="M0 38 Q160 26 320 38 V92 H0 Z" fill="#111827" />
    {[46, 60, 74].map((y) => (
      <rect key={y} x={0} y={y} width={W} height={10} fill="#1F2937" />
    ))}
    <path d="M0 38 Q160 26 320 38 V92 H0 Z" fill={`url(#crowd${uid})`} />
    {[22, 298].map((x) => (
      <g key={x}>
        <line x1={x} y1={4} x2={x} y2={92} stroke="#475569" strokeWidth={2} />
        <rect x={x - 9} y={2} width={18} height={8} fill={look.accent} />
        <polygon className="flood" points={`${x - 8},10 ${x + 8},10 ${x + (x < 160 ? 120 : -120)},150`} fill={look.accent} opacity={0.1} />
      </g>
    ))}
    {[68, 204].map((x) => (
      <rect key={x} x={x} y={48} width={48} height={30} fill="#0F172A" stroke={look.accent2} />
    ))}
    {steps(6, HORIZON, 14).map((y, i) => (i % 2 ? null : <rect key={y} x={0} y={y} width={W} height={14} fill="#FFFFFF" opacity={0.05} />))}
    <ellipse cx={160} cy={142} rx={44} ry={14} fill="none" stroke="#FFFFFF" strokeOpacity={0.35} />
    <line x1={160} y1={HORIZON} x2={160} y2={180} stroke="#FFFFFF" strokeOpacity={0.25} />
  </g>
);

const theater: Draw = (look) => (
  <g>
    {[false, true].map((right) => (
      <g key={String(right)} transform={right ? `translate(${W} 0) scale(-1 1)` : undefined}>
        <path d="M0 0 H74 Q62 44 78 96 H0 Z" fill={look.accent} />
        <path d="M18 6 Q10 50 20 96 M38 6 Q30 50 40 96 M58 6 Q50 50 60 96" fill="none" stroke="#00000040" strokeWidth={2} />
      </g>
    ))}
    <rect width={W} height={12} fill={look.accent} />
    <path
      d={`M0 12 ${steps(10, 0, 32)
        .map((x) => `Q${x + 16} 24 ${x + 32} 12`)
        .join(' ')}`}
      fill={look.accent}
      stroke="#00000040"
    />
    <path d="M36 96 V26 Q160 -2 284 26 V96" fill="none" stroke={look.accent2} strokeWidth={5} />
    <g stroke="#7F1D1D" strokeWidth={4} strokeDasharray="7 3" fill="none">
      {[118, 136, 156, 176].map((y, i) => (
        <path key={y} d={`M${10 - i * 10} ${y} Q160 ${y + 12} ${310 + i * 10} ${y}`} />
      ))}
    </g>
  </g>
);

const tomorrowland: Draw = (look) => (
  <g>
    {steps(14, 8, 23).map((x, i) => (
      <circle key={x} className="star" cx={x} cy={6 + ((i * 17) % 40)} r={i % 3 ? 0.8 : 1.3} fill="#FDF4FF" />
    ))}
    <circle cx={56} cy={26} r={13} fill="#FDF4FF" opacity={0.92} />
    <circle cx={61} cy={23} r={11} fill={look.sky[0]} opacity={0.55} />
    {[
      [40, 86, 12, '#581C87'],
      [70, 90, 8, '#9D174D'],
      [258, 84, 14, '#9D174D'],
      [290, 90, 9, '#581C87'],
    ].map(([x, y, r, color]) => (
      <g key={String(x)}>
        <rect x={Number(x) - 2} y={Number(y) - Number(r) / 2} width={4} height={HORIZON - Number(y) + Number(r) / 2} fill="#E9D5FF" />
        <ellipse cx={Number(x)} cy={Number(y) - Number(r) / 2} rx={Number(r)} ry={Number(r) * 0.6} fill={String(color)} />
      </g>
    ))}
    {[
      [110, 22, look.accent2],
      [214, 16, look.accent],
      [262, 40, look.accent2],
    ].map(([cx, cy, color]) => (
      <g key={String(cx)} className="burst" style={{ transformOrigin: `${cx}px ${cy}px` }}>
        {steps(8, 0, Math.PI / 4).map((a) => (
          <line
            key={a}
            x1={Number(cx) + Math.cos(a) * 3}
            y1={Number(cy) + Math.sin(a) * 3}
            x2={Number(cx) + Math.cos(a) * 11}
            y2={Number(cy) + Math.sin(a) * 11}
            stroke={String(color)}
            strokeWidth={1.4}
            strokeLinecap="round"
          />
        ))}
      </g>
    ))}
    <path d="M66 96 V52 A94 58 0 0 1 254 52 V96" fill="none" stroke={look.accent} strokeWidth={4} />
    <path d="M80 96 V56 A80 48 0 0 1 240 56 V96" fill="none" stroke={look.accent2} strokeWidth={1.5} strokeDasharray="3 3" />
    <ellipse cx={160} cy={150} rx={150} ry={30} fill={look.accent} opacity={0.12} />
  </g>
);

const underground: Draw = (look, uid) => (
  <g>
    <defs>
      <pattern id={`bricks${uid}`} width={20} height={10} patternUnits="userSpaceOnUse">
        <path d="M0 0.5 H20 M0 5.5 H20 M0.5 0 V5 M10.5 5 V10" stroke="#00000055" fill="none" />
      </pattern>
    </defs>
    <rect width={W} height={HORIZON} fill={`url(#bricks${uid})`} />
    <rect x={0} y={4} width={W} height={6} fill="#57534E" />
    <rect x={286} y={4} width={6} height={92} fill="#57534E" />
    {[60, 150, 240].map((x) => (
      <rect key={x} x={x} y={3} width={5} height={8} fill="#78716C" />
    ))}
    <line x1={160} y1={10} x2={160} y2={24} stroke="#111" />
    <circle className="bulb-glow" cx={160} cy={28} r={36} fill={look.accent2} opacity={0.12} />
    <circle cx={160} cy={28} r={4.5} fill="#FEF3C7" />
    <path d="M24 64 q8 -18 16 0 t16 0 t16 0 M30 74 l36 -4" fill="none" stroke={look.accent} strokeWidth={3} strokeLinecap="round" />
    <path d="M236 58 c10 -12 22 12 32 0 s16 10 24 -2" fill="none" stroke={look.accent2} strokeWidth={3} strokeLinecap="round" />
    <path d="M40 130 l30 8 l10 -6 M240 150 l-20 10" stroke="#00000066" fill="none" />
  </g>
);

const yacht: Draw = (look, uid) => (
  <g>
    <defs>
      <linearGradient id={`sea${uid}`} x1="0" y1="0" x2="0" y2="1">
        <stop offset="0" stopColor="#0EA5E9" />
        <stop offset="1" stopColor="#075985" />
      </linearGradient>
    </defs>
    {[
      [50, 20, 22],
      [200, 12, 16],
      [120, 34, 12],
    ].map(([x, y, r]) => (
      <g key={x} fill="#FFFFFF" opacity={0.85}>
        <ellipse cx={x} cy={y} rx={r} ry={Number(r) * 0.35} />
        <ellipse cx={Number(x) + Number(r) * 0.4} cy={Number(y) - Number(r) * 0.2} rx={Number(r) * 0.5} ry={Number(r) * 0.3} />
      </g>
    ))}
    <rect x={0} y={60} width={W} height={26} fill={`url(#sea${uid})`} />
    <path d="M222 61 q18 -14 40 0 Z" fill="#166534" />
    <g className="waves" stroke="#FFFFFF" strokeOpacity={0.55} fill="none">
      {[66, 73, 80].map((y, i) => (
        <path
          key={y}
          d={`M${-20 + i * 7} ${y} ${steps(12, 0, 30)
            .map(() => 'q7.5 -3 15 0 t15 0')
            .join(' ')}`}
        />
      ))}
    </g>
    <line x1={296} y1={2} x2={296} y2={90} stroke="#E5E7EB" strokeWidth={3} />
    <path d="M294 8 V78 H252 Z" fill="#F8FAFC" stroke="#CBD5E1" />
    <path d="M298 14 V70 H318 Z" fill={look.accent2} opacity={0.85} />
    <line x1={0} y1={86} x2={W} y2={86} stroke="#FFFFFF" strokeWidth={2} />
    <g stroke="#FFFFFF" strokeWidth={1.5}>
      {steps(17, 0, 20).map((x) => (
        <line key={x} x1={x} y1={86} x2={x} y2={HORIZON} />
      ))}
    </g>
    <g stroke="#00000026">
      {steps(8, 104, 10).map((y, i) => (
        <line key={y} x1={0} y1={y + i * 2} x2={W} y2={y + i * 2} />
      ))}
    </g>
    <circle className="sparkle" cx={86} cy={68} r={1.5} fill="#FFFFFF" />
    <circle className="sparkle" cx={180} cy={76} r={1.5} fill="#FFFFFF" />
  </g>
);

const ferry: Draw = (look) => (
  <g>
    <rect x={0} y={66} width={W} height={30} fill="#1E3A5F" />
    <g stroke="#FDE68A" strokeOpacity={0.5}>
      {[72, 80, 88].map((y, i) => (
        <line key={y} className="sparkle" x1={30 + i * 90} y1={y} x2={70 + i * 90} y2={y} />
      ))}
    </g>
    {/* The Bay Bridge: towers and cables. */}
    <g stroke="#CBD5E1" strokeOpacity={0.8} fill="none">
      <path d="M236 64 V32 M290 64 V32" strokeWidth={2} />
      <path d="M200 58 Q218 56 236 32 Q263 60 290 32 Q305 54 320 56" />
      <line x1={196} y1={60} x2={320} y2={60} strokeWidth={2} />
    </g>
    {/* The Ferry Building: its clock tower and the arcade. */}
    <rect x={84} y={50} width={152} height={20} fill="#D6D3D1" />
    {steps(12, 90, 12).map((x) => (
      <path key={x} className="window" d={`M${x} 68 V60 a3 3 0 0 1 6 0 V68 Z`} fill={look.accent} opacity={0.75} />
    ))}
    <rect x={150} y={14} width={20} height={40} fill="#E7E5E4" />
    <path d="M147 15 L160 2 L173 15 Z" fill="#A8A29E" />
    <circle cx={160} cy={24} r={5} fill={look.accent} stroke="#57534E" />
    <path d="M160 24 V21 M160 24 H162.5" stroke="#57534E" />
    <g stroke="#00000026">
      {steps(7, 16, 48).map((x) => (
        <line key={x} x1={160 + (x - 160) * 0.4} y1={HORIZON} x2={x} y2={180} />
      ))}
      {[112, 134, 162].map((y) => (
        <line key={y} x1={0} y1={y} x2={W} y2={y} />
      ))}
    </g>
  </g>
);

const lounge: Draw = (look) => (
  <g>
    <g stroke="#FFFFFF" strokeOpacity={0.05}>
      {steps(16, 10, 20).map((x) => (
        <line key={x} x1={x} y1={0} x2={x} y2={HORIZON} strokeWidth={6} />
      ))}
    </g>
    {[
      [34, 16, 64, look.accent],
      [222, 26, 58, look.accent2],
    ].map(([x, y, w, color]) => (
      <g key={String(x)} className="speech">
        <rect x={Number(x)} y={Number(y)} width={Number(w)} height={26} rx={11} fill={String(color)} opacity={0.9} />
        <path d={`M${Number(x) + 14} ${Number(y) + 25} l-4 9 l12 -9 Z`} fill={String(color)} opacity={0.9} />
        {[0, 1, 2].map((i) => (
          <circle key={i} cx={Number(x) + Number(w) / 2 - 10 + i * 10} cy={Number(y) + 13} r={2.5} fill="#1F1A24" />
        ))}
      </g>
    ))}
    <circle className="lamp" cx={292} cy={44} r={30} fill={look.accent2} opacity={0.18} />
    <line x1={292} y1={44} x2={292} y2={94} stroke="#A8A29E" strokeWidth={2} />
    <path d="M282 44 L286 30 H298 L302 44 Z" fill={look.accent2} />
    <path d="M8 94 V74 q0 -8 8 -8 H62 q8 0 8 8 V94 Z" fill="#7C2D4F" />
    <rect x={4} y={78} width={70} height={16} rx={5} fill="#9D3A63" />
    <ellipse cx={160} cy={140} rx={120} ry={26} fill={look.accent} opacity={0.12} />
  </g>
);

const BACKDROPS: Record<DesignLook['backdrop'], Draw> = {
  club,
  barn,
  festival,
  stadium,
  theater,
  tomorrowland,
  underground,
  yacht,
  ferry,
  lounge,
};

/** The stage's top at y 84, its front at 96 (the decks stand on it). */
function Stage({ shape, look }: { shape: StageShape; look: DesignLook }) {
  const base = { fill: look.stageColor };
  switch (shape) {
    case 'riser':
      return (
        <g>
          <rect x={56} y={84} width={208} height={12} {...base} />
          <rect className="led-strip" x={56} y={84} width={208} height={1.6} fill={look.accent} />
        </g>
      );
    case 'planks':
      return (
        <g>
          <rect x={52} y={84} width={216} height={12} {...base} stroke="#2B160A" />
          <path
            d={steps(21, 62, 10)
              .map((x) => `M${x} 84 V96`)
              .join(' ')}
            stroke="#2B160A"
            strokeOpacity={0.5}
          />
        </g>
      );
    case 'truss':
      return <rect x={50} y={84} width={220} height={12} {...base} stroke={look.accent} strokeOpacity={0.6} />;
    case 'platform':
      return <path d="M46 84 H274 L286 96 H34 Z" {...base} stroke={look.accent2} strokeOpacity={0.7} />;
    case 'proscenium':
      return (
        <g>
          <rect x={36} y={84} width={248} height={12} {...base} />
          {steps(17, 48, 14).map((x) => (
            <circle key={x} className="footlight" cx={x} cy={94} r={1.6} fill="#FDE68A" />
          ))}
        </g>
      );
    case 'arch':
      return <path d="M60 84 H260 L272 96 H48 Z" {...base} stroke={look.accent} strokeWidth={1.5} />;
    case 'crates':
      return (
        <g stroke="#18181B" strokeWidth={0.8}>
          {steps(8, 80, 20).map((x) => (
            <rect key={x} x={x} y={84} width={19} height={12} {...base} />
          ))}
          <path
            d={steps(8, 80, 20)
              .map((x) => `M${x + 4} 87 h11 M${x + 4} 91 h11`)
              .join(' ')}
          />
        </g>
      );
    case 'deck':
      return (
        <g>
          <rect x={66} y={84} width={188} height={12} {...base} />
          <rect x={66} y={90} width={188} height={2.5} fill={look.accent} />
        </g>
      );
    case 'pier':
      return (
        <g>
          <rect x={56} y={84} width={208} height={9} {...base} />
          <path
            d={steps(8, 62, 28)
              .map((x) => `M${x} 93 V100`)
              .join(' ')}
            stroke="#292524"
            strokeWidth={3}
          />
        </g>
      );
    case 'rug':
      return <ellipse cx={160} cy={92} rx={96} ry={8} {...base} stroke={look.accent} strokeDasharray="4 3" />;
  }
}
