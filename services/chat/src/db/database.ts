import type { ServiceDatabase } from '@spinroom/platform';
import { ChatGroupMemberEntity, ChatMessageEntity, ChatReactionEntity } from './entities.js';
import { migrations } from './migrations/index.js';

/** The chat service's tables; the service kit opens and migrates them. */
export const chatDatabase: ServiceDatabase = {
  entities: [ChatMessageEntity, ChatGroupMemberEntity, ChatReactionEntity],
  migrations,
};
