// Catalogue search at a real catalogue's size (issue 21): over bench
// catalogues of 3,000 and 1,000,000 songs (scripts/bench/search-catalogue.ts,
// Zipf-like words, loaded with COPY into databases of their own on the dev
// profile's PostgreSQL), GET /api/playlist-service/search at 50 connections
// through the BFF, beside GET /api/user-service/users/profile measured in the
// same run. Search traffic (searchTraffic: a Zipf pool of popular queries, a
// quarter never asked before, typos, prefixes as typed, next pages; a stream,
// each request the next) under three setups, the BFF and the playlist service
// started anew for each: the answers kept as deployed (the BFF keeps the
// answers' bodies per catalogue generation for 5 minutes, the playlist
// service its answers per generation), measured on a fresh BFF, again after
// a minute more of the traffic (BENCH_SEARCH_KEPT_WARMUP_S, 60: a BFF that has
// run a while; the hit rate a simulation of the stream gives stays flat from
// 60 s to 15 minutes), then the 160-query mix of runs S3-S6 walked round
// (nearly all hits); the playlist service's 5 s cache alone
// (runs S7-S8's setup); nothing kept (each search asks PostgreSQL). Each setup
// measures profile first; the last one profile again after the search. The
// search's share is of the mean of the profile runs. Beside a setup that keeps
// answers, the hit rate: the bench feeds each request it sends to a cache of
// its own with that setup's rules (the same classes and settings; the BFF's
// with bodies of the mean size of the traffic's answers, sampled first) and
// counts what it would have asked. Then each query of the 160 once, one at a
// time, nothing kept: latency by kind.
//
//   node --import tsx scripts/bench/search.ts
//
// Knobs: BENCH_SEARCH_SIZES (3000,1000000), BENCH_CONNECTIONS (50),
// BENCH_WARMUP_S (4), BENCH_DURATION_S (12), BENCH_SEARCH_DROP=1 (drop the
// catalogue databases afterwards; kept otherwise, so a re-run skips the load),
// BENCH_SEARCH_ANSWERS_MB (64, the BFF's default: the kept answers' budget, the BFF's and the simulation's),
// BENCH_SEARCH_PROFILE=<folder>: instead of the figures, one run of search
// traffic (BENCH_SEARCH_PROFILE_SETUP: off (the default), s8 or kept) while the BFF and the playlist service
// write V8 CPU profiles there, a folder each (node --cpu-prof; the main thread writes the largest file; summarise it
// with scripts/bench/profile-summary.ts).
// Starts its own user service, playlist service and BFF (bundled, as their
// images run them) on ports of its own. PostgreSQL's CPU is that of the
// bench's own sessions (its databases' backends), not the whole server's.
import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { SearchAnswers } from '../../bff/src/routes/playlist/search-answers.js';
import { CachedSongSearch } from '../../services/playlist/src/domain/song-search.js';
import { apiClient } from '../lib/http.js';
import { databaseUrl, infraUp } from '../lib/infra.js';
import { startServiceProcess, waitForHttp, type ServiceProcess } from '../lib/processes.js';
import { bffEnvironment, serviceEnvironment, servicePorts, startLocalService, type LocalServices } from '../lib/services.js';
import { startCpuWindow, type CpuGroup, type CpuReport } from './cpu.js';
import { BENCH_LIMIT_ENV, benchProcesses, gitRevision } from './run.js';
import { benchCatalogue, benchQueries, loadCatalogue, searchTraffic, type LoadReport, type SearchRequest } from './search-catalogue.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const sizes = (process.env.BENCH_SEARCH_SIZES ?? '3000,1000000').split(',').map(Number);
const connections = num('BENCH_CONNECTIONS', 50);
const warmupSeconds = num('BENCH_WARMUP_S', 4);
const seconds = num('BENCH_DURATION_S', 12);
/** The warm-up before the second run of kept answers. */
const KEPT_WARMUP_S = num('BENCH_SEARCH_KEPT_WARMUP_S', 60);
const profileDir = process.env.BENCH_SEARCH_PROFILE;
const profileSetup = (process.env.BENCH_SEARCH_PROFILE_SETUP ?? 'off') as Setup;
// Below the ephemeral port range (32768-60999 here), which outgoing connections take ports from.
const ports = { bff: 8380, ...servicePorts(28650) };
const account = { email: 'bench-search@spinroom.local', password: 'bench-password-5c1e' };
const { children, stopAll } = benchProcesses<ServiceProcess>();
/** The playlist service's answer cache as runs S7-S8 measured it (its defaults for a search that names no generation). */
const CACHE = { ttlMs: 5000, generationTtlMs: 0, maxEntries: 10_000 };
/** The BFF's answers kept as deployed (its config's defaults; BENCH_SEARCH_ANSWERS_MB another budget). */
const ANSWERS = { maxAgeMs: 300_000, maxBytes: Number(process.env.BENCH_SEARCH_ANSWERS_MB ?? 64) * 2 ** 20 };
/**
 * What each setup keeps: `kept` as deployed (the BFF's bodies per generation, the playlist service's answers per
 * generation), `s8` the playlist service's 5 s cache alone, `off` nothing.
 */
type Setup = 'kept' | 's8' | 'off';
const SETUPS: Record<Setup, { bff: Record<string, string>; playlist: Record<string, string> }> = {
  kept: {
    bff: { SEARCH_ANSWERS_MAX_AGE_MS: String(ANSWERS.maxAgeMs), SEARCH_ANSWERS_MAX_MB: String(ANSWERS.maxBytes / 2 ** 20) },
    playlist: {},
  },
  s8: { bff: { SEARCH_ANSWERS_MAX_AGE_MS: '0' }, playlist: { SEARCH_CACHE_MS: String(CACHE.ttlMs) } },
  off: { bff: { SEARCH_ANSWERS_MAX_AGE_MS: '0' }, playlist: { SEARCH_CACHE_MS: '0', SEARCH_CACHE_GENERATION_MS: '0' } },
};

const databaseFor = (size: number) => `spinroom_playlist_bench_search_${size}`;
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mb = (bytes: number) => `${fmt(bytes / 2 ** 20)} MiB`;
const searchPath = ({ q, offset }: SearchRequest) =>
  `/api/playlist-service/search?q=${encodeURIComponent(q)}${offset > 0 ? `&offset=${offset}` : ''}`;

/** PostgreSQL backends serving the bench's databases (their process titles name the database), not other people's. */
function benchBackends(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && title.includes('_bench_search')) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

const residentBytes = (pid: number | undefined) => {
  if (!pid) return 0;
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
};

interface Measured {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  cpu: CpuReport;
  /** Of the searches sent in the window, the share the answer cache's rules would answer from memory. */
  hitRate?: number;
}

/** What to send: one path, a list walked round by each connection, or a stream of searches. */
type Load = { paths: string[] } | { traffic: () => SearchRequest; cache?: (req: SearchRequest) => void };

async function main() {
  const infra = infraUp('dev');
  const common = { LOG_LEVEL: 'warn', ...BENCH_LIMIT_ENV };
  // A Redis database of the bench's own: the catalogue generation there is its playlist service's alone (others' test
  // runs on the shared dev Redis advance theirs with each song they write).
  const local: LocalServices = {
    infra: { ...infra, REDIS_URL: `${infra.REDIS_URL.replace(/\/\d*$/, '')}/7` },
    ports,
    suffix: '_bench_search',
    common,
  };
  const catalogues = sizes.map((size) => ({ size, catalogue: benchCatalogue(size) }));
  const loads: LoadReport[] = [];
  for (const { size, catalogue } of catalogues) {
    console.error(`catalogue of ${fmt(size)} songs...`);
    loads.push(await loadCatalogue(databaseUrl(infra, databaseFor(size)), catalogue, size));
  }
  const nodeArgs = (name: string) => (profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}/${name}`] : []);

  const user = startLocalService('user', local, { bundled: true });
  children.push(user);
  const bffUrl = `http://127.0.0.1:${ports.bff}`;
  const call = apiClient(bffUrl);
  let headers: Record<string, string> | undefined;
  let bff: ServiceProcess | undefined;
  let playlist: ServiceProcess | undefined;
  const cpuGroups: CpuGroup[] = [
    { name: 'load generator', pids: () => [process.pid] },
    { name: 'BFF', pids: () => (bff?.child.pid ? [bff.child.pid] : []) },
    { name: 'user', pids: () => [user.child.pid!] },
    { name: 'playlist', pids: () => (playlist?.child.pid ? [playlist.child.pid] : []) },
    { name: 'PostgreSQL', pids: benchBackends },
  ];
  const startBff = async (setup: Setup, name: string) => {
    bff = startServiceProcess(
      'bff',
      'bff/src/main.ts',
      { ...bffEnvironment(local, ports.bff), ...SETUPS[setup].bff },
      { bundled: true, nodeArgs: nodeArgs(name) },
    );
    children.push(bff);
    await waitForHttp(`${bffUrl}/healthz`, 120_000, () => (user.child.exitCode !== null ? 'user service exited' : undefined));
    if (headers) return;
    // The BFF answers before the user service does: 503 until then. 403: made by an earlier run.
    for (let tries = 0; ; tries += 1) {
      const res = await call('POST', '/api/user-service/users/sign-up', undefined, account, [403, 503]);
      if (res.statusCode !== 503) break;
      if (tries > 240 || user.child.exitCode !== null) throw new Error('the user service did not answer');
      await new Promise((r) => setTimeout(r, 500));
    }
    const { accessToken } = await call('POST', '/api/user-service/auth/login', undefined, account);
    headers = { authorization: `Bearer ${accessToken}` };
  };

  // What a setup's answers kept would ask for, fed each search sent (its own classes and settings).
  let adapterCalls = 0;
  const asked = <T>(answer: T): T => {
    adapterCalls += 1;
    return answer;
  };
  const simulated = (setup: Setup, bodyBytes: number): ((req: SearchRequest) => void) | undefined => {
    if (setup === 's8') {
      const cache = new CachedSongSearch({ search: async () => asked([]) }, CACHE);
      return (req) => void cache.search({ text: req.q, limit: 20, offset: req.offset, includeExplicit: true });
    }
    if (setup === 'kept') {
      const body = Buffer.alloc(bodyBytes);
      const answers = new SearchAnswers({ ...ANSWERS, generation: () => 1 });
      return (req) => void answers.answer({ q: req.q, limit: 20, offset: req.offset, explicit: true }, async () => asked(body));
    }
    return undefined;
  };

  const measure = async (label: string, load: Load, warmup = warmupSeconds): Promise<Measured> => {
    let sent = 0;
    const h = headers!;
    const requests =
      'paths' in load
        ? load.paths.map((path) => ({ method: 'GET' as const, path, headers: h }))
        : [
            {
              method: 'GET' as const,
              headers: h,
              setupRequest: (req: { path?: string }) => {
                const next = load.traffic();
                if (load.cache) {
                  // The setup's own rules, fed what is sent: a miss is a search it would ask for.
                  load.cache(next);
                  sent += 1;
                }
                return { ...req, path: searchPath(next) };
              },
            },
          ];
    await autocannon({ url: bffUrl, connections, duration: warmup, requests });
    const counted = () => ({ sent, misses: adapterCalls });
    const start = counted();
    const end = startCpuWindow(cpuGroups);
    const r = await autocannon({ url: bffUrl, connections, duration: seconds, requests });
    const cpu = end();
    const stop = counted();
    const hitRate = 'traffic' in load && load.cache ? 1 - (stop.misses - start.misses) / Math.max(1, stop.sent - start.sent) : undefined;
    return { label, rps: r['2xx'] / seconds, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, cpu, hitRate };
  };
  // Its port is in the ephemeral range: an outgoing connection of another process may hold it a moment (EADDRINUSE), so a start that exits is tried again.
  const startPlaylist = async (size: number, setup: Setup, name: string, attempt = 1): Promise<void> => {
    const started = startServiceProcess(
      'playlist',
      'services/playlist/src/main.ts',
      { ...serviceEnvironment('playlist', local), DATABASE_URL: databaseUrl(infra, databaseFor(size)), ...SETUPS[setup].playlist },
      { bundled: true, nodeArgs: nodeArgs(name) },
    );
    playlist = started;
    children.push(started);
    await waitForHttp(`${bffUrl}/healthz`, 10_000);
    for (let ready = false; !ready; await new Promise((r) => setTimeout(r, 250))) {
      if (started.child.exitCode !== null) {
        children.splice(children.indexOf(started), 1);
        if (attempt >= 3) throw new Error('playlist service exited');
        console.error(`playlist service exited at start (attempt ${attempt}); starting it again`);
        await new Promise((r) => setTimeout(r, 2000));
        return startPlaylist(size, setup, name, attempt + 1);
      }
      ready = (await fetch(`${bffUrl}/api/playlist-service/search?q=love`, { headers }).catch(() => undefined))?.ok ?? false;
    }
  };
  /** The BFF and the playlist service, started anew with the setup's settings. */
  const startSetup = async (size: number, setup: Setup) => {
    await startBff(setup, `bff-${size}-${setup}`);
    await startPlaylist(size, setup, `playlist-${size}-${setup}`);
  };
  const stopSetup = async () => {
    for (const p of [playlist, bff]) {
      await p?.stop();
      children.splice(children.indexOf(p!), 1);
    }
    playlist = undefined;
    bff = undefined;
  };

  if (profileDir) {
    const { size, catalogue } = catalogues.at(-1)!;
    await startSetup(size, profileSetup);
    const m = await measure(`GET search (traffic), ${profileSetup}, profiled`, { traffic: searchTraffic(catalogue) });
    await stopSetup();
    await stopAll();
    console.log(
      `Profiled at ${gitRevision()} (${profileSetup}): ${fmt(m.rps)} req/s, p99 ${m.p99} ms; CPU ms per search: ${['BFF', 'playlist', 'PostgreSQL'].map((n) => `${n} ${fmt((1000 * (m.cpu.cores[n] ?? 0)) / Math.max(1, m.rps), 2)}`).join(', ')}. Profiles in ${profileDir}.`,
    );
    return;
  }

  const sections: string[] = [];
  const summary: string[] = [];
  for (const [i, { size, catalogue }] of catalogues.entries()) {
    const queries = benchQueries(catalogue);
    const cyclePaths = Object.values(queries)
      .flat()
      .map((q) => searchPath({ q, offset: 0 }));
    const traffic = searchTraffic(catalogue);
    const profile = { paths: ['/api/user-service/users/profile'] };
    const rows: Measured[] = [];
    const byKind: string[] = [];
    const memory: string[] = [];
    let bodyBytes = 0;
    for (const setup of ['s8', 'kept', 'off'] as const) {
      await startSetup(size, setup);
      if (setup === 's8') {
        // The mean size of the traffic's answers (a stream of its own, so the measured one stays as it was), for the BFF's simulated bodies.
        const sample = searchTraffic(catalogue, { seed: 97 });
        let bytes = 0;
        for (let n = 0; n < 200; n += 1)
          bytes += (await (await fetch(`${bffUrl}${searchPath(sample())}`, { headers })).arrayBuffer()).byteLength;
        bodyBytes = bytes / 200;
        rows.push(await measure('GET users/profile', profile));
        rows.push(
          await measure("GET search (traffic), the playlist service's 5 s cache (S8)", { traffic, cache: simulated(setup, bodyBytes) }),
        );
      } else if (setup === 'kept') {
        rows.push(await measure('GET users/profile', profile));
        const cache = simulated(setup, bodyBytes);
        rows.push(await measure('GET search (traffic), answers kept per generation, a fresh BFF', { traffic, cache }));
        // A BFF that has served the traffic a minute: its answers as warm as they stay (a simulation of the same
        // stream: the hit rate after 60 s is that after 15 minutes).
        rows.push(await measure('GET search (traffic), answers kept per generation, after a minute', { traffic, cache }, KEPT_WARMUP_S));
        rows.push(await measure('GET search (the 160-query mix walked round), kept', { paths: cyclePaths }));
      } else {
        rows.push(await measure('GET users/profile', profile));
        rows.push(await measure('GET search (traffic), nothing kept', { traffic }));
        rows.push(await measure('GET users/profile', profile));
        // Each query once, one at a time, nothing kept: what each kind costs alone.
        for (const [kind, list] of Object.entries(queries)) {
          const times: number[] = [];
          let found = 0;
          for (const q of list) {
            const t = performance.now();
            const res = await fetch(`${bffUrl}${searchPath({ q, offset: 0 })}`, { headers });
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
      memory.push(`${setup}: BFF ${mb(residentBytes(bff?.child.pid))}, playlist service ${mb(residentBytes(playlist?.child.pid))}`);
      await stopSetup();
    }
    const profiles = rows.filter((r) => r.label.startsWith('GET users/profile'));
    const profileRps = profiles.reduce((sum, r) => sum + r.rps, 0) / profiles.length;
    const servers = ['BFF', 'user', 'playlist', 'PostgreSQL'];
    const perRequest = (r: Measured, name: string) => (1000 * (r.cpu.cores[name] ?? 0)) / Math.max(1, r.rps);
    const load = loads[i]!;
    sections.push(`
#### ${fmt(size)} songs

| run | req/s (2xx) | of profile | cache hits | p50 ms | p99 ms | non-2xx / errors | CPU ms per request | of which BFF / user / playlist / PostgreSQL | machine busy |
|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|
${rows
  .map(
    (r) =>
      `| ${r.label} | ${fmt(r.rps)} | ${r.label.startsWith('GET search') ? `${fmt((100 * r.rps) / profileRps)}%` : ''} | ${r.hitRate === undefined ? '' : `${fmt(100 * r.hitRate)}%`} | ${r.p50} | ${r.p99} | ${r.non2xx} / ${r.errors} | ${fmt(
        servers.reduce((sum, n) => sum + perRequest(r, n), 0),
        2,
      )} | ${servers.map((n) => fmt(perRequest(r, n), 2)).join(' / ')} | ${fmt(r.cpu.machineBusyPercent)}% |`,
  )
  .join('\n')}

Resident after the setup's runs: ${memory.join('; ')}; the traffic's answers ${fmt(bodyBytes / 1024, 1)} KiB on average.

One at a time (nothing kept), through the BFF:

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
    const cell = (label: string) => {
      const r = rows.find((row) => row.label.includes(label))!;
      const cpuMs = servers.reduce((sum, n) => sum + perRequest(r, n), 0);
      return `${fmt(r.rps)} (${fmt((100 * r.rps) / profileRps)}%), p99 ${r.p99} ms, ${r.hitRate === undefined ? '' : `${fmt(100 * r.hitRate)}% hits, `}${fmt(cpuMs, 2)} ms CPU`;
    };
    summary.push(
      `| ${fmt(size)} | ${fmt(profileRps)} | ${cell('after a minute')} | ${cell('a fresh BFF')} | ${cell('5 s cache (S8)')} | ${cell('nothing kept')} |`,
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

| songs | profile req/s (mean) | search traffic, answers kept per generation (BFF a minute on) | the same, a fresh BFF | the playlist service's 5 s cache (S8) | nothing kept |
|--:|--:|--:|--:|--:|--:|
${summary.join('\n')}
${sections.join('')}`);
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
