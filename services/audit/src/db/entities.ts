import { defineEntity, p } from '@mikro-orm/postgresql';

// The play tables are written with SQL (play-store.ts); the moderation
// actions are listed through MikroORM's query builder (the crud filter names
// these properties).

/** `moderation_action`: every action from `moderation-actions` (event_id set) and those admins write. */
export const ModerationActionEntity = defineEntity({
  name: 'ModerationAction',
  tableName: 'moderation_action',
  properties: {
    id: p.uuid().primary(),
    eventId: p.uuid().nullable(),
    source: p.string(),
    actionType: p.string(),
    previousRole: p.string().nullable(),
    role: p.string().nullable(),
    roomUuid: p.uuid().nullable(),
    actorUuid: p.uuid().nullable(),
    targetUuid: p.uuid().nullable(),
    actorTokenRole: p.string().nullable(),
    expirationTime: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

/** `play_event_seen`: each play id and kind counted, once (the aggregates' dedupe). */
export const PlayEventSeenEntity = defineEntity({
  name: 'PlayEventSeen',
  tableName: 'play_event_seen',
  properties: {
    playId: p.string().primary(),
    kind: p.smallint().primary(),
    seenAt: p.datetime(),
  },
});

/** `play_total`: the counts per scope (all, song, dj, room, user) and key. */
export const PlayTotalEntity = defineEntity({
  name: 'PlayTotal',
  tableName: 'play_total',
  properties: {
    scope: p.string().primary(),
    key: p.string().primary(),
    totalPlayed: p.bigint('number'),
    playedSeconds: p.bigint('number'),
    fifteenSecondPlays: p.bigint('number'),
    thirtySecondPlays: p.bigint('number'),
    updatedAt: p.datetime(),
  },
});

/** `user_last_event`: the newest event recorded of each user. */
export const UserLastEventEntity = defineEntity({
  name: 'UserLastEvent',
  tableName: 'user_last_event',
  properties: {
    userUuid: p.uuid().primary(),
    name: p.string(),
    topic: p.string(),
    occurredAt: p.datetime(),
    detail: p.json(),
  },
});
