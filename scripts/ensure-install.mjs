// Runs before `npm start` and `npm test`, on whatever Node the machine has:
// installs the dependencies (and with them Node 24 and the generated contracts)
// when they are missing or older than package-lock.json.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const marker = 'node_modules/.package-lock.json';
const stale =
  !existsSync(marker) || !existsSync('node_modules/.bin/node') || statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs;

if (stale) {
  // `npm install`, not `npm ci`: the registry here lacks some other platforms'
  // optional binaries (e.g. @bufbuild/buf-darwin-arm64@1.75.0), which the lock
  // file therefore cannot list, and `npm ci` refuses such a lock file.
  console.log('Installing dependencies (npm install)...');
  execSync('npm install --no-audit --no-fund', { stdio: 'inherit' });
} else if (!existsSync('packages/contracts/src/gen/descriptors.binpb')) {
  execSync('npm run generate', { stdio: 'inherit' });
}
