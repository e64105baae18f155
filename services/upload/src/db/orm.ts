import { createOrm, ensureDatabase, migrate, OutboxMessage, type Logger } from '@spinroom/platform';
import { SongEntity, TranscodeJobEntity } from './entities.js';
import { migrations } from './migrations/index.js';

/** Opens (creating and migrating as needed) the upload service's database. */
export async function openUploadDatabase(databaseUrl: string, logger?: Logger) {
  await ensureDatabase(databaseUrl);
  const orm = await createOrm({
    databaseUrl,
    entities: [SongEntity, TranscodeJobEntity, OutboxMessage],
    migrations,
    log: (message) => logger?.debug({ component: 'orm' }, message),
  });
  const applied = await migrate(orm);
  if (applied.length > 0) logger?.info({ applied }, 'migrations applied');
  return orm;
}
