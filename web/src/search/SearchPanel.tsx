// Song search with one tab per enabled provider (the catalogue first),
// debounced 300 ms and disabled for an empty query. Results go to the open
// crate, or to the queue.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { keys } from '../api/keys';
import { search } from '../api/spinroom';
import type { Crate } from '../api/types';
import { ErrorNote } from '../app/ErrorNote';
import { songToAdd, useCrateActions, useCrateList } from '../crates/useCrates';
import { useT } from '../i18n/i18n';
import { useDebounced } from './useDebounced';

export function SearchPanel({ target }: { target?: Crate }) {
  const t = useT();
  const [text, setText] = useState('');
  const [tab, setTab] = useState('catalogue');
  const q = useDebounced(text.trim(), 300);
  const providers = useQuery({ queryKey: keys.providers, queryFn: search.providers, staleTime: 300_000 });
  const tabs = [{ name: 'catalogue', label: 'Spinroom' }, ...(providers.data ?? []).filter((p) => p.enabled)];
  const results = useQuery({
    queryKey: keys.search(tab, q),
    queryFn: ({ signal }) => search.songs(q, tab, signal),
    enabled: q.length > 0,
    staleTime: 60_000,
  });
  const crates = useCrateList();
  // The queue has its own path, so it can take songs before the crate list shows it (a new user's).
  const queue: Crate = crates.data?.find((c) => c.special === 'queue') ?? {
    crateUuid: 'queue',
    crateName: 'Queue',
    userUuid: '',
    special: 'queue',
  };
  const destination = target ?? queue;
  const actions = useCrateActions();
  const [added, setAdded] = useState<string>();
  return (
    <section className="search" aria-labelledby="search-title">
      <h2 id="search-title">{t.searchSongs}</h2>
      <label className="sr-only" htmlFor="search-input">
        {t.search}
      </label>
      <input id="search-input" type="search" placeholder={t.search} value={text} onChange={(e) => setText(e.target.value)} />
      <div className="tabs" role="tablist" aria-label={t.search}>
        {tabs.map((p) => (
          <button key={p.name} type="button" role="tab" aria-selected={tab === p.name} onClick={() => setTab(p.name)}>
            {p.label}
          </button>
        ))}
      </div>
      <ErrorNote error={results.error ?? actions.add.error} />
      {q && results.data?.length === 0 && <p className="muted">{t.noResults}</p>}
      <ul className="results" role="tabpanel">
        {results.data?.map((song, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: provider results can share a songId (uncatalogued ones have none)
          <li key={`${song.songId}-${i}`}>
            <span className="song-name">
              {song.trackName} <span className="muted">— {song.artistName}</span>
            </span>
            {destination && (
              <button
                type="button"
                aria-label={`${destination.special === 'queue' ? t.addToQueue : `${t.addTo} ${destination.crateName}`}: ${song.trackName}`}
                onClick={() =>
                  actions.add.mutate({ crate: destination, songs: [songToAdd(song, tab)] }, { onSuccess: () => setAdded(song.trackName) })
                }
              >
                + {destination.special === 'queue' ? t.addToQueue : destination.crateName}
              </button>
            )}
          </li>
        ))}
      </ul>
      {added && (
        <p className="muted" role="status">
          ✓ {added}
        </p>
      )}
    </section>
  );
}
