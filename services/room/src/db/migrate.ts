// `npm run migrate -w @spinroom/room`: applies pending migrations and exits.
import { env, loadConfigOrExit } from '@spinroom/platform';
import { openRoomDatabase } from './orm.js';

const { DATABASE_URL } = loadConfigOrExit({ DATABASE_URL: env.url(['postgres', 'postgresql']) });
const orm = await openRoomDatabase(DATABASE_URL);
console.log('up to date');
await orm.close();
