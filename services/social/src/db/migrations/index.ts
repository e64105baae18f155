import { Migration20261206000000_social } from './Migration20261206000000_social.js';
import { Migration20261207000000_notifications } from './Migration20261207000000_notifications.js';

/** Every migration of the social service, oldest first. */
export const migrations = [
  { name: 'Migration20261206000000_social', class: Migration20261206000000_social },
  { name: 'Migration20261207000000_notifications', class: Migration20261207000000_notifications },
];
