// Catalogue search at a real catalogue's size (issue 21): over bench
// catalogues of 3,000 and 1,000,000 songs (scripts/bench/search-catalogue.ts,
// Zipf-like words, loaded with COPY into databases of their own on the dev
// profile's PostgreSQL), GET /api/playlist-service/search at 50 connections
// through the BFF with a query mix (common words, rare words, artist names,
// prefixes as typed, misspellings), beside GET /api/user-service/users/profile
// measured in the same run: profile, search, profile, search with the
// service's answer cache off, profile, per catalogue. The search's share is of
// the mean of the profile runs around it. Then each query once, one at a time,
// with the cache off: latency by kind.
//
//   node --import tsx scripts/bench/search.ts
//
// Knobs: BENCH_SEARCH_SIZES (3000,1000000), BENCH_CONNECTIONS (50),
// BENCH_WARMUP_S (4), BENCH_DURATION_S (12), BENCH_SEARCH_DROP=1 (drop the
// catalogue databases afterwards; kept otherwise, so a re-run skips the load).
// Starts its own user service, playlist service and BFF (bundled, as their
// images run them) on ports of its own.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { apiClient } from '../lib/http.js';
import { databaseUrl, infraUp, localDir } from '../lib/infra.js';
import { startServiceProcess, waitForHttp, type ServiceProcess } from '../lib/processes.js';
import { bffEnvironment, servicePorts, startLocalService, type LocalServices } from '../lib/services.js';
import { postgresPids, startCpuWindow, type CpuGroup, type CpuReport } from './cpu.js';
import { BENCH_LIMIT_ENV, benchProcesses, gitRevision } from './run.js';
import { benchCatalogue, benchQueries, loadCatalogue, type LoadReport } from './search-catalogue.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const sizes = (process.env.BENCH_SEARCH_SIZES ?? '3000,1000000').split(',').map(Number);
const connections = num('BENCH_CONNECTIONS', 50);
const warmupSeconds = num('BENCH_WARMUP_S', 4);
const seconds = num('BENCH_DURATION_S', 12);
const ports = { bff: 8380, ...servicePorts(50350) };
const account = { email: 'bench-search@spinroom.local', password: 'bench-password-5c1e' };
const { children, stopAll } = benchProcesses<ServiceProcess>();

const databaseFor = (size: number) => `spinroom_playlist_bench_search_${size}`;
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mb = (bytes: number) => `${fmt(bytes / 2 ** 20)} MiB`;

interface Measured {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  cpu: CpuReport;
}

async function main() {
  const infra = infraUp('dev');
  const common = { LOG_LEVEL: 'warn', ...BENCH_LIMIT_ENV };
  const local: LocalServices = { infra, ports, suffix: '_bench_search', common };
  const catalogues = sizes.map((size) => ({ size, catalogue: benchCatalogue(size) }));
  const loads: LoadReport[] = [];
  for (const { size, catalogue } of catalogues) {
    console.error(`catalogue of ${fmt(size)} songs...`);
    loads.push(await loadCatalogue(databaseUrl(infra, databaseFor(size)), catalogue, size));
  }

  const user = startLocalService('user', local, { bundled: true });
  const bff = startServiceProcess('bff', 'bff/src/main.ts', bffEnvironment(local, ports.bff), { bundled: true });
  children.push(user, bff);
  const bffUrl = `http://127.0.0.1:${ports.bff}`;
  await waitForHttp(`${bffUrl}/healthz`, 120_000, () => (user.child.exitCode !== null ? 'user service exited' : undefined));
  const call = apiClient(bffUrl);
  // The BFF answers before the user service does: 503 until then. 403: made by an earlier run.
  for (let tries = 0; ; tries += 1) {
    const res = await call('POST', '/api/user-service/users/sign-up', undefined, account, [403, 503]);
    if (res.statusCode !== 503) break;
    if (tries > 240 || user.child.exitCode !== null) throw new Error('the user service did not answer');
    await new Promise((r) => setTimeout(r, 500));
  }
  const { accessToken: token } = await call('POST', '/api/user-service/auth/login', undefined, account);
  const headers = { authorization: `Bearer ${token}` };

  const postmasterPidFile = join(localDir, 'dev/postgres/data/postmaster.pid');
  const postmasterPid = existsSync(postmasterPidFile) ? Number(readFileSync(postmasterPidFile, 'utf8').split('\n')[0]) : undefined;
  let playlist: ServiceProcess | undefined;
  const cpuGroups: CpuGroup[] = [
    { name: 'load generator', pids: () => [process.pid] },
    { name: 'BFF', pids: () => [bff.child.pid!] },
    { name: 'user', pids: () => [user.child.pid!] },
    { name: 'playlist', pids: () => (playlist?.child.pid ? [playlist.child.pid] : []) },
    ...(postmasterPid ? [{ name: 'PostgreSQL', pids: () => postgresPids(postmasterPid) }] : []),
  ];

  const measure = async (label: string, paths: string[]): Promise<Measured> => {
    const requests = paths.map((path) => ({ method: 'GET' as const, path, headers }));
    await autocannon({ url: bffUrl, connections, duration: warmupSeconds, requests });
    const end = startCpuWindow(cpuGroups);
    const r = await autocannon({ url: bffUrl, connections, duration: seconds, requests });
    const cpu = end();
    return { label, rps: r['2xx'] / seconds, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, cpu };
  };

  const sections: string[] = [];
  const summary: string[] = [];
  for (const [i, { size, catalogue }] of catalogues.entries()) {
    const queries = benchQueries(catalogue);
    const searchPaths = Object.values(queries)
      .flat()
      .map((q) => `/api/playlist-service/search?q=${encodeURIComponent(q)}`);
    const profile = ['/api/user-service/users/profile'];
    const rows: Measured[] = [];
    const byKind: string[] = [];
    for (const cacheMs of ['5000', '0']) {
      playlist = startLocalService('playlist', local, {
        bundled: true,
        env: { DATABASE_URL: databaseUrl(infra, databaseFor(size)), SEARCH_CACHE_MS: cacheMs },
      });
      children.push(playlist);
      await waitForHttp(`${bffUrl}/healthz`, 10_000);
      for (let ready = false; !ready; await new Promise((r) => setTimeout(r, 250))) {
        if (playlist.child.exitCode !== null) throw new Error('playlist service exited');
        ready = (await fetch(`${bffUrl}/api/playlist-service/search?q=love`, { headers }).catch(() => undefined))?.ok ?? false;
      }
      if (cacheMs !== '0') {
        rows.push(await measure('GET users/profile', profile));
        rows.push(await measure('GET search, answer cache on (5 s)', searchPaths));
      } else {
        rows.push(await measure('GET users/profile', profile));
        rows.push(await measure('GET search, answer cache off', searchPaths));
        rows.push(await measure('GET users/profile', profile));
        // Each query once, one at a time, cache off: what each kind costs alone.
        for (const [kind, list] of Object.entries(queries)) {
          const times: number[] = [];
          let found = 0;
          for (const q of list) {
            const t = performance.now();
            const res = await fetch(`${bffUrl}/api/playlist-service/search?q=${encodeURIComponent(q)}`, { headers });
            found += ((await res.json()) as { songs: unknown[] }).songs.length;
            times.push(performance.now() - t);
          }
          times.sort((a, b) => a - b);
          byKind.push(
            `| ${kind} | ${list.length} | ${fmt(times[Math.floor(times.length / 2)]!, 1)} | ${fmt(times.at(-1)!, 1)} | ${fmt(found / list.length, 1)} | ${list
              .slice(0, 3)
              .map((q) => `\`${q}\``)
              .join(', ')} |`,
          );
        }
      }
      await playlist.stop();
      children.splice(children.indexOf(playlist), 1);
      playlist = undefined;
    }
    const profiles = rows.filter((r) => r.label.startsWith('GET users/profile'));
    const profileRps = profiles.reduce((sum, r) => sum + r.rps, 0) / profiles.length;
    const serverCores = (r: Measured) => ['BFF', 'user', 'playlist', 'PostgreSQL'].reduce((sum, name) => sum + (r.cpu.cores[name] ?? 0), 0);
    const load = loads[i]!;
    sections.push(`
#### ${fmt(size)} songs

| run | req/s (2xx) | of profile | p50 ms | p99 ms | non-2xx / errors | CPU ms per request (BFF + services + PostgreSQL) | cores: BFF / user / playlist / PostgreSQL / load generator | machine busy |
|---|--:|--:|--:|--:|--:|--:|--:|--:|
${rows
  .map(
    (r) =>
      `| ${r.label} | ${fmt(r.rps)} | ${r.label.startsWith('GET search') ? `${fmt((100 * r.rps) / profileRps)}%` : ''} | ${r.p50} | ${r.p99} | ${r.non2xx} / ${r.errors} | ${fmt((1000 * serverCores(r)) / Math.max(1, r.rps), 2)} | ${['BFF', 'user', 'playlist', 'PostgreSQL', 'load generator'].map((n) => fmt(r.cpu.cores[n] ?? 0, 2)).join(' / ')} | ${fmt(r.cpu.machineBusyPercent)}% |`,
  )
  .join('\n')}

One at a time (cache off), through the BFF:

| kind | queries | p50 ms | max ms | songs per answer | e.g. |
|---|--:|--:|--:|--:|---|
${byKind.join('\n')}

Load: ${load.loaded ? `COPY ${fmt(load.copySeconds, 1)} s, indexes ${fmt(load.indexSeconds, 1)} s, known words ${fmt(load.wordsSeconds, 1)} s, VACUUM ANALYZE ${fmt(load.vacuumSeconds, 1)} s: ${fmt(load.totalSeconds, 1)} s in all` : 'kept from an earlier run'}. Table ${mb(load.tableBytes)}; indexes ${Object.entries(
      load.indexBytes,
    )
      .sort((a, b) => b[1] - a[1])
      .map(([name, bytes]) => `${name} ${mb(bytes)}`)
      .join(', ')}.
`);
    const cached = rows.find((r) => r.label.includes('cache on'))!;
    const uncached = rows.find((r) => r.label.includes('cache off'))!;
    summary.push(
      `| ${fmt(size)} | ${fmt(profileRps)} | ${fmt(cached.rps)} (${fmt((100 * cached.rps) / profileRps)}%), p99 ${cached.p99} ms | ${fmt(uncached.rps)} (${fmt((100 * uncached.rps) / profileRps)}%), p99 ${uncached.p99} ms |`,
    );
  }
  await stopAll();
  if (process.env.BENCH_SEARCH_DROP === '1') {
    const admin = new pg.Client({ connectionString: infra.PG_ADMIN_URL });
    await admin.connect();
    for (const size of sizes) await admin.query(`drop database if exists "${databaseFor(size)}" with (force)`);
    await admin.end();
  }
  console.log(`
Run ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} at ${gitRevision()}, \`node --import tsx scripts/bench/search.ts\`, Node ${process.version}, ${connections} connections, ${warmupSeconds} s warm-up, ${seconds} s measured.

| songs | profile req/s (mean) | search, cache on | search, cache off |
|--:|--:|--:|--:|
${summary.join('\n')}
${sections.join('')}`);
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
