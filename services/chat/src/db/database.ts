import type { ServiceDatabase } from '@spinroom/platform';
import { ChatGroupMemberEntity, ChatMessageEntity, ChatReactionEntity, DirectMessageEntity } from './entities.js';
import { migrations } from './migrations/index.js';

/** The chat service's tables; the service kit opens and migrates them. */
export const chatDatabase: ServiceDatabase = {
  entities: [ChatMessageEntity, ChatGroupMemberEntity, ChatReactionEntity, DirectMessageEntity],
  migrations,
};
