import type { ServiceDatabase } from '@spinroom/platform';
import { MailLinkEntity, UserEmailEntity } from './mail-entities.js';
import { migrations } from './migrations/index.js';
import { mobileEntities } from './mobile-entities.js';
import { ProviderLinkEntity } from './providers-entities.js';
import { ModerationCommentEntity, VoucherEntity } from './moderation-entities.js';
import { UserProfileDataEntity, UserProfileImageEntity } from './profiles-entities.js';
import { UserEntity } from './user-entity.js';
import { UserBotEntity } from './sessions-bot-entity.js';
import { UserPasskeyEntity } from './passkeys-entities.js';

/** The user service's tables; the service kit opens and migrates them. */
export const userDatabase: ServiceDatabase = {
  entities: [
    UserEntity,
    ...mobileEntities,
    UserBotEntity,
    VoucherEntity,
    ModerationCommentEntity,
    ProviderLinkEntity,
    UserEmailEntity,
    MailLinkEntity,
    UserProfileDataEntity,
    UserProfileImageEntity,
    UserPasskeyEntity,
  ],
  migrations,
};
