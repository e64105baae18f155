import { useState, type DragEvent } from 'react';
import type { Crate, Song } from '../api/types';
import { ErrorNote } from '../app/ErrorNote';
import { href, navigate } from '../app/router';
import { useT } from '../i18n/i18n';
import { SearchPanel } from '../search/SearchPanel';
import { DuplicateMark } from './DuplicateMark';
import { crateLabel, songToAdd } from './music';
import { duplicatesIn } from './sameness';
import { SongActions } from './SongActions';
import { useCrateActions, useCrateList, useCrateSongs } from './useCrates';

function CrateSongs({ crate }: { crate: Crate }) {
  const t = useT();
  const songs = useCrateSongs(crate);
  const actions = useCrateActions();
  const [dragging, setDragging] = useState<string>();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(crate.crateName);
  const list = songs.data ?? [];
  // Spec 002's sameness rule: an entry that repeats an earlier one is marked with the one it repeats.
  const duplicates = duplicatesIn(list);
  const move = (song: Song, to: number) => actions.move.mutate({ crate, song, to });
  const onDrop = (e: DragEvent, to: number) => {
    e.preventDefault();
    const song = list.find((s) => s.crateSongUuid === dragging);
    if (song && song.position !== to) move(song, to);
    setDragging(undefined);
  };
  return (
    <section className="crate-detail" aria-labelledby="crate-title">
      <div className="row">
        <h2 id="crate-title">{crateLabel(crate, t)}</h2>
        {!crate.special && !renaming && (
          <button type="button" onClick={() => setRenaming(true)}>
            {t.rename}
          </button>
        )}
        <button type="button" onClick={() => actions.shuffle.mutate(crate)} disabled={list.length < 2}>
          {t.shuffle}
        </button>
        {!crate.special && (
          <button
            type="button"
            className="danger"
            onClick={() => actions.remove.mutate(crate, { onSuccess: () => navigate({ name: 'crates' }) })}
          >
            {t.delete}
          </button>
        )}
      </div>
      {renaming && (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            actions.rename.mutate({ crate, name }, { onSuccess: () => setRenaming(false) });
          }}
        >
          <label className="sr-only" htmlFor="crate-name">
            {t.rename}
          </label>
          <input id="crate-name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          <button type="submit">{t.save}</button>
          <button type="button" onClick={() => setRenaming(false)}>
            {t.cancel}
          </button>
        </form>
      )}
      <ErrorNote
        error={
          songs.error ??
          actions.move.error ??
          actions.removeSong.error ??
          actions.shuffle.error ??
          actions.rename.error ??
          actions.remove.error
        }
      />
      {songs.isPending && <p className="muted">{t.loading}</p>}
      <ol className="songs" aria-label={crateLabel(crate, t)}>
        {list.map((song, i) => (
          <li
            key={song.crateSongUuid}
            draggable
            data-song={song.trackName}
            className={dragging === song.crateSongUuid ? 'dragging' : undefined}
            onDragStart={() => setDragging(song.crateSongUuid)}
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => onDrop(e, i)}
          >
            <span className="handle" aria-hidden="true">
              ⋮⋮
            </span>
            <span className="song-name">
              {song.trackName} <span className="muted">— {song.artistName}</span>
            </span>
            <DuplicateMark of={duplicates.get(i)} />
            <SongActions song={song} toAdd={songToAdd(song)} grabOnly={crate.special === 'queue'} />
            <button
              type="button"
              className="icon"
              aria-label={`${t.moveUp}: ${song.trackName}`}
              disabled={i === 0}
              onClick={() => move(song, i - 1)}
            >
              ↑
            </button>
            <button
              type="button"
              className="icon"
              aria-label={`${t.moveDown}: ${song.trackName}`}
              disabled={i === list.length - 1}
              onClick={() => move(song, i + 1)}
            >
              ↓
            </button>
            <button
              type="button"
              className="icon"
              aria-label={`${t.remove}: ${song.trackName}`}
              onClick={() => actions.removeSong.mutate({ crate, song })}
            >
              ✕
            </button>
          </li>
        ))}
      </ol>
      <SearchPanel target={crate} />
    </section>
  );
}

export function CratesScreen({ crateUuid }: { crateUuid?: string }) {
  const t = useT();
  const crates = useCrateList();
  const actions = useCrateActions();
  const open = crates.data?.find((c) => c.crateUuid === crateUuid);
  return (
    <div className="crates">
      <nav className="crate-list" aria-labelledby="crates-title">
        <h1 id="crates-title">{t.crates}</h1>
        <button type="button" className="primary" onClick={() => actions.create.mutate()} disabled={actions.create.isPending}>
          + {t.newCrate}
        </button>
        <ErrorNote error={crates.error ?? actions.create.error} />
        <ul>
          {crates.data?.map((crate) => (
            <li key={crate.crateUuid}>
              <a
                href={href({ name: 'crates', crateUuid: crate.crateUuid })}
                aria-current={crate.crateUuid === crateUuid ? 'page' : undefined}
              >
                {crateLabel(crate, t)} <span className="muted">({crate.crateSongsNumber ?? 0})</span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {open ? <CrateSongs key={open.crateUuid} crate={open} /> : <SearchPanel />}
    </div>
  );
}
