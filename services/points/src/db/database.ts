import type { ServiceDatabase } from '@spinroom/platform';
import { AvatarEntity, TokenAccountEntity, TokenIdempotencyKeyEntity, TokenOpenHoldEntity, TokenTransactionEntity } from './entities.js';
import { migrations } from './migrations/index.js';

/** The points service's tables; the service kit opens and migrates them. */
export const pointsDatabase: ServiceDatabase = {
  entities: [AvatarEntity, TokenAccountEntity, TokenTransactionEntity, TokenOpenHoldEntity, TokenIdempotencyKeyEntity],
  migrations,
};
