// Song search with one tab per enabled provider (the catalogue first),
// debounced 300 ms; spec 002 disables search for an empty query, so an empty
// box suggests instead: the public crates, and what the last room played.
// Words also find public crates by name. Each song can go to the open crate
// (or the queue) and be grabbed into any crate.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { keys } from '../api/keys';
import { recentSongs, rooms, search } from '../api/spinroom';
import type { Crate } from '../api/types';
import { ErrorNote } from '../app/ErrorNote';
import { QUEUE, songToAdd } from '../crates/music';
import { PublicCrates } from '../crates/PublicCrates';
import { SongActions } from '../crates/SongActions';
import { useCrateList } from '../crates/useCrates';
import { fill, useT } from '../i18n/i18n';
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
  const destination = target ?? crates.data?.find((c) => c.special === 'queue') ?? QUEUE;
  return (
    <section className="search" aria-labelledby="search-title">
      <h2 id="search-title">{t.searchSongs}</h2>
      <label className="sr-only" htmlFor="search-input">
        {t.search}
      </label>
      <input id="search-input" type="search" placeholder={t.searchPlaceholder} value={text} onChange={(e) => setText(e.target.value)} />
      <div className="tabs" role="tablist" aria-label={t.search}>
        {tabs.map((p) => (
          <button key={p.name} type="button" role="tab" aria-selected={tab === p.name} onClick={() => setTab(p.name)}>
            {p.label}
          </button>
        ))}
      </div>
      <ErrorNote error={results.error} />
      {q && results.data?.length === 0 && <p className="muted">{t.noResults}</p>}
      <ul className="results" role="tabpanel">
        {q &&
          results.data?.map((song, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: provider results can share a songId (uncatalogued ones have none)
            <li key={`${song.songId}-${i}`}>
              <span className="song-name">
                {song.trackName} <span className="muted">— {song.artistName}</span>
              </span>
              <SongActions song={song} toAdd={songToAdd(song, tab)} into={destination} />
            </li>
          ))}
      </ul>
      {q ? <PublicCrates q={q} /> : <Suggestions />}
    </section>
  );
}

/** What an empty search offers: the public crates to play from or copy, and the songs the last room played. */
function Suggestions() {
  const t = useT();
  const recentRooms = useQuery({ queryKey: keys.roomList('recent'), queryFn: rooms.recent, staleTime: 60_000 });
  const lastRoom = recentRooms.data?.[0];
  const plays = useQuery({
    queryKey: keys.recentSongs(lastRoom?.slug ?? ''),
    queryFn: () => recentSongs.list(lastRoom!.slug),
    enabled: !!lastRoom,
    staleTime: 60_000,
  });
  // One row per song: a room plays a song again and again.
  const seen = new Set<string>();
  const songs = (plays.data ?? [])
    .map((play) => play.song)
    .filter((song) => {
      const key = song.songId ?? `${song.trackName}\0${song.artistName}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, 5);
  return (
    <div className="suggestions">
      <PublicCrates />
      {lastRoom && songs.length > 0 && (
        <section aria-labelledby="played-title">
          <h2 id="played-title">{fill(t.playedInRoom, { room: lastRoom.name })}</h2>
          <ul className="results">
            {songs.map((song) => (
              <li key={song.songId ?? `${song.trackName}-${song.artistName}`}>
                <span className="song-name">
                  {song.trackName} <span className="muted">— {song.artistName}</span>
                </span>
                <SongActions song={song} toAdd={songToAdd(song)} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
