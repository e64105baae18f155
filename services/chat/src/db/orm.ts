import { createOrm, ensureDatabase, migrate, type Logger } from '@spinroom/platform';
import { ChatGroupMemberEntity, ChatMessageEntity, ChatReactionEntity } from './entities.js';
import { migrations } from './migrations/index.js';

/** Opens (creating and migrating as needed) the chat service's database. */
export async function openChatDatabase(databaseUrl: string, logger?: Logger) {
  await ensureDatabase(databaseUrl);
  const orm = await createOrm({
    databaseUrl,
    entities: [ChatMessageEntity, ChatGroupMemberEntity, ChatReactionEntity],
    migrations,
    log: (message) => logger?.debug({ component: 'orm' }, message),
  });
  const applied = await migrate(orm);
  if (applied.length > 0) logger?.info({ applied }, 'migrations applied');
  return orm;
}
