import { Migration20261122000000_songs_and_transcode_jobs } from './Migration20261122000000_songs_and_transcode_jobs.js';
import { Migration20261124100000_song_name_trigrams } from './Migration20261124100000_song_name_trigrams.js';

/** Every migration of the upload service, oldest first. */
export const migrations = [
  { name: 'Migration20261122000000_songs_and_transcode_jobs', class: Migration20261122000000_songs_and_transcode_jobs },
  { name: 'Migration20261124100000_song_name_trigrams', class: Migration20261124100000_song_name_trigrams },
];
