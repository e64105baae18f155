// `npm run migrate -w @spinroom/social`: applies pending migrations and exits.
import { migrateServiceDatabase } from '@spinroom/platform';
import { socialDatabase } from './database.js';

await migrateServiceDatabase('social', socialDatabase);
