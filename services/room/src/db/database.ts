import type { ServiceDatabase } from '@spinroom/platform';
import { RecentRoomEntity, RoomEntity, RoomFavoriteEntity, RoomUserRoleEntity } from './entities.js';
import { CommunityEntity, EventEntity } from './community-entities.js';
import { migrations } from './migrations/index.js';

/** The room service's tables; the service kit opens and migrates them. */
export const roomDatabase: ServiceDatabase = {
  entities: [RoomEntity, RoomUserRoleEntity, RoomFavoriteEntity, RecentRoomEntity, CommunityEntity, EventEntity],
  migrations,
};
