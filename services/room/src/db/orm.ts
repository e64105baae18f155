import { createOrm, ensureDatabase, migrate, OutboxMessage, type Logger } from '@spinroom/platform';
import { RecentRoomEntity, RoomEntity, RoomFavoriteEntity, RoomUserRoleEntity } from './entities.js';
import { migrations } from './migrations/index.js';

/** Opens (creating and migrating as needed) the room service's database. */
export async function openRoomDatabase(databaseUrl: string, logger?: Logger) {
  await ensureDatabase(databaseUrl);
  const orm = await createOrm({
    databaseUrl,
    entities: [RoomEntity, RoomUserRoleEntity, RoomFavoriteEntity, RecentRoomEntity, OutboxMessage],
    migrations,
    log: (message) => logger?.debug({ component: 'orm' }, message),
  });
  const applied = await migrate(orm);
  if (applied.length > 0) logger?.info({ applied }, 'migrations applied');
  return orm;
}
