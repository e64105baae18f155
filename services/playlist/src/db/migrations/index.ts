import { Migration20261121100000_crates_and_songs } from './Migration20261121100000_crates_and_songs.js';
import { Migration20261121110000_song_search } from './Migration20261121110000_song_search.js';
import { Migration20261121120000_artists_albums_genres } from './Migration20261121120000_artists_albums_genres.js';
import { Migration20261122000000_crate_short_ids } from './Migration20261122000000_crate_short_ids.js';
import { Migration20261123200000_song_plays } from './Migration20261123200000_song_plays.js';
import { Migration20261124000000_imports_and_analysis } from './Migration20261124000000_imports_and_analysis.js';
import { Migration20261201000000_public_crate_search } from './Migration20261201000000_public_crate_search.js';
import { Migration20261202000000_search_at_scale } from './Migration20261202000000_search_at_scale.js';
import { Migration20261203000000_room_effects } from './Migration20261203000000_room_effects.js';
import { Migration20261207000000_room_effect_pruning } from './Migration20261207000000_room_effect_pruning.js';
import { Migration20261208000000_search_statistics } from './Migration20261208000000_search_statistics.js';
import { Migration20261209000000_catalogue_changes } from './Migration20261209000000_catalogue_changes.js';
import { Migration20261210000000_search_tiers } from './Migration20261210000000_search_tiers.js';

/** Every migration of the playlist service, oldest first. */
export const migrations = [
  { name: 'Migration20261121100000_crates_and_songs', class: Migration20261121100000_crates_and_songs },
  { name: 'Migration20261121110000_song_search', class: Migration20261121110000_song_search },
  { name: 'Migration20261121120000_artists_albums_genres', class: Migration20261121120000_artists_albums_genres },
  { name: 'Migration20261122000000_crate_short_ids', class: Migration20261122000000_crate_short_ids },
  { name: 'Migration20261123200000_song_plays', class: Migration20261123200000_song_plays },
  { name: 'Migration20261124000000_imports_and_analysis', class: Migration20261124000000_imports_and_analysis },
  { name: 'Migration20261201000000_public_crate_search', class: Migration20261201000000_public_crate_search },
  { name: 'Migration20261202000000_search_at_scale', class: Migration20261202000000_search_at_scale },
  { name: 'Migration20261203000000_room_effects', class: Migration20261203000000_room_effects },
  { name: 'Migration20261207000000_room_effect_pruning', class: Migration20261207000000_room_effect_pruning },
  { name: 'Migration20261208000000_search_statistics', class: Migration20261208000000_search_statistics },
  { name: 'Migration20261209000000_catalogue_changes', class: Migration20261209000000_catalogue_changes },
  { name: 'Migration20261210000000_search_tiers', class: Migration20261210000000_search_tiers },
];
