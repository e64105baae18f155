import { Migration20261123100000_chat } from './Migration20261123100000_chat.js';

/** Every migration of the chat service, oldest first. */
export const migrations = [{ name: 'Migration20261123100000_chat', class: Migration20261123100000_chat }];
