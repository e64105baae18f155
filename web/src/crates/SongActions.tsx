// "Add to queue" and "Grab" for a song met anywhere: search results, a public
// crate's songs, the song playing, recently played songs, an accepted upload.
// Before adding, the crate's songs are checked by spec 002's sameness rule: a
// song already there asks first ("Add anyway"), naming the one it repeats.
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ApiError } from '../api/errors';
import { keys } from '../api/keys';
import { crates as crateApi, type SongToAdd } from '../api/spinroom';
import type { Crate, Song } from '../api/types';
import { ErrorNote } from '../app/ErrorNote';
import { fill, useT } from '../i18n/i18n';
import { crateLabel, grabTargets, QUEUE } from './music';
import { findSameSong } from './sameness';
import { useCrateActions, useCrateList } from './useCrates';
import './music.css';

/** How long an upload may take to reach the catalogue after it is VERIFIED (upload-events), tried once a second. */
const CATALOGUE_WAIT_TRIES = 15;

export function SongActions({
  song,
  toAdd,
  into = QUEUE,
  addText,
  waitForCatalogue = false,
  grabOnly = false,
}: {
  song: Song;
  /** What to send (a catalogue id, an upload's songId, a provider's song). */
  toAdd: SongToAdd;
  /** The crate the first button adds to: the queue unless a crate is open. */
  into?: Crate;
  /** The first button's words, when not "Add to queue" / "Add to ‹crate›". */
  addText?: string;
  /** A just-verified upload: a 404 means the catalogue has not caught up yet, so try again for a while. */
  waitForCatalogue?: boolean;
  /** Leave out the first button (a song of the queue itself only needs "Grab"). */
  grabOnly?: boolean;
}) {
  const t = useT();
  const client = useQueryClient();
  const { add: addSongs } = useCrateActions();
  const own = useCrateList();
  const targets = grabTargets(own.data);
  const [grabbing, setGrabbing] = useState(false);
  const [grabInto, setGrabInto] = useState<string>();
  const [duplicate, setDuplicate] = useState<{ crate: Crate; same: Song }>();
  const [done, setDone] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const selectId = useId();

  const addLabel = addText ?? (into.special === 'queue' ? t.addToQueue : `${t.addTo} ${crateLabel(into, t)}`);
  const send = async (crate: Crate) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await addSongs.mutateAsync({ crate, songs: [toAdd] });
      } catch (err) {
        const notYet = waitForCatalogue && err instanceof ApiError && err.status === 404 && attempt < CATALOGUE_WAIT_TRIES;
        if (!notYet) throw err;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  };
  const add = async (crate: Crate, anyway = false) => {
    setError(undefined);
    setDone(undefined);
    setBusy(true);
    try {
      if (!anyway) {
        const held = await client.query({
          queryKey: keys.crateAllSongs(crate),
          queryFn: () => crateApi.allSongs(crate),
          staleTime: 5_000,
        });
        const same = findSameSong(song, held);
        if (same) {
          setDuplicate({ crate, same });
          return;
        }
      }
      setDuplicate(undefined);
      await send(crate);
      setGrabbing(false);
      setDone(fill(t.songAddedTo, { song: song.trackName, crate: crateLabel(crate, t) }));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const chosen = targets.find((c) => c.crateUuid === grabInto) ?? targets[0]!;

  return (
    <div className="song-actions">
      <div className="row">
        {!grabOnly && (
          <button type="button" disabled={busy} aria-label={`${addLabel}: ${song.trackName}`} onClick={() => void add(into)}>
            + {addLabel}
          </button>
        )}
        <button
          type="button"
          aria-expanded={grabbing}
          aria-label={`${t.grab}: ${song.trackName}`}
          title={t.grabHint}
          onClick={() => setGrabbing(!grabbing)}
        >
          ⤓ {t.grab}
        </button>
      </div>
      {grabbing && (
        <form
          className="row grab"
          aria-label={`${t.grab}: ${song.trackName}`}
          onSubmit={(e) => {
            e.preventDefault();
            void add(chosen);
          }}
        >
          <label htmlFor={selectId}>{t.grabInto}</label>
          <select id={selectId} value={chosen.crateUuid} onChange={(e) => setGrabInto(e.target.value)}>
            {targets.map((c) => (
              <option key={c.crateUuid} value={c.crateUuid}>
                {crateLabel(c, t)}
              </option>
            ))}
          </select>
          <button type="submit" className="primary" disabled={busy}>
            {t.save}
          </button>
          <button type="button" onClick={() => setGrabbing(false)}>
            {t.cancel}
          </button>
        </form>
      )}
      {duplicate && (
        <div className="duplicate-warning" role="alert">
          <p>
            {fill(t.duplicateWarning, {
              song: song.trackName,
              crate: crateLabel(duplicate.crate, t),
              same: `${duplicate.same.trackName} — ${duplicate.same.artistName}`,
            })}
          </p>
          <div className="row">
            <button type="button" disabled={busy} onClick={() => void add(duplicate.crate, true)}>
              {t.addAnyway}
            </button>
            <button type="button" onClick={() => setDuplicate(undefined)}>
              {t.cancel}
            </button>
          </div>
        </div>
      )}
      <ErrorNote error={error} />
      {done && (
        <p className="muted small" role="status">
          ✓ {done}
        </p>
      )}
    </div>
  );
}
