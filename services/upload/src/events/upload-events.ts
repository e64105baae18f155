import { UploadSongVerified, UploadSongWithdrawn } from '@spinroom/contracts/events/v1/upload_events';
import { newEventMetadata, type OutboxEntry } from '@spinroom/platform';
import { hlsPlaylistPath, type Announcement } from '../domain/song.js';
import { TOPICS } from '@spinroom/contracts/topics';

export const UPLOAD_EVENTS_TOPIC = TOPICS.uploadEvents.name;

/**
 * `upload.song-verified` (the catalogue song, to upsert by song id) and
 * `upload.song-withdrawn`, keyed by the song id so one song's events stay in order.
 */
export function uploadEvent(announcement: Announcement): OutboxEntry {
  const { song } = announcement;
  if (announcement.kind === 'verified') {
    const metadata = newEventMetadata('upload.song-verified');
    const payload = UploadSongVerified.encode({
      metadata,
      songId: song.id,
      trackName: song.trackName ?? '',
      artistName: song.artistName ?? '',
      durationSeconds: Math.round(song.durationMs / 1000),
      durationMs: song.durationMs,
      genre: song.genre ?? undefined,
      isrc: song.isrc ?? undefined,
      uploaderUuid: song.uploaderUuid,
      hlsPlaylistPath: hlsPlaylistPath(song.id),
    }).finish();
    return { topic: UPLOAD_EVENTS_TOPIC, key: song.id, metadata, payload };
  }
  const metadata = newEventMetadata('upload.song-withdrawn');
  const payload = UploadSongWithdrawn.encode({
    metadata,
    songId: song.id,
    uploaderUuid: song.uploaderUuid,
    reason: announcement.reason,
  }).finish();
  return { topic: UPLOAD_EVENTS_TOPIC, key: song.id, metadata, payload };
}
