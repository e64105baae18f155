import { spawn, spawnSync } from 'node:child_process';

let setprivChecked: boolean | undefined;

/**
 * Whether util-linux `setpriv --pdeathsig` is available: ffmpeg started
 * through it is killed by the kernel when this process dies, even by SIGKILL,
 * so a crashed service never leaves a transcoder running. (ffmpeg ignores
 * SIGPIPE, so a closed progress pipe does not stop it.)
 */
function canUseSetpriv(): boolean {
  if (setprivChecked === undefined) {
    const probe = spawnSync('setpriv', ['--pdeathsig', 'SIGKILL', '--', 'true'], { stdio: 'ignore' });
    setprivChecked = probe.status === 0;
  }
  return setprivChecked;
}

export interface RunOptions {
  /** Aborting kills the process (SIGKILL) and rejects with the abort reason. */
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Called with each chunk the process prints on stdout (always drained). */
  onStdout?: (chunk: Buffer) => void;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  /** The last 4 KB of stderr, for error messages. */
  stderr: string;
}

/**
 * Runs a media tool and waits for it to exit: the promise settles only once
 * the process is gone, so a caller may delete its files afterwards.
 */
export function runProcess(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const [file, argv] = canUseSetpriv() ? ['setpriv', ['--pdeathsig', 'SIGKILL', '--', command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(options.signal.reason);
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    // Boxed: an abort reason may be anything, even undefined, and the first one wins.
    let stopped: { reason: unknown } | undefined;
    const kill = (reason: unknown) => {
      stopped ??= { reason };
      child.kill('SIGKILL');
    };
    const onAbort = () => kill(options.signal!.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = options.timeoutMs
      ? setTimeout(() => kill(new Error(`${command} timed out after ${options.timeoutMs} ms`)), options.timeoutMs)
      : undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      if (options.onStdout) options.onStdout(chunk);
      else if (stdout.length < 4 * 1024 * 1024) stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4096);
    });
    // Not once: a failed kill() emits 'error' too, and the handler below kills.
    child.on('error', (error) => {
      if (child.pid === undefined) {
        // Never started (e.g. ENOENT): there is nothing to wait for.
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        reject(error);
      } else kill(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (stopped) reject(stopped.reason);
      else resolve({ code, stdout, stderr: stderr.trim() });
    });
  });
}
