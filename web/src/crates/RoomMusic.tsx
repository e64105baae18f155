// Music within reach in a room, under the stage's controls. With an empty
// queue: the public crates, each one click from the queue (the next click,
// "Take a seat", plays it). With a song playing: "Add to queue" and "Grab" for it.
import { useState } from 'react';
import type { Song } from '../api/types';
import { href } from '../app/router';
import { fill, useT } from '../i18n/i18n';
import { songToAdd } from './music';
import { PublicCrates } from './PublicCrates';
import { SongActions } from './SongActions';

export function RoomMusic({
  queue,
  playing,
  seated,
}: {
  /** The caller's queue (its first page), undefined while it loads. */
  queue: Song[] | undefined;
  /** The song playing, if any. */
  playing: Song | null | undefined;
  /** Whether the caller has a seat on the stage (then "take a seat" is not news). */
  seated: boolean;
}) {
  const t = useT();
  const [queued, setQueued] = useState<string>();
  const empty = queue?.length === 0;
  return (
    <div className="room-music">
      {empty && (
        <section className="queue-start" aria-labelledby="queue-start-title">
          <h2 id="queue-start-title">{t.startWithCrate}</h2>
          <p className="muted small">
            {t.emptyQueueStart} <a href={href({ name: 'crates' })}>{t.searchSongs}</a>
          </p>
          <PublicCrates pageSize={3} onQueued={(crate, added) => added > 0 && setQueued(crate.crateName)} />
        </section>
      )}
      {queued && !empty && !seated && (
        <p className="take-seat-hint" role="status">
          {fill(t.queuedTakeSeat, { crate: queued })}
        </p>
      )}
      {playing && (
        <section className="playing-actions" aria-label={fill(t.playingSongActions, { song: playing.trackName })}>
          <SongActions song={playing} toAdd={songToAdd(playing)} />
        </section>
      )}
    </div>
  );
}
