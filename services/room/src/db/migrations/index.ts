import { Migration20261123000000_rooms_and_roles } from './Migration20261123000000_rooms_and_roles.js';
import { Migration20261123100000_room_plays } from './Migration20261123100000_room_plays.js';
import { Migration20261203000000_room_entries } from './Migration20261203000000_room_entries.js';
import { Migration20261206000000_communities_and_events } from './Migration20261206000000_communities_and_events.js';

/** Every migration of the room service, oldest first. */
export const migrations = [
  { name: 'Migration20261123000000_rooms_and_roles', class: Migration20261123000000_rooms_and_roles },
  { name: 'Migration20261123100000_room_plays', class: Migration20261123100000_room_plays },
  { name: 'Migration20261203000000_room_entries', class: Migration20261203000000_room_entries },
  { name: 'Migration20261206000000_communities_and_events', class: Migration20261206000000_communities_and_events },
];
