import type { ServiceDatabase } from '@spinroom/platform';
import {
  BlockedUserEntity,
  ContactDirectoryEntity,
  DeviceEntity,
  DjFanEntity,
  FriendInvitationEntity,
  FriendshipEntity,
  UserBookContactEntity,
} from './entities.js';
import { migrations } from './migrations/index.js';

/** The social service's tables; the service kit opens and migrates them. */
export const socialDatabase: ServiceDatabase = {
  entities: [
    BlockedUserEntity,
    DeviceEntity,
    DjFanEntity,
    FriendInvitationEntity,
    FriendshipEntity,
    UserBookContactEntity,
    ContactDirectoryEntity,
  ],
  migrations,
};
