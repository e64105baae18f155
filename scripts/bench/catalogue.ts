// Catalogue benchmark (`npm run bench` runs it after the user paths): the time
// from uploading a 3-minute song to its being VERIFIED (transcoded to AES-128
// HLS), and search requests per second over a catalogue of a few thousand songs.
// Starts its own services (every one of the list) and BFF, as their images run
// them (bundled), on ports of its own, on the dev profile's infrastructure and databases
// of its own.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { apiClient } from '../lib/http.js';
import { infraUp, localDir } from '../lib/infra.js';
import { startServiceProcess, waitForHttp, type ServiceProcess } from '../lib/processes.js';
import { bffEnvironment, servicePorts, startLocalService, type LocalServices } from '../lib/services.js';
import { SERVICE_NAMES } from '@spinroom/platform/core';
import { BENCH_LIMIT_ENV } from './run.js';

const run = promisify(execFile);
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const uploads = num('BENCH_UPLOADS', 3);
const catalogueSize = num('BENCH_CATALOGUE_SONGS', 3000);
const searchSeconds = num('BENCH_DURATION_S', 12);
const connections = num('BENCH_CONNECTIONS', 50);
const ports = { bff: 8280, ...servicePorts(28250) };
const account = { email: 'bench-catalogue@spinroom.local', password: 'bench-password-7f3a' };

const children: ServiceProcess[] = [];
const stopAll = () => Promise.all(children.reverse().map((c) => c.stop()));
process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;

async function main() {
  const infra = infraUp('dev');
  const common = { LOG_LEVEL: 'warn', ...BENCH_LIMIT_ENV };
  // Databases of its own (<database>_bench_catalogue); the BFF is ready only when every service serves.
  const local: LocalServices = { infra, ports, suffix: '_bench_catalogue', common };
  children.push(
    ...SERVICE_NAMES.map((name) => startLocalService(name, local, { bundled: true })),
    startServiceProcess('bff', 'bff/src/main.ts', bffEnvironment(local, ports.bff), { bundled: true }),
  );
  const bff = `http://127.0.0.1:${ports.bff}`;
  const call = apiClient(bff);
  await waitForHttp(`${bff}/readyz`, 120_000, () =>
    children.map((c) => (c.child.exitCode !== null ? `${c.name} exited` : '')).find(Boolean),
  );

  await call('POST', '/api/user-service/users/sign-up', undefined, account, [403]); // 403: made by an earlier run
  const { accessToken: token } = await call('POST', `/api/user-service/auth/login`, undefined, account);

  // Upload to verified, for a 3-minute song (MP3, 128 kb/s, about 2.9 MB).
  const dir = join(localDir, 'dev', 'bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'three-minutes.mp3');
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=330:duration=180',
    '-codec:a',
    'libmp3lame',
    '-b:a',
    '128k',
    file,
  ]);
  const bytes = readFileSync(file);
  const accepted: number[] = [];
  const verified: number[] = [];
  for (let i = 0; i < uploads; i += 1) {
    const form = new FormData();
    form.append('trackName', `Three minutes ${Date.now()}-${i}`);
    form.append('artistName', 'Bench');
    form.append('file', new Blob([bytes], { type: 'audio/mpeg' }), 'three-minutes.mp3');
    const started = performance.now();
    const { songId } = await call('POST', `/api/upload-service/upload/song`, token, form);
    accepted.push(performance.now() - started);
    for (;;) {
      const song = await call('GET', `/api/upload-service/songs/${songId}`, token);
      if (song.status === 'VERIFIED') break;
      if (song.status === 'VERIFICATION_ERROR') throw new Error('transcoding failed');
      await new Promise((r) => setTimeout(r, 50));
    }
    verified.push(performance.now() - started);
  }

  // A catalogue of provider songs, then search at 50 connections.
  const words = [
    'velvet',
    'morning',
    'city',
    'night',
    'orbit',
    'static',
    'sunday',
    'river',
    'neon',
    'echo',
    'gold',
    'paper',
    'glass',
    'fire',
    'ocean',
    'dream',
  ];
  const pick = (n: number) => words[n % words.length]!;
  for (let start = 0; start < catalogueSize; start += 100) {
    const songs = Array.from({ length: Math.min(100, catalogueSize - start) }, (_, k) => {
      const n = start + k;
      return {
        musicProvider: 'spotify',
        songId: `bench-${n}`,
        trackName: `${pick(n)} ${pick(n * 7 + 3)} ${n}`,
        artistName: `Artist ${pick(n * 3)} ${n % 97}`,
        duration: 120 + (n % 200),
      };
    });
    const added = await call('POST', `/api/playlist-service/crate/special/likes/songs`, token, { songs });
    if (!added.songs) throw new Error('could not fill the catalogue');
    await call('POST', `/api/playlist-service/crate/special/likes/songs/clear`, token);
  }
  const queries = ['velvet morning', 'neon', 'glass fire', 'ocean dream 12', 'artist echo', 'nigth city'];
  const result = await autocannon({
    url: bff,
    connections,
    duration: searchSeconds,
    requests: queries.map((q) => ({
      method: 'GET',
      path: `/api/playlist-service/search?q=${encodeURIComponent(q)}`,
      headers: { authorization: `Bearer ${token}` },
    })),
  });
  await stopAll();

  const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
  console.log(`
Run ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}, \`npm run bench\` (scripts/bench/catalogue.ts), Node ${process.version}.

| measure | value |
|---|--:|
| 3-minute MP3 (${(bytes.length / 1e6).toFixed(1)} MB) upload answered (201), p50 of ${uploads} | ${fmt(percentile(accepted, 50))} ms |
| 3-minute MP3 upload to VERIFIED (transcoded to AES-128 HLS), p50 / max of ${uploads} | ${fmt(percentile(verified, 50))} ms / ${fmt(Math.max(...verified))} ms |
| catalogue search over ${fmt(catalogueSize)}+ songs, ${connections} connections, ${searchSeconds} s: req/s (2xx) | ${fmt(result['2xx'] / searchSeconds)} |
| search latency p50 / p99 | ${fmt(result.latency.p50)} ms / ${fmt(result.latency.p99)} ms |
| search non-2xx / errors | ${result.non2xx} / ${result.errors} |
`);
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
