// `npm run migrate -w @spinroom/upload`: applies pending migrations and exits.
import { migrateServiceDatabase } from '@spinroom/platform';
import { uploadDatabase } from './database.js';

await migrateServiceDatabase('upload', uploadDatabase);
