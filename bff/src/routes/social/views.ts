import {
  ContactKind,
  DeviceType,
  FriendInvitationStatus,
  type Block,
  type Device,
  type DjFan,
  type DjSummary,
  type Friend,
  type FriendInvitation,
  type StoredContact,
} from '@spinroom/contracts/social/v1/social_service';
import type { z } from 'zod';
import { present } from '../../http/upstream.js';
import type {
  BlockSchema,
  DeviceSchema,
  DjFanSchema,
  DjSummarySchema,
  FriendSchema,
  InvitationSchema,
  StoredContactSchema,
} from './schemas.js';

const iso = (date: Date | undefined): string => present(date).toISOString();

export const blockJson = (block: Block | undefined): z.input<typeof BlockSchema> => {
  const b = present(block);
  return { id: b.id, blockerUuid: b.blockerUuid, blockedUuid: b.blockedUuid, createdAt: iso(b.createdAt) };
};

const DEVICE_TYPES = {
  [DeviceType.DEVICE_TYPE_IOS]: 'ios',
  [DeviceType.DEVICE_TYPE_ANDROID]: 'android',
  [DeviceType.DEVICE_TYPE_WEB]: 'web',
} as const;

export const deviceJson = (device: Device | undefined): z.input<typeof DeviceSchema> => {
  const d = present(device);
  const type = DEVICE_TYPES[d.type as keyof typeof DEVICE_TYPES];
  return {
    id: d.id,
    userUuid: d.userUuid,
    token: d.token,
    type: present(type),
    webPush: type === 'web' ? { p256dh: d.webPushP256dh, auth: d.webPushAuth } : null,
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
  };
};

export const fanJson = (fan: DjFan | undefined): z.input<typeof DjFanSchema> => {
  const f = present(fan);
  return { id: f.id, fanUuid: f.fanUuid, djUuid: f.djUuid, createdAt: iso(f.createdAt) };
};

export const djJson = (dj: DjSummary | undefined): z.input<typeof DjSummarySchema> => {
  const d = present(dj);
  return {
    djUuid: d.djUuid,
    fans: d.fans,
    following: d.following,
    lastFollowedAt: d.lastFollowedAt ? d.lastFollowedAt.toISOString() : null,
  };
};

const STATUSES = {
  [FriendInvitationStatus.FRIEND_INVITATION_STATUS_PENDING]: 'PENDING',
  [FriendInvitationStatus.FRIEND_INVITATION_STATUS_ACCEPTED]: 'ACCEPTED',
  [FriendInvitationStatus.FRIEND_INVITATION_STATUS_REJECTED]: 'REJECTED',
} as const;

export const invitationJson = (invitation: FriendInvitation | undefined): z.input<typeof InvitationSchema> => {
  const i = present(invitation);
  return {
    id: i.id,
    fromUuid: i.fromUuid,
    toUuid: i.toUuid,
    status: present(STATUSES[i.status as keyof typeof STATUSES]),
    createdAt: iso(i.createdAt),
    answeredAt: i.answeredAt ? i.answeredAt.toISOString() : null,
  };
};

export const friendJson = (friend: Friend | undefined): z.input<typeof FriendSchema> => {
  const f = present(friend);
  return { id: f.id, userUuid: f.userUuid, friendUuid: f.friendUuid, createdAt: iso(f.createdAt) };
};

export const CONTACT_KINDS = { [ContactKind.CONTACT_KIND_PHONE]: 'phone', [ContactKind.CONTACT_KIND_EMAIL]: 'email' } as const;

export const contactJson = (contact: StoredContact | undefined): z.input<typeof StoredContactSchema> => {
  const c = present(contact);
  return { id: c.id, kind: present(CONTACT_KINDS[c.kind as keyof typeof CONTACT_KINDS]), createdAt: iso(c.createdAt) };
};
