import { Migration20261121100000_crates_and_songs } from './Migration20261121100000_crates_and_songs.js';

/** Every migration of the playlist service, oldest first. */
export const migrations = [{ name: 'Migration20261121100000_crates_and_songs', class: Migration20261121100000_crates_and_songs }];
