// Probe: each query of the mix through PgSongSearch, sequentially, on a loaded bench catalogue (dev PostgreSQL).
import { openServiceDatabase } from '@spinroom/platform';
import { playlistDatabase } from '../../services/playlist/src/db/database.js';
import { PgSongSearch } from '../../services/playlist/src/db/pg-song-search.js';
import { databaseUrl, readInfraEnv } from '../lib/infra.js';
import { benchCatalogue, benchQueries } from './search-catalogue.js';

const [database = 'spinroom_playlist_bench_search_1m'] = process.argv.slice(2);
const orm = await openServiceDatabase('playlist', databaseUrl(readInfraEnv('dev'), database), playlistDatabase);
const search = new PgSongSearch(orm);
const mix = benchQueries(benchCatalogue(0));
for (const [kind, queries] of Object.entries(mix)) {
  const times: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    const found = await search.search({ text: q, limit: 20, offset: 0, includeExplicit: true });
    const ms = performance.now() - t;
    times.push(ms);
    if (process.env.VERBOSE)
      console.log(
        kind,
        JSON.stringify(q),
        ms.toFixed(1),
        found.length,
        found
          .slice(0, 3)
          .map((s) => `${s.trackName} / ${s.artistName}`)
          .join(' | '),
      );
  }
  times.sort((a, b) => a - b);
  console.log(kind, 'p50', times[Math.floor(times.length / 2)]!.toFixed(1), 'max', times.at(-1)!.toFixed(1));
}
await orm.close();
