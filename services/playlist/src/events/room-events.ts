import type { EntityManager } from '@mikro-orm/postgresql';
import { SongPlayed } from '@spinroom/contracts/events/v1/room_events';
import { songToJson } from '@spinroom/contracts/songs';
import type { ReceivedEvent } from '@spinroom/platform';
import type { PgSongPlayStore } from '../db/song-play-store.js';
import { TOPICS } from '@spinroom/contracts/topics';

export const ROOM_EVENTS_TOPIC = TOPICS.roomEvents.name;

/** Keeps each room's recent songs from the room service's `room.song-played` events, and counts each play into the song's popularity. */
export function roomEventsHandler(plays: PgSongPlayStore) {
  return async (event: ReceivedEvent, em: EntityManager): Promise<void> => {
    if (event.eventType !== 'room.song-played') return; // other room events are not the catalogue's business
    const e = SongPlayed.decode(event.value);
    await plays.record(
      {
        playId: e.playId,
        roomUuid: e.roomUuid,
        djUuid: e.djUuid,
        song: e.song ? { ...songToJson(e.song) } : {},
        voteCounts: { likes: e.likes, dislikes: e.dislikes, stars: e.stars },
        playedAt: e.startedAt ?? new Date(),
      },
      em,
    );
    // A play makes a catalogue song more popular: search ranks the more played first.
    if (e.song?.songId && /^[0-9a-f-]{36}$/i.test(e.song.songId)) {
      await em.execute(`update "song" set "popularity" = "popularity" + 1 where "song_id" = ?`, [e.song.songId]);
    }
  };
}
