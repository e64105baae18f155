// Bundles one workspace for its container image (deploy/docker/Dockerfile):
//   node deploy/docker/build.mjs <workspace dir> <out dir>
// Our TypeScript (the workspace, @spinroom/platform, @spinroom/contracts) is
// bundled into <out>/main.js (and migrate.js for a service with a database,
// register.js: the OpenTelemetry preload), with source maps for
// `node --enable-source-maps`, reduced to lines (below); every
// npm package stays external, loaded from
// the image's production node_modules, so the instrumentations still patch
// them. The gRPC descriptor set goes beside the bundles, where
// @spinroom/contracts/descriptors looks for it.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
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

// Workspaces whose bundle loads the instrumented packages with `require`
// (below), so require-in-the-middle patches them and the telemetry preload
// needs no ESM loader hook, whose thread is a second V8 isolate (24 MiB of the
// BFF's memory). Only where no npm package the bundle loads imports one of
// them as ESM itself (the BFF's: express, ws, grpc-health-check and
// rate-limiter-flexible are CommonJS or take the client they use). The
// services keep the hook: their packages are not checked (one importing pg or
// kafkajs as ESM would lose its spans without it).
const INSTRUMENTED_BY_REQUIRE = new Set(['bff']);
/** The npm packages the instrumentations patch (packages/platform/src/telemetry/sdk.ts, INSTRUMENTED_MODULES). */
const INSTRUMENTED_PACKAGES = /^(@grpc\/grpc-js|pg|ioredis|kafkajs)$/;
const byRequire = INSTRUMENTED_BY_REQUIRE.has(relative(repo, dir));

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
      // `import { Redis } from 'ioredis'` becomes esbuild's CommonJS interop over
      // `require('ioredis')`: every use reads the (patched) exports object.
      name: 'instrumented-by-require',
      setup(b) {
        if (!byRequire) return;
        b.onResolve({ filter: INSTRUMENTED_PACKAGES }, (args) =>
          args.namespace === 'instrumented' ? { path: args.path, external: true } : { path: args.path, namespace: 'instrumented' },
        );
        b.onLoad({ filter: /.*/, namespace: 'instrumented' }, (args) => ({
          contents: `module.exports = require(${JSON.stringify(args.path)});`,
          loader: 'js',
        }));
      },
    },
    {
      name: 'external-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@spinroom/') ? undefined : { path: args.path, external: true }));
      },
    },
  ],
  // ESM bundles of CommonJS-minded code: give them require and __dirname.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  // Tells the telemetry preload (register.ts) to leave the ESM loader hook out.
  define: { __SPINROOM_INSTRUMENTED_BY_REQUIRE__: String(byRequire) },
});

// Node decodes a bundle's whole source map when it loads the bundle and keeps
// it, about 100 bytes per mapping: esbuild maps every token, 360,000 mappings
// for the BFF (36 MiB of heap, mostly for the generated gRPC code). Keeping
// only the mappings where the original line changes keeps the file and line of
// every frame in a stack trace, and drops the column's precision and the names.
// The generated protobuf code (@spinroom/contracts' gen/: 86% of the BFF's
// mappings, 20 MiB of its heap) is mapped to nothing: a frame there keeps its
// place in the bundle, and every other frame its original file and line.
for (const file of Object.keys(result.metafile.outputs)) {
  if (!file.endsWith('.map')) continue;
  const map = JSON.parse(readFileSync(file, 'utf8'));
  const generated = map.sources.map((source) => /packages\/contracts\/src\/gen\//.test(source));
  map.mappings = lineMappings(map.mappings, (source) => generated[source]);
  map.names = [];
  writeFileSync(file, JSON.stringify(map));
}

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

/**
 * A source map's `mappings` (base64 VLQ: lines split by `;`, segments by `,`,
 * fields relative to the previous segment's) keeping, on each generated line,
 * only the segments where the original file or line changes (the first moved
 * to column 0), without names: every column still maps to the original line
 * the full map gives it. Code from a source `unmapped` names gets one segment
 * without a source where it starts (Node's lookup takes the nearest mapping
 * before a position, across lines), so it maps to nothing rather than to the
 * code before it.
 */
function lineMappings(mappings, unmapped = () => false) {
  const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const decode = (segment) => {
    const values = [];
    let value = 0;
    let shift = 0;
    for (const char of segment) {
      const digit = DIGITS.indexOf(char);
      value += (digit & 31) * 2 ** shift;
      if (digit & 32) shift += 5;
      else {
        values.push(value % 2 ? -(value - 1) / 2 : value / 2);
        value = 0;
        shift = 0;
      }
    }
    return values;
  };
  const encode = (n) => {
    let vlq = n < 0 ? -n * 2 + 1 : n * 2;
    let text = '';
    do {
      let digit = vlq % 32;
      vlq = Math.floor(vlq / 32);
      if (vlq > 0) digit |= 32;
      text += DIGITS[digit];
    } while (vlq > 0);
    return text;
  };
  const read = [0, 0, 0]; // source index, original line and column, as decoded so far
  const written = [0, 0, 0]; // the same, as last written
  let inUnmapped = false; // the last segment written maps to nothing
  return mappings
    .split(';')
    .map((line) => {
      const kept = [];
      let column = 0;
      let writtenColumn = 0;
      for (const segment of line ? line.split(',') : []) {
        const fields = decode(segment);
        column += fields[0];
        if (fields.length < 4) continue;
        for (let i = 0; i < 3; i += 1) read[i] += fields[i + 1];
        const at = kept.length === 0 ? 0 : column;
        if (unmapped(read[0])) {
          if (inUnmapped) continue;
          kept.push(encode(at - writtenColumn));
          writtenColumn = at;
          inUnmapped = true;
          continue;
        }
        if (!inUnmapped && kept.length > 0 && read[0] === written[0] && read[1] === written[1]) continue;
        kept.push(encode(at - writtenColumn) + read.map((n, i) => encode(n - written[i])).join(''));
        inUnmapped = false;
        writtenColumn = at;
        written.splice(0, 3, ...read);
      }
      return kept.join(',');
    })
    .join(';');
}
