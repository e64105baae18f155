import { defineEntity, p } from '@mikro-orm/postgresql';

/**
 * `community` and `event` as MikroORM sees them: the admin lists' crud
 * queries (packages/platform's parseCrudQuery) filter and sort these
 * properties. Members, rooms and the rest are read with SQL (community-store.ts).
 */
export const CommunityEntity = defineEntity({
  name: 'Community',
  tableName: 'community',
  properties: {
    id: p.integer().primary().autoincrement(),
    uuid: p.uuid().unique(),
    slug: p.string().unique(),
    name: p.string(),
    description: p.text(),
    imageUrl: p.string().nullable(),
    ownerUuid: p.uuid().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export const EventEntity = defineEntity({
  name: 'Event',
  tableName: 'event',
  properties: {
    id: p.integer().primary().autoincrement(),
    uuid: p.uuid().unique(),
    slug: p.string().unique(),
    name: p.string(),
    description: p.text(),
    imageUrl: p.string().nullable(),
    roomId: p.integer(),
    communityId: p.integer().nullable(),
    startTime: p.datetime(),
    endTime: p.datetime(),
    liveAt: p.datetime().nullable(),
    createdBy: p.uuid(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
