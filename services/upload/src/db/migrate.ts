// `npm run migrate -w @spinroom/upload`: applies pending migrations and exits.
import { env, loadConfigOrExit } from '@spinroom/platform';
import { openUploadDatabase } from './orm.js';

const { DATABASE_URL } = loadConfigOrExit({ DATABASE_URL: env.url(['postgres', 'postgresql']) });
const orm = await openUploadDatabase(DATABASE_URL);
console.log('up to date');
await orm.close();
