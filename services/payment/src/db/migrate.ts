// `npm run migrate -w @spinroom/payment`: applies pending migrations and exits.
import { migrateServiceDatabase } from '@spinroom/platform';
import { paymentDatabase } from './database.js';

await migrateServiceDatabase('payment', paymentDatabase);
