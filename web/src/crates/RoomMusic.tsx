// Music within reach in a room. QueueStart, beside the stage: with an empty
// queue, the top public crates, each one click from the queue (the next click,
// "Take a seat", plays it); nothing when there is no public crate to offer.
// PlayingSong, with the room's songs: "Add to queue" and "Grab" for the song playing.
import { useState } from 'react';
import type { Song } from '../api/types';
import { href } from '../app/router';
import { fill, useT } from '../i18n/i18n';
import { songToAdd } from './music';
import { PublicCrateCard, usePublicCrates } from './PublicCrates';
import { SongActions } from './SongActions';

/** How many public crates the room offers (the crates screen has them all). */
const OFFERED = 2;

export function QueueStart({
  queue,
  seated,
}: {
  /** The caller's queue (its first page), undefined while it loads. */
  queue: Song[] | undefined;
  /** Whether the caller has a seat on the stage (then "take a seat" is not news). */
  seated: boolean;
}) {
  const t = useT();
  const [queued, setQueued] = useState<string>();
  const empty = queue?.length === 0;
  const offer = usePublicCrates('', OFFERED);
  const crates = offer.data?.pages[0]?.crates ?? [];
  if (empty && crates.length > 0)
    return (
      <section className="room-music queue-start" aria-labelledby="queue-start-title">
        <h2 id="queue-start-title">{t.startWithCrate}</h2>
        <p className="muted small">
          {t.emptyQueueStart} <a href={href({ name: 'crates' })}>{t.searchSongs}</a>
        </p>
        <ul className="crate-cards">
          {crates.map((crate) => (
            <PublicCrateCard
              key={crate.crateUuid}
              crate={crate}
              compact
              onQueued={(c, added) => {
                if (added > 0) setQueued(c.crateName);
              }}
            />
          ))}
        </ul>
      </section>
    );
  if (queued && !empty && !seated)
    return (
      <p className="room-music take-seat-hint" role="status">
        {fill(t.queuedTakeSeat, { crate: queued })}
      </p>
    );
  return null;
}

export function PlayingSong({ playing }: { playing: Song | null | undefined }) {
  const t = useT();
  if (!playing) return null;
  return (
    <section className="playing-actions" aria-label={fill(t.playingSongActions, { song: playing.trackName })}>
      <span className="muted small" aria-hidden="true">
        {t.nowPlaying}:
      </span>
      {/* A new song is a new row: what the last one's buttons said goes with it. */}
      <SongActions key={playing.songId ?? `${playing.trackName}\0${playing.artistName}`} song={playing} toAdd={songToAdd(playing)} />
    </section>
  );
}
