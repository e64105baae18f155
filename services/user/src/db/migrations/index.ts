import { Migration20261121000000_user_accounts } from './Migration20261121000000_user_accounts.js';
import { Migration20261123140000_profiles } from './Migration20261123140000_profiles.js';
import { Migration20261123130000_mobile } from './Migration20261123130000_mobile.js';
import { Migration20261123100000_sessions } from './Migration20261123100000_sessions.js';
import { Migration20261123120000_moderation } from './Migration20261123120000_moderation.js';
import { Migration20261123110000_mail } from './Migration20261123110000_mail.js';
import { Migration20261123150000_providers } from './Migration20261123150000_providers.js';
import { Migration20261123160000_passkeys } from './Migration20261123160000_passkeys.js';
import { Migration20261126120000_session_endings } from './Migration20261126120000_session_endings.js';

/** Every migration of the user service, oldest first. */
export const migrations = [
  { name: 'Migration20261121000000_user_accounts', class: Migration20261121000000_user_accounts },
  { name: 'Migration20261123100000_sessions', class: Migration20261123100000_sessions },
  { name: 'Migration20261123110000_mail', class: Migration20261123110000_mail },
  { name: 'Migration20261123120000_moderation', class: Migration20261123120000_moderation },
  { name: 'Migration20261123130000_mobile', class: Migration20261123130000_mobile },
  { name: 'Migration20261123140000_profiles', class: Migration20261123140000_profiles },
  { name: 'Migration20261123150000_providers', class: Migration20261123150000_providers },
  { name: 'Migration20261123160000_passkeys', class: Migration20261123160000_passkeys },
  { name: 'Migration20261126120000_session_endings', class: Migration20261126120000_session_endings },
];
