import type { EntityManager } from '@mikro-orm/postgresql';
import { UploadSongVerified, UploadSongWithdrawn } from '@spinroom/contracts/events/v1/upload_events';
import type { ReceivedEvent } from '@spinroom/platform';
import type { PgSongStore } from '../db/song-store.js';
import { TOPICS } from '@spinroom/contracts/topics';

export const UPLOAD_EVENTS_TOPIC = TOPICS.uploadEvents.name;

/**
 * Keeps the catalogue in step with uploads: a verified upload becomes (or
 * updates) a catalogue song playable through provider `uploadService`; a
 * withdrawn one stops being playable.
 */
export function uploadEventsHandler(songs: PgSongStore) {
  return async (event: ReceivedEvent, em: EntityManager): Promise<void> => {
    switch (event.eventType) {
      case 'upload.song-verified': {
        const e = UploadSongVerified.decode(event.value);
        await songs.upsertProviderSong(em, 'uploadService', e.songId, {
          isrc: (e.isrc ?? '').toUpperCase(),
          trackName: e.trackName,
          artistName: e.artistName,
          duration: e.durationSeconds,
          explicit: false,
          genre: e.genre ?? '',
          releaseYear: null,
          albumName: '',
          musicProviders: { uploadService: e.songId },
          thumbnails: {},
          links: {},
          previews: {},
          streamUrls: { uploadService: e.hlsPlaylistPath },
          status: 'VERIFIED',
          playbackToken: '',
        });
        return;
      }
      case 'upload.song-withdrawn': {
        const e = UploadSongWithdrawn.decode(event.value);
        await songs.withdrawProviderSong(em, 'uploadService', e.songId);
        return;
      }
      default:
        return; // other upload events are not the catalogue's business
    }
  };
}
