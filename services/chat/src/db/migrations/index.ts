import { Migration20261123100000_chat } from './Migration20261123100000_chat.js';
import { Migration20261204100000_chat_events } from './Migration20261204100000_chat_events.js';
import { Migration20261226100000_direct_messages } from './Migration20261226100000_direct_messages.js';

/** Every migration of the chat service, oldest first. */
export const migrations = [
  { name: 'Migration20261123100000_chat', class: Migration20261123100000_chat },
  { name: 'Migration20261204100000_chat_events', class: Migration20261204100000_chat_events },
  { name: 'Migration20261226100000_direct_messages', class: Migration20261226100000_direct_messages },
];
