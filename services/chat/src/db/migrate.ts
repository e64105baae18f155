// `npm run migrate -w @spinroom/chat`: applies pending migrations and exits.
import { migrateServiceDatabase } from '@spinroom/platform';
import { chatDatabase } from './database.js';

await migrateServiceDatabase('chat', chatDatabase);
