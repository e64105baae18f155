// Bundles one workspace for its container image (deploy/docker/Dockerfile):
//   node deploy/docker/build.mjs <workspace dir> <out dir>
// Our TypeScript (the workspace, @spinroom/platform, @spinroom/contracts) is
// bundled into <out>/main.js (and migrate.js for a service with a database,
// register.js: the OpenTelemetry preload), with source maps for
// `node --enable-source-maps`; every npm package stays external, loaded from
// the image's production node_modules, so the instrumentations still patch
// them. The gRPC descriptor set goes beside the bundles, where
// @spinroom/contracts/descriptors looks for it.
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const [workspace, outArg] = process.argv.slice(2);
if (!workspace || !outArg) {
  console.error('usage: node deploy/docker/build.mjs <workspace dir> <out dir>');
  process.exit(2);
}
const repo = resolve(import.meta.dirname, '../..');
const out = resolve(outArg);
const dir = join(repo, workspace);
const entries = { main: join(dir, 'src/main.ts'), register: join(repo, 'packages/platform/src/telemetry/register.ts') };
if (existsSync(join(dir, 'src/db/migrate.ts'))) entries.migrate = join(dir, 'src/db/migrate.ts');
if (!existsSync(entries.main)) throw new Error(`${workspace} has no src/main.ts`);

const result = await build({
  entryPoints: entries,
  outdir: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  sourcemap: true,
  sourcesContent: false,
  metafile: true,
  logLevel: 'warning',
  // npm packages are external (production node_modules); our workspaces are bundled.
  plugins: [
    {
      name: 'external-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@spinroom/') ? undefined : { path: args.path, external: true }));
      },
    },
  ],
  // ESM bundles of CommonJS-minded code: give them require and __dirname.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});

mkdirSync(join(out, 'gen'), { recursive: true });
copyFileSync(join(repo, 'packages/contracts/src/gen/descriptors.binpb'), join(out, 'gen/descriptors.binpb'));
// What the bundles import from npm: the image checks it installed each one.
const packages = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const imported of output.imports) {
    if (!imported.external || imported.path.startsWith('node:')) continue;
    const parts = imported.path.split('/');
    packages.add(imported.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
}
writeFileSync(join(out, 'external-packages.json'), `${JSON.stringify([...packages].sort(), null, 2)}\n`);
console.log(`${workspace}: ${Object.keys(entries).join(', ')} -> ${out} (${packages.size} npm packages)`);
