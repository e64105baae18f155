// The last part of `npm run bench`: the k6 scenarios (deploy/k6) against the
// whole platform as `npm start` runs it, with the services bundled as their images
// run them (SPINROOM_BUNDLED=1). Starts `npm start`'s script on ports
// of its own (BFF :8480, gRPC from 28461 as scripts/lib/services.ts's servicePorts, metrics from 28481; the dev
// infrastructure is shared and left running), waits until it serves, runs
// scripts/bench-k6.ts against it, then stops it. bench-k6 prints the table for
// BENCHMARKS.md and keeps k6's summaries in .local/bench/.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../lib/infra.js';
import { waitForHttp } from '../lib/processes.js';
import { servicePorts } from '../lib/services.js';
import { assertPortFree, BENCH_LIMIT_ENV } from './run.js';

const port = Number(process.env.BENCH_K6_PORT ?? 8480);
await assertPortFree(port);
const platform = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/start.ts')], {
  cwd: repoRoot,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    PORT: String(port),
    ...Object.fromEntries(Object.entries(servicePorts(28460)).map(([name, port]) => [`${name.toUpperCase()}_GRPC_PORT`, String(port)])),
    METRICS_BASE_PORT: '28481',
    LOG_LEVEL: 'warn',
    SPINROOM_BUNDLED: '1',
    ...BENCH_LIMIT_ENV,
  },
});
let status = 1;
try {
  await waitForHttp(`http://127.0.0.1:${port}/readyz`, 300_000);
  console.log(`\nk6 against npm start on :${port}`);
  status =
    spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/bench-k6.ts')], {
      cwd: repoRoot,
      stdio: 'inherit',
      env: { ...process.env, BASE_URL: `http://127.0.0.1:${port}` },
    }).status ?? 1;
} finally {
  platform.kill('SIGINT');
  await new Promise((resolve) => platform.once('exit', resolve));
}
// bench-k6 exits 1 when a threshold was crossed (its table says which): a figure for
// BENCHMARKS.md, not a broken run; anything else is.
if (status === 1) console.log('Some k6 thresholds were crossed: see the table above.');
process.exit(status === 1 ? 0 : status);
