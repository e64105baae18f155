// `npm run migrate -w @spinroom/playlist`: applies pending migrations and exits.
import { migrateServiceDatabase } from '@spinroom/platform';
import { playlistDatabase } from './database.js';

await migrateServiceDatabase('playlist', playlistDatabase);
