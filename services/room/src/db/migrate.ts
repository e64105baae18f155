// `npm run migrate -w @spinroom/room`: applies pending migrations and exits.
import { migrateServiceDatabase } from '@spinroom/platform';
import { roomDatabase } from './database.js';

await migrateServiceDatabase('room', roomDatabase);
