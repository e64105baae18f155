// `npm run migrate -w @spinroom/user`: applies pending migrations and exits.
import { createOrm, ensureDatabase, loadConfigOrExit, migrate, OutboxMessage, env } from '@spinroom/platform';
import { migrations } from './migrations/index.js';
import { UserEntity } from './user-entity.js';

const { DATABASE_URL } = loadConfigOrExit({ DATABASE_URL: env.url(['postgres', 'postgresql']) });
await ensureDatabase(DATABASE_URL);
const orm = await createOrm({ databaseUrl: DATABASE_URL, entities: [UserEntity, OutboxMessage], migrations });
const applied = await migrate(orm);
console.log(applied.length > 0 ? `applied: ${applied.join(', ')}` : 'up to date');
await orm.close();
