// `npm run migrate -w @spinroom/audit`: applies pending migrations and exits.
import { migrateServiceDatabase } from '@spinroom/platform';
import { auditDatabase } from './database.js';

await migrateServiceDatabase('audit', auditDatabase);
