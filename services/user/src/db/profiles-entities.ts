import { defineEntity, p } from '@mikro-orm/postgresql';
import type { ImageKind } from '../domain/profiles/images.js';

/** `user_profile_data`: a user's own client data (a JSON object), one row once they save it. */
export const UserProfileDataEntity = defineEntity({
  name: 'UserProfileData',
  tableName: 'user_profile_data',
  properties: {
    userUuid: p.uuid().primary(),
    data: p.json<Record<string, unknown>>(),
    updatedAt: p.datetime(),
  },
});

/** `user_profile_image`: a profile or cover picture; its bytes are in the image folder, by id. */
export const UserProfileImageEntity = defineEntity({
  name: 'UserProfileImage',
  tableName: 'user_profile_image',
  properties: {
    id: p.uuid().primary(),
    userUuid: p.uuid(),
    kind: p.string().$type<ImageKind>(),
    width: p.integer(),
    height: p.integer(),
    contentType: p.string(),
    createdAt: p.datetime(),
  },
});
