// geoip-lite's database in the audit image (deploy/docker/Dockerfile): 112 MB
// as the package ships it, 25 MB packed with Brotli.
//   node geoip-data.mjs pack <data dir>   at build time: each *.dat becomes *.dat.br
//   node --import ./geoip-data.mjs ...    at start: every *.dat.br of geoip-lite's
//                                         data folder unpacked into $GEODATADIR,
//                                         where geoip-lite reads its database
// GEODATADIR is under /tmp (the pod's emptyDir: the root filesystem is
// read-only); unpacking takes about half a second, before the service starts.
import { createReadStream, createWriteStream, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { brotliCompressSync, constants, createBrotliDecompress } from 'node:zlib';

const PACKED = '.br';

if (process.argv[2] === 'pack') {
  const dir = process.argv[3];
  if (!dir) throw new Error('usage: node geoip-data.mjs pack <data dir>');
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.dat'))) {
    const data = readFileSync(join(dir, name));
    // Quality 6 with a 16 MB window: 25 MB for the five files in seconds (quality 9 saves 4 MB more in minutes).
    const packed = brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 6,
        [constants.BROTLI_PARAM_LGWIN]: 24,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    });
    writeFileSync(join(dir, name + PACKED), packed);
    rmSync(join(dir, name));
  }
} else if (process.env.GEODATADIR) {
  const from = join(dirname(createRequire(import.meta.url).resolve('geoip-lite/package.json')), 'data');
  const to = process.env.GEODATADIR;
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from).filter((n) => n.endsWith(`.dat${PACKED}`))) {
    const target = join(to, name.slice(0, -PACKED.length));
    const partial = `${target}.${process.pid}.part`;
    await pipeline(createReadStream(join(from, name)), createBrotliDecompress(), createWriteStream(partial));
    renameSync(partial, target);
  }
}
