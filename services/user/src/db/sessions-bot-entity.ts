import { defineEntity, p } from '@mikro-orm/postgresql';

/** `user_bot`: a user's one bot (both are rows of `user_account`). */
export const UserBotEntity = defineEntity({
  name: 'UserBot',
  tableName: 'user_bot',
  properties: {
    ownerUuid: p.uuid().primary(),
    botUuid: p.uuid().unique(),
    createdAt: p.datetime(),
  },
});
