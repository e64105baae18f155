import {
  ContactKind as ContactKindMessage,
  DeviceType as DeviceTypeMessage,
  FriendInvitationStatus,
  type Block as BlockMessage,
  type Device as DeviceMessage,
  type DjFan as DjFanMessage,
  type DjSummary as DjSummaryMessage,
  type Friend as FriendMessage,
  type FriendInvitation as InvitationMessage,
  type SocialServiceServer,
  type StoredContact as StoredContactMessage,
} from '@spinroom/contracts/social/v1/social_service';
import type { CallContext, createUnaryFactory } from '@spinroom/platform';
import { pageOf, type Actor } from '../domain/actors.js';
import type { Block, Blocks } from '../domain/blocks.js';
import type { ContactKind, Contacts, StoredContact } from '../domain/contacts.js';
import type { Device, Devices, DeviceType } from '../domain/devices.js';
import type { DjFan, DjFans, DjSummary } from '../domain/dj-fans.js';
import type { Friend, FriendInvitation, Friends, InvitationStatus } from '../domain/friends.js';

export const actorOf = (context: CallContext): Actor => ({
  userUuid: context.caller.userUuid,
  role: context.caller.role,
  kind: context.caller.kind,
});

const DEVICE_TYPES: Record<DeviceType, DeviceTypeMessage> = {
  ios: DeviceTypeMessage.DEVICE_TYPE_IOS,
  android: DeviceTypeMessage.DEVICE_TYPE_ANDROID,
  web: DeviceTypeMessage.DEVICE_TYPE_WEB,
};
const deviceTypeName = (type: DeviceTypeMessage): string =>
  (Object.entries(DEVICE_TYPES).find(([, value]) => value === type)?.[0] as DeviceType | undefined) ?? '';

const STATUSES: Record<InvitationStatus, FriendInvitationStatus> = {
  PENDING: FriendInvitationStatus.FRIEND_INVITATION_STATUS_PENDING,
  ACCEPTED: FriendInvitationStatus.FRIEND_INVITATION_STATUS_ACCEPTED,
  REJECTED: FriendInvitationStatus.FRIEND_INVITATION_STATUS_REJECTED,
};
const statusName = (status: FriendInvitationStatus): string =>
  (Object.entries(STATUSES).find(([, value]) => value === status)?.[0] as InvitationStatus | undefined) ?? '';

const KINDS: Record<ContactKind, ContactKindMessage> = {
  phone: ContactKindMessage.CONTACT_KIND_PHONE,
  email: ContactKindMessage.CONTACT_KIND_EMAIL,
};

const blockMessage = (block: Block): BlockMessage => block;
export const deviceMessage = (device: Device): DeviceMessage => ({
  ...device,
  type: DEVICE_TYPES[device.type],
  webPushP256dh: device.webPushP256dh ?? '',
  webPushAuth: device.webPushAuth ?? '',
});
const fanMessage = (fan: DjFan): DjFanMessage => fan;
const djMessage = (dj: DjSummary): DjSummaryMessage => ({ ...dj, lastFollowedAt: dj.lastFollowedAt ?? undefined });
const invitationMessage = (invitation: FriendInvitation): InvitationMessage => ({
  ...invitation,
  status: STATUSES[invitation.status],
  answeredAt: invitation.answeredAt ?? undefined,
});
const friendMessage = (friend: Friend): FriendMessage => friend;
const contactMessage = (contact: StoredContact): StoredContactMessage => ({ ...contact, kind: KINDS[contact.kind] });

/** gRPC handlers of spinroom.social.v1.SocialService: who calls, then the domain decides. */
export function socialServiceHandlers(deps: {
  blocks: Blocks;
  devices: Devices;
  fans: DjFans;
  friends: Friends;
  contacts: Contacts;
  unary: ReturnType<typeof createUnaryFactory>;
}): SocialServiceServer {
  const { blocks, devices, fans, friends, contacts, unary } = deps;
  return {
    blockUser: unary(async (request, context) => {
      const { block, created } = await blocks.block(actorOf(context), request.userUuid);
      return { block: blockMessage(block), created };
    }),
    listBlockedUsers: unary(async (request, context) => {
      const { items, total } = await blocks.list(actorOf(context), pageOf(request.page));
      return { blocks: items.map(blockMessage), total };
    }),
    getBlockedUser: unary(async (request, context) => ({ block: blockMessage(await blocks.get(actorOf(context), request.id)) })),
    unblockUser: unary(async (request, context) => {
      await blocks.unblock(actorOf(context), request.id);
      return {};
    }),
    areBlocked: unary(async (request, context) => blocks.between(actorOf(context), request.userUuid, request.otherUserUuid)),
    listBlocks: unary(async (request, context) => {
      const { blocked, blockedBy } = await blocks.of(actorOf(context), request.userUuid);
      return { blockedUuids: blocked, blockedByUuids: blockedBy };
    }),

    registerDevice: unary(async (request, context) => {
      const { device, created } = await devices.register(actorOf(context), {
        token: request.token,
        type: deviceTypeName(request.type),
        webPushP256dh: request.webPushP256dh,
        webPushAuth: request.webPushAuth,
      });
      return { device: deviceMessage(device), created };
    }),
    deleteDevice: unary(async (request, context) => {
      await devices.remove(actorOf(context), request.token);
      return {};
    }),
    deleteUserDevice: unary(async (request, context) => {
      await devices.removeOf(actorOf(context), request.userUuid, request.token);
      return {};
    }),
    getUserDevice: unary(async (request, context) => ({
      device: deviceMessage(await devices.get(actorOf(context), request.userUuid, request.token)),
    })),
    listUserDevices: unary(async (request, context) => ({
      devices: (await devices.list(actorOf(context), request.userUuid)).map(deviceMessage),
    })),

    followDj: unary(async (request, context) => {
      const { fan, created } = await fans.follow(actorOf(context), request.djUuid);
      return { fan: fanMessage(fan), created };
    }),
    unfollowDj: unary(async (request, context) => {
      await fans.unfollow(actorOf(context), request.id);
      return {};
    }),
    listFollowedDjs: unary(async (request, context) => {
      const { items, total } = await fans.followed(actorOf(context), request.userUuid, pageOf(request.page));
      return { fans: items.map(fanMessage), total };
    }),
    listDjFans: unary(async (request) => {
      const { items, total } = await fans.fans(request.djUuid, pageOf(request.page));
      return { fans: items.map(fanMessage), total };
    }),
    countDjFans: unary(async (request) => fans.count(request.userUuid)),
    getDjFan: unary(async (request, context) => ({ fan: fanMessage(await fans.get(actorOf(context), request.djUuid)) })),
    listDjFanDevices: unary(async (request, context) => ({
      devices: (await fans.fanDevices(actorOf(context), request.djUuid, request.afterId, request.take)).map(deviceMessage),
    })),
    listDjsAsAdmin: unary(async (request, context) => {
      const { items, total } = await fans.adminDjs(actorOf(context), pageOf(request.page));
      return { djs: items.map(djMessage), total };
    }),
    getDjAsAdmin: unary(async (request, context) => ({ dj: djMessage(await fans.adminDj(actorOf(context), request.djUuid)) })),

    sendFriendInvitation: unary(async (request, context) => ({
      invitation: invitationMessage(await friends.invite(actorOf(context), request.userUuid)),
    })),
    getFriendInvitation: unary(async (request, context) => ({
      invitation: invitationMessage(await friends.get(actorOf(context), request.id)),
    })),
    listReceivedFriendInvitations: unary(async (request, context) => {
      const { items, total } = await friends.received(actorOf(context), pageOf(request.page));
      return { invitations: items.map(invitationMessage), total };
    }),
    listSentFriendInvitations: unary(async (request, context) => {
      const { items, total } = await friends.sent(actorOf(context), pageOf(request.page));
      return { invitations: items.map(invitationMessage), total };
    }),
    deleteFriendInvitation: unary(async (request, context) => {
      await friends.deleteInvitation(actorOf(context), request.id);
      return {};
    }),
    handleFriendInvitation: unary(async (request, context) => {
      const { invitation, friend } = await friends.answer(actorOf(context), request.id, statusName(request.status));
      return { invitation: invitationMessage(invitation), friend: friend ? friendMessage(friend) : undefined };
    }),
    getFriend: unary(async (request, context) => ({ friend: friendMessage(await friends.friend(actorOf(context), request.id)) })),
    deleteFriend: unary(async (request, context) => {
      await friends.unfriend(actorOf(context), request.id);
      return {};
    }),
    listFriends: unary(async (request) => {
      const { items, total } = await friends.friends(request.userUuid, pageOf(request.page));
      return { friends: items.map(friendMessage), total };
    }),

    storeContacts: unary(async (request, context) => contacts.save(actorOf(context), request.contacts, request.replace)),
    deleteContacts: unary(async (_request, context) => ({ deleted: await contacts.deleteAll(actorOf(context)) })),
    listContacts: unary(async (request, context) => {
      const { items, total } = await contacts.list(actorOf(context), pageOf(request.page));
      return { contacts: items.map(contactMessage), total };
    }),
    listContactsAsAdmin: unary(async (request, context) => {
      const { items, total } = await contacts.adminList(actorOf(context), request.userUuid, pageOf(request.page));
      return { contacts: items.map(contactMessage), total };
    }),
    matchContacts: unary(async (request, context) => ({
      matches: (await contacts.match(actorOf(context), request.contacts)).map((match) => ({
        ...match,
        kind: KINDS[match.kind],
        pendingInvitationId: match.pendingInvitationId ?? '',
      })),
    })),
  };
}
