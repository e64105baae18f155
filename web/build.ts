// Builds the web client into web/dist when the build is missing or older than
// its sources (a fingerprint of every source file's path, size and mtime), so
// `npm start` and the browser tests serve a current client without a
// separate step. A fresh build takes ~15 s; an unchanged one is skipped in ms.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const webRoot = resolve(import.meta.dirname);
export const webDist = join(webRoot, 'dist');
const STAMP = '.source-fingerprint';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path) : [path];
  });
}

/** A fingerprint of everything the build reads. */
export function sourceFingerprint(): string {
  const inputs = [
    ...files(join(webRoot, 'src')),
    join(webRoot, 'index.html'),
    join(webRoot, 'vite.config.ts'),
    join(webRoot, 'package.json'),
    join(webRoot, '..', 'package-lock.json'),
  ];
  const hash = createHash('sha256');
  for (const path of inputs.sort()) {
    const stat = statSync(path);
    hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

export function webBuildIsCurrent(): boolean {
  const stamp = join(webDist, STAMP);
  return existsSync(join(webDist, 'index.html')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === sourceFingerprint();
}

/** Builds web/dist unless it is current; answers the folder the BFF serves. */
export function ensureWebBuild(log: (line: string) => void = () => {}): string {
  if (webBuildIsCurrent()) return webDist;
  const fingerprint = sourceFingerprint();
  const started = Date.now();
  log('Building the web client (web/dist)...');
  // Build beside the live folder and swap, so a server never sees half a build.
  const scratch = join(webRoot, `dist.building-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  const vite = join(webRoot, '..', 'node_modules', 'vite', 'bin', 'vite.js');
  execFileSync(process.execPath, [vite, 'build', webRoot, '--outDir', scratch, '--emptyOutDir'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    // A caller under vitest has NODE_ENV=test, which would bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  writeFileSync(join(scratch, STAMP), fingerprint);
  rmSync(webDist, { recursive: true, force: true });
  renameSync(scratch, webDist);
  log(`Web client built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return webDist;
}
