import type { OutboxEntry, StatelessFeedMessageName } from '@spinroom/platform';
import type { Attachment, MessageType, MessageView, SenderIdentity, StoredMessage, StoredReaction } from './chat-message.js';
import type { ConversationSummary, StoredDirectMessage, UserEntity } from './direct-message.js';

/**
 * What the room service says about one user in one room (its GetRoomAccess):
 * the room's one access rule, which the chat asks and never re-derives.
 */
export interface RoomAccess {
  /** May read the room's chat: not banned, and admitted when the room is PRIVATE or has a password. */
  mayRead: boolean;
  /** May be in the chat group and post: mayRead and not kicked (chat-disabled aside). */
  mayEnter: boolean;
  /** Why not: banned, kicked, passwordRequired or private; '' when the user may enter. */
  refusal: string;
  /** The room service's words for the refusal. */
  refusalMessage: string;
  banned: boolean;
  /** An unexpired chat-disabled role exists. */
  chatDisabled: boolean;
  /** When that role ends; undefined for a disable without end. */
  chatDisabledUntil: Date | undefined;
  /** owner, coOwner, moderator, dj, or '' for none. */
  highestRole: string;
}

export interface RoomAccessPort {
  /** A 404 AppError when the room does not exist. */
  access(roomUuid: string, userUuid: string, tokenRole: string): Promise<RoomAccess>;
}

export interface ProfilePort {
  /** The user's name, avatar, colour and badges from the user service; undefined when unknown. */
  identity(userUuid: string): Promise<SenderIdentity | undefined>;
}

/** The feed messages chat pushes (named in platform's feed map). */
export type FeedMessageName = Extract<StatelessFeedMessageName, 'sentChatMessage' | 'editedChatMessage' | 'reactedToChatMessage'>;

export interface FeedPort {
  /** Pushes a room message to the room's feed (stateless, to everyone in the room). */
  publish(roomUuid: string, name: FeedMessageName, message: MessageView): Promise<void>;
}

export interface NewStoredMessage {
  receiver: string;
  sender: string;
  type: MessageType;
  text: string;
  attachments: Attachment[];
  chatMessage: Record<string, unknown>;
  senderEntity: { uid: string; name: string; avatar: string };
  sentAt: Date;
}

/**
 * A history query, CometChat v3's List Group Messages (services/chat/README.md,
 * Listing). The bounds and cursors narrow the messages together; the affix picks
 * which page of them: with append and a lower bound (id, fromTimestamp, sentAt
 * or updatedAt) the oldest after it, else the newest. Oldest first either way.
 */
export interface MessageQuery {
  limit: number;
  /** A cursor: messages after (append) or before (prepend) this id, compared as numbers. */
  id?: string;
  affix: 'append' | 'prepend';
  /** Seconds: a lower bound, sent at or after it, whatever the affix. */
  fromTimestamp?: number;
  /** Seconds: an upper bound, sent at or before it, whatever the affix. */
  toTimestamp?: number;
  /** Seconds: a cursor on the send time, at or after (append) / at or before (prepend). */
  sentAt?: number;
  /** Seconds: a cursor on the last change, at or after (append) / at or before (prepend). */
  updatedAt?: number;
  /** Messages from these users are left out (those the reader blocked). */
  hiddenSenders?: string[];
}

export interface ChatStore {
  /** False when already a member. */
  join(groupId: string, uid: string, at: Date): Promise<boolean>;
  /** False when not a member. */
  leave(groupId: string, uid: string): Promise<boolean>;
  isMember(groupId: string, uid: string): Promise<boolean>;
  insert(message: NewStoredMessage): Promise<StoredMessage>;
  /** Inserts unless a message with this key exists (an event delivered again): undefined then. */
  insertOnce(message: NewStoredMessage, dedupeKey: string): Promise<StoredMessage | undefined>;
  message(id: string): Promise<StoredMessage | undefined>;
  /** Oldest first. */
  messages(groupId: string, query: MessageQuery): Promise<StoredMessage[]>;
  lastOwnMessageId(groupId: string, sender: string): Promise<string | null>;
  updateText(id: string, text: string, chatMessage: Record<string, unknown>, at: Date): Promise<StoredMessage>;
  reactions(messageIds: string[]): Promise<StoredReaction[]>;
  /** Puts the reaction on (true) or takes it off (false); answers whether anything changed. Bumps updatedAt on a change. */
  setReaction(input: {
    messageId: string;
    uid: string;
    name: string;
    avatar: string;
    reaction: string;
    on: boolean;
    at: Date;
  }): Promise<boolean>;
}

export interface NewDirectMessage {
  sender: string;
  receiver: string;
  type: MessageType;
  text: string;
  attachments: Attachment[];
  chatMessage: Record<string, unknown>;
  senderEntity: UserEntity;
  receiverEntity: UserEntity;
  sentAt: Date;
}

/** Which of one user's direct messages a listing reads (with the paging of MessageQuery). */
export interface DirectMessageFilter {
  /** The user whose messages: sent by or to them. */
  owner: string;
  /** Only those exchanged with this user. */
  withUser?: string;
  /** Only those sent by this user (the owner or another). */
  sender?: string;
  /** Only those sent to the owner and not read yet. */
  unread?: boolean;
}

export interface ConversationFilter {
  owner: string;
  /** Only conversations with unread messages. */
  unread?: boolean;
  /** Only conversations with these users (the owner's friends). */
  partnersIn?: string[];
  /** No conversations with these users (users the owner blocked; or, for "others", friends). */
  partnersNotIn?: string[];
  limit: number;
  offset: number;
}

export interface DirectMessageStore {
  /**
   * Stores a message; `announce` names an event to write in the same
   * transaction (the outbox), given the stored message.
   */
  insert(message: NewDirectMessage, announce?: (stored: StoredDirectMessage) => OutboxEntry | undefined): Promise<StoredDirectMessage>;
  /** Oldest first. */
  messages(filter: DirectMessageFilter, query: MessageQuery): Promise<StoredDirectMessage[]>;
  /** The newest conversation first; `total` counts every match. */
  conversations(filter: ConversationFilter): Promise<{ conversations: ConversationSummary[]; total: number }>;
  conversation(owner: string, partner: string): Promise<ConversationSummary | undefined>;
  /** Marks what `sender` sent `reader` read, up to `upToId` (all when undefined); answers how many were unread. */
  markRead(reader: string, sender: string, upToId: string | undefined, at: Date): Promise<number>;
}

/** Who is using the chat now: a chat call within the last seconds (a client polls about once a second). */
export interface PresencePort {
  seen(uid: string): Promise<void>;
  isOnline(uid: string): Promise<boolean>;
}

/** Blocks and friendships, the social service's (never re-derived here). */
export interface SocialPort {
  /** Whether either of the two blocked the other. */
  blockedBetween(userUuid: string, otherUuid: string): Promise<boolean>;
  /** The users this user blocked: their messages are hidden from them. */
  blockedUsers(userUuid: string): Promise<string[]>;
  /** This user's friends. */
  friends(userUuid: string): Promise<string[]>;
}
