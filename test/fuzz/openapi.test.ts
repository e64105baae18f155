import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderStandIns } from '../support/provider-stand-ins.js';
import { api, freshEmail, startPlatform, type TestPlatform } from '../support/platform.js';

/**
 * Schemathesis over every operation of /api/openapi.json, as an ordinary signed-in
 * user (and, for /chat, with that user's chat token), with every music provider
 * on through its local stand-in, so that no operation answers 503 by design.
 * Zero server errors, every answer documented and matching its schema.
 */
const ST = process.env.SCHEMATHESIS_BIN ?? join(process.cwd(), '.local/tools/bin/st');
/** Examples per operation and the run's time budget: the run stays under 5 minutes here. */
const MAX_EXAMPLES = Number(process.env.FUZZ_MAX_EXAMPLES ?? 30);
const MAX_SECONDS = Number(process.env.FUZZ_MAX_SECONDS ?? 240);
/** A fixed seed, so that CI runs the same cases and a failure reproduces; FUZZ_SEED explores others. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const CHECKS = ['not_a_server_error', 'response_schema_conformance', 'status_code_conformance'];

/**
 * Operations left out, each with its reason; everything else is fuzzed. None is:
 * every provider's stand-in runs, so no operation answers 503 by design.
 */
const LEFT_OUT: Array<{ pathRegex: string; why: string }> = [];

describe('the REST API under schemathesis', () => {
  let standIns: Awaited<ReturnType<typeof startProviderStandIns>>;
  let platform: TestPlatform;
  let token: string;
  let chatToken: string;

  beforeAll(async () => {
    standIns = await startProviderStandIns();
    platform = await startPlatform({ providerEnv: standIns.env, user: standIns.user });
    token = (
      await api(platform.baseUrl, 'POST', '/api/user-service/users/sign-up', {
        body: { email: freshEmail(), password: 'correct horse battery' },
      })
    ).body.accessToken;
    chatToken = (await api(platform.baseUrl, 'GET', '/api/user-service/comet-chat/user-token', { token })).body.cometAuthToken;
    // Something to find: a room and a crate of the fuzzing user's.
    await api(platform.baseUrl, 'POST', '/api/room-service/rooms/infrastructure', { token, body: { name: 'Fuzz Room' } });
    await api(platform.baseUrl, 'POST', '/api/playlist-service/crate', { token, body: { crateName: 'Fuzz Crate' } });
  });
  afterAll(async () => {
    await platform?.stop();
    await standIns?.close();
  });

  it(
    'answers every operation without a server error, in a documented status and schema',
    async () => {
      expect(existsSync(ST), `schemathesis is installed by deploy/tools/install.sh schemathesis (looked for ${ST})`).toBe(true);
      const reportDir = join(process.cwd(), 'test-artifacts', 'fuzz');
      rmSync(reportDir, { recursive: true, force: true });
      mkdirSync(reportDir, { recursive: true });
      const args = [
        'run',
        `${platform.baseUrl}/api/openapi.json`,
        '--checks',
        CHECKS.join(','),
        '--max-examples',
        String(MAX_EXAMPLES),
        '--max-time',
        String(MAX_SECONDS),
        '--seed',
        String(SEED),
        // One worker: with two threads, Hypothesis's concurrent `ast.parse` calls trip CPython
        // 3.11's shared AST recursion counter (gh-106905), a SystemError that ends the run.
        '--workers',
        '1',
        '--phases',
        'examples,coverage,fuzzing',
        '--suppress-health-check',
        'all',
        '--request-timeout',
        '20',
        '--no-color',
        '--output-truncate',
        'false',
        '--report',
        'junit',
        '--report-dir',
        reportDir,
        '-H',
        `Authorization: Bearer ${token}`,
        '-H',
        'appid: spinroom',
        '-H',
        `authtoken: ${chatToken}`,
        ...LEFT_OUT.flatMap((o) => ['--exclude-path-regex', o.pathRegex]),
      ];
      const { code, output } = await run(ST, args);
      const summary = output.split('\n').slice(-80).join('\n');
      // The seed reproduces a failure: FUZZ_SEED=<seed> npm test -- test/fuzz/openapi.test.ts
      expect(code, `schemathesis (seed ${SEED}) found failures:\n${failures(output)}\n${summary}`).toBe(0);
    },
    (MAX_SECONDS + 120) * 1000,
  );
});

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', SCHEMATHESIS_TELEMETRY: 'false' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** The FAILURES section of schemathesis' report, where it names each failing operation and how to reproduce it. */
function failures(output: string): string {
  const start = output.indexOf('FAILURES');
  return start >= 0 ? output.slice(start, start + 20_000) : '';
}
