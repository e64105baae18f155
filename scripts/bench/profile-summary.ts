// Summarises a V8 .cpuprofile (as written by `BENCH_CPU_PROF=<dir> npm run bench`):
// self time by package / area and the hottest functions.
//
//   node --import tsx scripts/bench/profile-summary.ts <file.cpuprofile> [top=25] [skip-seconds=0]
// skip-seconds leaves out the start of the profile (module loading, start-up).
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg, skipArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: profile-summary.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const skipUs = Number(skipArg ?? 0) * 1e6;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));

/** Where a frame's code lives: an npm package, Node's internals, our source, or V8 itself. */
function area(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : `(native) ${name}`;
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:internal/')) return url.replace(/^node:internal\/(deps\/)?/, 'node:').replace(/\.js$/, '');
  if (url.startsWith('node:')) return url;
  const ours = url.match(/\/work\/[^/]+\/[^/]+\/((?:packages|services)\/[^/]+|bff|scripts)\//);
  if (ours) return ours[1]!;
  return url;
}

const selfMs = new Map<number, number>();
let total = 0;
let elapsedUs = 0;
profile.samples.forEach((id, i) => {
  elapsedUs += profile.timeDeltas[i] ?? 0;
  if (elapsedUs < skipUs) return;
  const dt = (profile.timeDeltas[i] ?? 0) / 1000;
  selfMs.set(id, (selfMs.get(id) ?? 0) + dt);
  total += dt;
});

const areas = new Map<string, number>();
const functions = new Map<string, number>();
for (const [id, ms] of selfMs) {
  const { callFrame } = byId.get(id)!;
  const a = area(callFrame.url, callFrame.functionName);
  areas.set(a, (areas.get(a) ?? 0) + ms);
  const fn = `${callFrame.functionName || '(anonymous)'} ${a}:${callFrame.lineNumber + 1}`;
  functions.set(fn, (functions.get(fn) ?? 0) + ms);
}

const busy = total - (areas.get('(idle)') ?? 0);
const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title} (share of non-idle time, ${(busy / 1000).toFixed(1)} s busy of ${(total / 1000).toFixed(1)} s)`);
  for (const [key, ms] of [...map]
    .filter(([k]) => k !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)) {
    console.log(`${((100 * ms) / busy).toFixed(1).padStart(5)}%  ${key}`);
  }
};
print('Self time by area', areas);
print('Hottest functions (self time)', functions);
