// `npm run migrate -w @spinroom/chat`: applies pending migrations and exits.
import { env, loadConfigOrExit } from '@spinroom/platform';
import { openChatDatabase } from './orm.js';

const { DATABASE_URL } = loadConfigOrExit({ DATABASE_URL: env.url(['postgres', 'postgresql']) });
const orm = await openChatDatabase(DATABASE_URL);
console.log('chat database is up to date');
await orm.close();
