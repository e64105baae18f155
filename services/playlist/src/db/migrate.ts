// `npm run migrate -w @spinroom/playlist`: applies pending migrations and exits.
import { env, loadConfigOrExit } from '@spinroom/platform';
import { openPlaylistDatabase } from './orm.js';

const { DATABASE_URL } = loadConfigOrExit({ DATABASE_URL: env.url(['postgres', 'postgresql']) });
const orm = await openPlaylistDatabase(DATABASE_URL);
console.log('playlist database is up to date');
await orm.close();
