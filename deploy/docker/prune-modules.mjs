// Keeps, in an image's production node_modules, only what its bundles can load
// (deploy/docker/Dockerfile, prod-deps stage):
//   node prune-modules.mjs <external-packages.json> <node_modules dir>
// The roots are the npm packages the bundles import (build.mjs lists them)
// and @grpc/grpc-js (healthcheck.mjs); from each, Node's resolution is followed
// through every dependency, optional dependency and installed peer dependency
// a package.json declares. A package nothing reaches is removed: the install
// holds every dependency of the workspace and of @spinroom/platform, most of
// which a given service never imports (sharp's libvips, 19 MB, outside the user
// and points services). Fails when a root is not installed.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const [listFile, modulesArg] = process.argv.slice(2);
if (!listFile || !modulesArg) {
  console.error('usage: node prune-modules.mjs <external-packages.json> <node_modules dir>');
  process.exit(2);
}
const modules = resolve(modulesArg);
const top = dirname(modules);

/** The folder Node loads `name` from when required in `from` (its node_modules, then each parent's). */
function packageDir(name, from) {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === top || dir === dirname(dir)) return undefined;
  }
}

const roots = [...JSON.parse(readFileSync(listFile, 'utf8')), '@grpc/grpc-js'];
const kept = new Set();
const queue = [];
for (const name of roots) {
  const dir = packageDir(name, top);
  if (!dir) throw new Error(`not installed: ${name}`);
  queue.push(dir);
}
while (queue.length > 0) {
  const dir = queue.pop();
  if (kept.has(dir)) continue;
  kept.add(dir);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const names = Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies, ...manifest.peerDependencies });
  for (const name of names) {
    const found = packageDir(name, dir);
    if (found) queue.push(found);
  }
}

/** Every package folder in a node_modules folder (scoped ones under their scope). */
function packagesIn(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((entry) => !entry.startsWith('.'))
    .flatMap((entry) => (entry.startsWith('@') ? readdirSync(join(dir, entry)).map((name) => join(dir, entry, name)) : [join(dir, entry)]))
    .filter((path) => statSync(path).isDirectory());
}

let removed = 0;
const walk = (dir) => {
  for (const pkg of packagesIn(dir)) {
    if (!kept.has(pkg)) {
      rmSync(pkg, { recursive: true, force: true });
      removed += 1;
    } else walk(join(pkg, 'node_modules'));
  }
};
walk(modules);
// Scopes left empty, the install's record of what it installed, and the
// packages' commands (an image runs node, never npm).
for (const entry of readdirSync(modules)) {
  if (entry.startsWith('@') && readdirSync(join(modules, entry)).length === 0) rmSync(join(modules, entry), { recursive: true });
}
rmSync(join(modules, '.package-lock.json'), { force: true });
rmSync(join(modules, '.bin'), { recursive: true, force: true });
console.log(`node_modules: ${kept.size} packages kept for ${roots.length} imports, ${removed} removed`);
