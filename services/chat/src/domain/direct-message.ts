import type { Attachment, MessageType } from './chat-message.js';

/**
 * Direct messages: CometChat v3's user-to-user messages and conversations
 * (ORIGINAL-API.md, Chat), around spec 002's chat message
 * (`data.metadata.chatMessage`), as for rooms.
 */

/** Conversations per page: CometChat's default and its cap. */
export const CONVERSATIONS_PER_PAGE = 30;
export const MAX_CONVERSATIONS_PER_PAGE = 50;

/** The groups spec 002 sorts conversations into ("Conversation grouping: friends, others, unset"). */
export type ConversationGroup = 'friends' | 'others';

export interface UserEntity {
  uid: string;
  name: string;
  avatar: string;
}

/** A direct message as stored. */
export interface StoredDirectMessage {
  id: string;
  sender: string;
  receiver: string;
  type: MessageType;
  text: string;
  attachments: Attachment[];
  chatMessage: Record<string, unknown>;
  senderEntity: UserEntity;
  receiverEntity: UserEntity;
  sentAt: Date;
  updatedAt: Date;
  /** When the receiver marked it read; null while unread. */
  readAt: Date | null;
}

/** One direct conversation as the store sums it up for one of its two users. */
export interface ConversationSummary {
  /** The other user. */
  partner: string;
  lastMessage: StoredDirectMessage;
  /** Messages the partner sent the owner that the owner has not read. */
  unreadMessageCount: number;
  /** The first message's send time. */
  createdAt: Date;
  /** The last message's send time. */
  updatedAt: Date;
}

/** CometChat's id of a conversation between two users: both uids in order, joined by `_user_`. */
export function directConversationId(a: string, b: string): string {
  return a < b ? `${a}_user_${b}` : `${b}_user_${a}`;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** A direct message as clients read it back (a CometChat v3 message object, receiverType "user"). */
export interface DirectMessageView {
  id: string;
  conversationId: string;
  sender: string;
  receiver: string;
  receiverType: 'user';
  category: 'message';
  type: MessageType;
  data: {
    text: string;
    attachments?: Attachment[];
    entities: {
      sender: { entity: UserEntity; entityType: 'user' };
      receiver: { entity: UserEntity & { conversationId: string }; entityType: 'user' };
    };
    metadata: { chatMessage: Record<string, unknown> };
  };
  sentAt: number;
  updatedAt: number;
  /** Seconds: when the receiver read it (absent while unread). */
  readAt?: number;
}

export function directMessageView(message: StoredDirectMessage): DirectMessageView {
  const conversationId = directConversationId(message.sender, message.receiver);
  return {
    id: message.id,
    conversationId,
    sender: message.sender,
    receiver: message.receiver,
    receiverType: 'user',
    category: 'message',
    type: message.type,
    data: {
      text: message.text,
      ...(message.attachments.length > 0 ? { attachments: message.attachments } : {}),
      entities: {
        sender: { entity: message.senderEntity, entityType: 'user' },
        receiver: { entity: { ...message.receiverEntity, conversationId }, entityType: 'user' },
      },
      metadata: { chatMessage: { ...message.chatMessage, id: message.id } },
    },
    sentAt: seconds(message.sentAt),
    updatedAt: seconds(message.updatedAt),
    ...(message.readAt ? { readAt: seconds(message.readAt) } : {}),
  };
}

/** A conversation as clients read it back (CometChat v3's conversation object, conversationType "user"). */
export interface ConversationView {
  conversationId: string;
  conversationType: 'user';
  unreadMessageCount: number;
  createdAt: number;
  updatedAt: number;
  lastMessage: DirectMessageView;
  conversationWith: UserEntity & { status: 'online' | 'offline'; conversationId: string };
  /** Spec 002's grouping: the other user is the owner's friend, or not. */
  conversationGroup: ConversationGroup;
}

export function conversationView(
  owner: string,
  summary: ConversationSummary,
  partner: { entity: UserEntity; online: boolean; group: ConversationGroup },
): ConversationView {
  const conversationId = directConversationId(owner, summary.partner);
  return {
    conversationId,
    conversationType: 'user',
    unreadMessageCount: summary.unreadMessageCount,
    createdAt: seconds(summary.createdAt),
    updatedAt: seconds(summary.updatedAt),
    lastMessage: directMessageView(summary.lastMessage),
    conversationWith: { ...partner.entity, status: partner.online ? 'online' : 'offline', conversationId },
    conversationGroup: partner.group,
  };
}
