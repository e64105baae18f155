// `npm run bench:k6`: the k6 load scenarios (deploy/k6) against a running
// platform (`npm start`, or BASE_URL), with BENCHMARKS.md's targets as their
// thresholds. Installs k6 (deploy/tools/install.sh, `go install`) when
// missing, runs the REST scenario then the rooms scenario, keeps k6's
// summaries in .local/bench/, and prints a Markdown table for BENCHMARKS.md.
//   npm run bench:k6 [-- rest|rooms]      env: BASE_URL, DURATION, BROWSE_RATE, LOGIN_RATE, LISTENERS, DJS, CHATTERS
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { localDir, repoRoot } from './lib/infra.js';

const baseUrl = process.env.BASE_URL ?? `http://localhost:${process.env.PORT ?? '8080'}`;
const which = process.argv.slice(2).filter((a) => a !== '--');
const scenarios = which.length > 0 ? which : ['rest', 'rooms'];

const ready = await fetch(`${baseUrl}/readyz`)
  .then((r) => r.ok)
  .catch(() => false);
if (!ready) {
  console.error(`No platform answers at ${baseUrl}/readyz. Start it first (npm start), or set BASE_URL.`);
  process.exit(1);
}

const install = spawnSync('bash', [join(repoRoot, 'deploy/tools/install.sh'), 'k6'], {
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
});
if (install.status !== 0) process.exit(install.status ?? 1);
const k6 = join(install.stdout.trim().split('\n').pop()!, 'k6');
const outDir = join(localDir, 'bench');
mkdirSync(outDir, { recursive: true });

interface Summary {
  metrics: Record<string, Record<string, number | Record<string, unknown>> & { thresholds?: Record<string, boolean> }>;
}
const rows: string[] = [];
let failed = false;
for (const scenario of scenarios) {
  const summaryFile = join(outDir, `k6-${scenario}.json`);
  console.log(`\n== k6 ${scenario} against ${baseUrl}`);
  const run = spawnSync(k6, ['run', '--quiet', '--summary-export', summaryFile, join(repoRoot, 'deploy/k6', `${scenario}.js`)], {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...process.env, BASE_URL: baseUrl, K6_RUN_ID: String(Date.now()), K6_NO_USAGE_REPORT: 'true' },
  });
  // 99: a threshold was crossed; the summary is still written.
  if (run.status !== 0) failed = true;
  const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as Summary;
  for (const [name, metric] of Object.entries(summary.metrics)) {
    if (!metric.thresholds) continue;
    const figures = ['med', 'p(95)', 'p(99)', 'max', 'value']
      .filter((k) => typeof metric[k] === 'number')
      .map((k) => (k === 'value' ? `rate ${Number(metric[k]).toFixed(4)}` : `${k} ${Number(metric[k]).toFixed(1)}`));
    const verdicts = Object.entries(metric.thresholds).map(([rule, crossed]) => `${rule} ${crossed ? '**missed**' : 'met'}`);
    rows.push(`| ${scenario} | ${name} | ${figures.join(', ')} | ${verdicts.join('; ')} |`);
  }
}
console.log(`\nk6 against ${baseUrl} (${new Date().toISOString()}):\n`);
console.log('| scenario | metric | figures (ms, or rate) | target |');
console.log('|---|---|---|---|');
for (const row of rows) console.log(row);
process.exit(failed ? 1 : 0);
