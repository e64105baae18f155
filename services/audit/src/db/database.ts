import type { ServiceDatabase } from '@spinroom/platform';
import { ModerationActionEntity, PlayEventSeenEntity, PlayTotalEntity, UserLastEventEntity } from './entities.js';
import { migrations } from './migrations/index.js';

/** The audit service's tables; the service kit opens and migrates them. */
export const auditDatabase: ServiceDatabase = {
  entities: [ModerationActionEntity, PlayEventSeenEntity, PlayTotalEntity, UserLastEventEntity],
  migrations,
};
