// `npm run migrate -w @spinroom/points`: applies pending migrations and exits.
import { migrateServiceDatabase } from '@spinroom/platform';
import { pointsDatabase } from './database.js';

await migrateServiceDatabase('points', pointsDatabase);
