// Public crates (GET /crate/public): the demo crate `npm start` seeds and any
// crate people share. One click puts a crate's songs in the queue (the copy
// leaves out songs already there), another copies it as a crate of one's own;
// its songs open with "Add to queue" and "Grab" on each.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { keys } from '../api/keys';
import { crates as crateApi } from '../api/spinroom';
import type { Crate } from '../api/types';
import { ErrorNote } from '../app/ErrorNote';
import { href } from '../app/router';
import { fill, plural, useLocale, useT } from '../i18n/i18n';
import { songToAdd } from './music';
import { SongActions } from './SongActions';

export function usePublicCrates(q: string, pageSize: number) {
  return useInfiniteQuery({
    queryKey: [...keys.publicCrates(q), pageSize],
    queryFn: ({ pageParam }) => crateApi.publicCrates(q, pageParam, pageSize),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, page) => n + page.crates.length, 0);
      return last.crates.length > 0 && loaded < last.total ? loaded : undefined;
    },
    staleTime: 30_000,
  });
}

/**
 * The list, under a heading. `q` narrows it (the search box's words); with
 * words and nothing found it shows nothing, leaving the song results alone.
 */
export function PublicCrates({
  q = '',
  pageSize = 5,
  onQueued,
}: {
  q?: string;
  pageSize?: number;
  /** Told when a crate's songs went into the queue (the room says what to do next). */
  onQueued?: (crate: Crate, songsAdded: number) => void;
}) {
  const t = useT();
  const headingId = useId();
  const list = usePublicCrates(q, pageSize);
  const crates = list.data?.pages.flatMap((page) => page.crates) ?? [];
  if (q && crates.length === 0 && !list.error) return null;
  return (
    <section className="public-crates" aria-labelledby={headingId}>
      <h2 id={headingId}>{q ? t.matchingCrates : t.publicCrates}</h2>
      {!q && <p className="muted small">{t.publicCratesHint}</p>}
      <ErrorNote error={list.error} />
      {list.isPending && <p className="muted">{t.loading}</p>}
      {!q && list.isSuccess && crates.length === 0 && <p className="muted">{t.noPublicCrates}</p>}
      <ul className="crate-cards">
        {crates.map((crate) => (
          <PublicCrateCard key={crate.crateUuid} crate={crate} onQueued={onQueued} />
        ))}
      </ul>
      {list.hasNextPage && (
        <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {t.moreCrates}
        </button>
      )}
    </section>
  );
}

/** One public crate: "Add to my queue", and unless `compact` (the room's offer), "Copy to my crates" and its songs. */
export function PublicCrateCard({
  crate,
  onQueued,
  compact = false,
}: {
  crate: Crate;
  onQueued?: (crate: Crate, songsAdded: number) => void;
  compact?: boolean;
}) {
  const t = useT();
  const locale = useLocale();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState<{ text: string; link?: string }>();
  const copy = useMutation({
    mutationFn: (into: 'queue' | undefined) => crateApi.copy(crate, into),
    onSuccess: (answer, into) => {
      void client.invalidateQueries({ queryKey: keys.crates });
      if (into === 'queue') {
        setNote({
          text:
            answer.songsAdded > 0
              ? fill(plural(answer.songsAdded, t.crateQueued, locale), { crate: crate.crateName })
              : fill(t.crateAlreadyQueued, { crate: crate.crateName }),
        });
        onQueued?.(crate, answer.songsAdded);
      } else {
        setNote({ text: fill(t.crateCopied, { crate: answer.crateName }), link: href({ name: 'crates', crateUuid: answer.crateUuid }) });
      }
    },
  });
  const count = crate.crateSongsNumber ?? 0;
  return (
    <li className={`crate-card${compact ? ' compact' : ''}`} data-crate={crate.crateName}>
      <div className="crate-card-head">
        <span className="crate-name">{crate.crateName}</span>
        <span className="muted small">{plural(count, t.songCount, locale)}</span>
      </div>
      {crate.description && !compact && <p className="muted small">{crate.description}</p>}
      <div className="row">
        <button
          type="button"
          className="primary"
          disabled={copy.isPending}
          aria-label={`${t.addToMyQueue}: ${crate.crateName}`}
          onClick={() => copy.mutate('queue')}
        >
          ▶ {t.addToMyQueue}
        </button>
        {!compact && (
          <>
            <button
              type="button"
              disabled={copy.isPending}
              aria-label={`${t.copyToMyCrates}: ${crate.crateName}`}
              onClick={() => copy.mutate(undefined)}
            >
              ❏ {t.copyToMyCrates}
            </button>
            <button type="button" aria-expanded={open} aria-label={`${t.showSongs}: ${crate.crateName}`} onClick={() => setOpen(!open)}>
              {open ? '▾' : '▸'} {t.showSongs}
            </button>
          </>
        )}
      </div>
      <ErrorNote error={copy.error} />
      {note && (
        <p className="muted small" role="status">
          ✓ {note.text} {note.link && <a href={note.link}>{t.open}</a>}
        </p>
      )}
      {open && <PublicCrateSongs crate={crate} />}
    </li>
  );
}

function PublicCrateSongs({ crate }: { crate: Crate }) {
  const t = useT();
  const songs = useQuery({ queryKey: keys.crateSongs(crate.crateUuid), queryFn: () => crateApi.songs({ ...crate, special: '' }) });
  return (
    <>
      <ErrorNote error={songs.error} />
      {songs.isPending && <p className="muted">{t.loading}</p>}
      <ol className="results" aria-label={crate.crateName}>
        {songs.data?.map((song) => (
          <li key={song.crateSongUuid}>
            <span className="song-name">
              {song.trackName} <span className="muted">— {song.artistName}</span>
            </span>
            <SongActions song={song} toAdd={songToAdd(song)} />
          </li>
        ))}
      </ol>
    </>
  );
}
