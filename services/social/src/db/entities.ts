import { defineEntity, p } from '@mikro-orm/postgresql';

// The tables are read and written with SQL (the stores); these definitions
// name them for MikroORM.

/** `blocked_user`: who blocked whom. */
export const BlockedUserEntity = defineEntity({
  name: 'BlockedUser',
  tableName: 'blocked_user',
  properties: {
    id: p.uuid().primary(),
    blockerUuid: p.uuid(),
    blockedUuid: p.uuid(),
    createdAt: p.datetime(),
  },
});

/** `device`: a push token (FCM, APNs) or a Web Push subscription, one user's. */
export const DeviceEntity = defineEntity({
  name: 'Device',
  tableName: 'device',
  properties: {
    id: p.uuid().primary(),
    userUuid: p.uuid(),
    token: p.string(),
    type: p.string(),
    webPushP256dh: p.string().nullable(),
    webPushAuth: p.string().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

/** `dj_fan`: a fan following a DJ. */
export const DjFanEntity = defineEntity({
  name: 'DjFan',
  tableName: 'dj_fan',
  properties: {
    id: p.uuid().primary(),
    fanUuid: p.uuid(),
    djUuid: p.uuid(),
    createdAt: p.datetime(),
  },
});

/** `friend_invitation`: PENDING until the recipient accepts or rejects it. */
export const FriendInvitationEntity = defineEntity({
  name: 'FriendInvitation',
  tableName: 'friend_invitation',
  properties: {
    id: p.uuid().primary(),
    fromUuid: p.uuid(),
    toUuid: p.uuid(),
    status: p.string(),
    createdAt: p.datetime(),
    answeredAt: p.datetime().nullable(),
  },
});

/** `friendship`: two friends, stored once (user_a < user_b). */
export const FriendshipEntity = defineEntity({
  name: 'Friendship',
  tableName: 'friendship',
  properties: {
    id: p.uuid().primary(),
    userA: p.uuid(),
    userB: p.uuid(),
    createdAt: p.datetime(),
  },
});

/** `user_book_contact`: the HMAC of one phone number or email of a user's address book. */
export const UserBookContactEntity = defineEntity({
  name: 'UserBookContact',
  tableName: 'user_book_contact',
  properties: {
    id: p.uuid().primary(),
    ownerUuid: p.uuid(),
    kind: p.string(),
    hash: p.string(),
    createdAt: p.datetime(),
  },
});

/** `contact_directory`: the HMAC of a user's own email (from user-events), what contacts are matched against. */
export const ContactDirectoryEntity = defineEntity({
  name: 'ContactDirectory',
  tableName: 'contact_directory',
  properties: {
    hash: p.string().primary(),
    userUuid: p.uuid().primary(),
    kind: p.string(),
    createdAt: p.datetime(),
  },
});
