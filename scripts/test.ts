// `npm test`: starts PostgreSQL, Redis and Kafka on the `test` profile's own
// ports and data dirs, runs every vitest project against them, and ends with
// one plain line: `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureSigningKey, infraDown, infraUp, localDir, repoRoot } from './lib/infra.js';

const wasRunning = existsSync(join(localDir, 'test', 'infra.env')) && infraIsUp();
const infra = infraUp('test');
// helm, for the chart's tests (test/deploy): built once by `go install`, then kept;
// stripe-mock, Stripe's own mock API server, for the payment service's tests (built the same way);
// schemathesis, for the REST fuzzer (test/fuzz): installed once from PyPI into a virtualenv.
const tools = spawnSync('bash', [join(repoRoot, 'deploy/tools/install.sh'), 'helm', 'stripe-mock', 'schemathesis'], {
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
});
const toolsBin = tools.status === 0 ? tools.stdout.trim().split('\n').pop() : undefined;
if (!toolsBin) {
  console.error(
    'helm, stripe-mock or schemathesis could not be installed (deploy/tools/install.sh): the chart, payment and fuzz tests will fail',
  );
}
const signingKey = ensureSigningKey('test');
const results = join(localDir, 'test', 'vitest-results.json');
rmSync(results, { force: true });

const run = spawnSync(
  join(repoRoot, 'node_modules/.bin/vitest'),
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${results}`, ...process.argv.slice(2)],
  {
    cwd: repoRoot,
    stdio: 'inherit',
    env: {
      ...process.env,
      ...infra,
      JWT_PRIVATE_KEY_FILE: signingKey.path,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
      KAFKAJS_NO_PARTITIONER_WARNING: '1',
      ...(toolsBin
        ? { HELM_BIN: join(toolsBin, 'helm'), STRIPE_MOCK_BIN: join(toolsBin, 'stripe-mock'), SCHEMATHESIS_BIN: join(toolsBin, 'st') }
        : {}),
      NODE_OPTIONS: [process.env.NODE_OPTIONS, '--disable-warning=TimeoutNegativeWarning'].filter(Boolean).join(' '),
    },
  },
);

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(results)) {
  const report = JSON.parse(readFileSync(results, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numFailedTestSuites: number;
    numPendingTests: number;
  };
  passed = report.numPassedTests;
  skipped = report.numPendingTests;
  failed = report.numFailedTests + (report.numFailedTests === 0 && run.status !== 0 ? report.numFailedTestSuites : 0);
}
if (run.status !== 0 && failed === 0) failed = 1; // vitest itself failed (config, crash)

if (!wasRunning && process.env.SPINROOM_KEEP_INFRA !== '1') infraDown('test');
console.log(`${passed} passed, ${failed} failed`);
// A run that ran nothing fails; one whose tests all skipped, saying why (the container test on a machine without podman), does not.
process.exit(failed > 0 || (passed === 0 && skipped === 0) ? 1 : 0);

function infraIsUp(): boolean {
  const env = readFileSync(join(localDir, 'test', 'infra.env'), 'utf8');
  const port = env.match(/KAFKA_BROKERS=[^:]+:(\d+)/)?.[1];
  return port !== undefined && spawnSync('bash', ['-c', `exec 3<>/dev/tcp/127.0.0.1/${port}`]).status === 0;
}
