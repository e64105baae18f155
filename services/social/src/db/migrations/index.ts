import { Migration20261206000000_social } from './Migration20261206000000_social.js';

/** Every migration of the social service, oldest first. */
export const migrations = [{ name: 'Migration20261206000000_social', class: Migration20261206000000_social }];
