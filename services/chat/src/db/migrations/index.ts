import { Migration20261123100000_chat } from './Migration20261123100000_chat.js';
import { Migration20261204100000_chat_events } from './Migration20261204100000_chat_events.js';

/** Every migration of the chat service, oldest first. */
export const migrations = [
  { name: 'Migration20261123100000_chat', class: Migration20261123100000_chat },
  { name: 'Migration20261204100000_chat_events', class: Migration20261204100000_chat_events },
];
