import { createOrm, ensureDatabase, migrate, OutboxMessage, type Logger } from '@spinroom/platform';
import { CrateEntity, SongEntity } from './entities.js';
import { migrations } from './migrations/index.js';

/** Opens (creating and migrating as needed) the playlist service's database. */
export async function openPlaylistDatabase(databaseUrl: string, logger?: Logger) {
  await ensureDatabase(databaseUrl);
  const orm = await createOrm({
    databaseUrl,
    entities: [SongEntity, CrateEntity, OutboxMessage],
    migrations,
    log: (message) => logger?.debug({ component: 'orm' }, message),
  });
  const applied = await migrate(orm);
  if (applied.length > 0) logger?.info({ applied }, 'migrations applied');
  return orm;
}
