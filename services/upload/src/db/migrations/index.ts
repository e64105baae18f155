import { Migration20261122000000_songs_and_transcode_jobs } from './Migration20261122000000_songs_and_transcode_jobs.js';

/** Every migration of the upload service, oldest first. */
export const migrations = [
  { name: 'Migration20261122000000_songs_and_transcode_jobs', class: Migration20261122000000_songs_and_transcode_jobs },
];
