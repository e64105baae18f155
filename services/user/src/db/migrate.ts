// `npm run migrate -w @spinroom/user`: applies pending migrations and exits.
import { migrateServiceDatabase } from '@spinroom/platform';
import { userDatabase } from './database.js';

await migrateServiceDatabase('user', userDatabase);
