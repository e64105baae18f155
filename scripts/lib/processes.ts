import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from './infra.js';

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Runs one service on Node 24 with the telemetry preload, prefixing each line
 * it prints with its name: from source with tsx, or, `bundled`, as its image
 * runs it: bundled by deploy/docker/build.mjs (`main.js` after `register.js`),
 * NODE_ENV=production. `entry` is `<workspace>/src/main.ts`.
 */
export function startServiceProcess(
  name: string,
  entry: string,
  env: Record<string, string>,
  options: { bundled?: boolean; nodeArgs?: string[] } = {},
): ServiceProcess {
  const { bundled = false, nodeArgs = [] } = options;
  const bundleDir = bundled ? bundleWorkspace(dirname(dirname(entry)), name) : undefined;
  const code = bundleDir
    ? ['--import', join(bundleDir, 'register.js'), join(bundleDir, 'main.js')]
    : ['--import', 'tsx', '--import', '@spinroom/platform/telemetry/register', entry];
  const child = spawn(
    process.execPath,
    // kafkajs schedules negative timeouts on Node 24 (harmless, see docs/decisions.md).
    ['--enable-source-maps', '--disable-warning=TimeoutNegativeWarning', ...nodeArgs, ...code],
    {
      cwd: repoRoot,
      env: { ...process.env, OTEL_SERVICE_NAME: name, ...(bundleDir ? { NODE_ENV: 'production' } : {}), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(`[${name}] ${line}\n`));
  }
  return managed(name, child);
}

/**
 * Bundles a workspace as its image does (deploy/docker/build.mjs) into a
 * git-ignored folder. Inside the repository, so the bundles find the npm
 * packages they leave external.
 */
function bundleWorkspace(workspace: string, name: string): string {
  const out = join(repoRoot, '.local/bundles', name);
  execFileSync(process.execPath, [join(repoRoot, 'deploy/docker/build.mjs'), workspace, out], { cwd: repoRoot, stdio: 'ignore' });
  return out;
}

/** A child process with a `stop()` that sends SIGTERM, and SIGKILL after 10 s. */
export function managed(name: string, child: ChildProcess): ServiceProcess {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls a URL until it answers 2xx, or fails after the timeout naming what it waited for. */
export async function waitForHttp(url: string, timeoutMs: number, exitedEarly?: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const early = exitedEarly?.();
    if (early) throw new Error(early);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not become ready within ${timeoutMs / 1000}s`);
}
