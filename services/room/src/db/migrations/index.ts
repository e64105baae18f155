import { Migration20261123000000_rooms_and_roles } from './Migration20261123000000_rooms_and_roles.js';

/** Every migration of the room service, oldest first. */
export const migrations = [{ name: 'Migration20261123000000_rooms_and_roles', class: Migration20261123000000_rooms_and_roles }];
