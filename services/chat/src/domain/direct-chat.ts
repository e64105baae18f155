import type { Limit, OutboxEntry } from '@spinroom/platform';
import { checkEnvelope, checkValid, composeChatMessage, HISTORY_CAP, type NewMessageInput } from './chat-message.js';
import type { Actor } from './chat.js';
import {
  conversationView,
  CONVERSATIONS_PER_PAGE,
  directMessageView,
  MAX_CONVERSATIONS_PER_PAGE,
  type ConversationGroup,
  type ConversationSummary,
  type ConversationView,
  type DirectMessageView,
  type StoredDirectMessage,
  type UserEntity,
} from './direct-message.js';
import { chatError } from './errors.js';
import type { DirectMessageStore, MessageQuery, PresencePort, ProfilePort, SocialPort } from './ports.js';

/** What a direct-message listing reads besides its paging. */
export interface DirectListing {
  /** `/users/{uid}/messages`: the path's user. */
  uid?: string;
  /** `?withUser=`: with the path's user, the pair whose conversation is read (the caller is one of them). */
  withUser?: string;
  /** `GET /messages?sender=`: only messages this user sent. */
  sender?: string;
  unread?: boolean;
}

/**
 * Direct messages between two users (CometChat v3's receiverType "user"):
 * sending, listing, conversations and their read state.
 */
export class DirectChat {
  constructor(
    private readonly deps: {
      store: DirectMessageStore;
      profiles: ProfilePort;
      presence: PresencePort;
      /** Blocks (refused messages, hidden senders) and friends (the conversations' groups). */
      social: SocialPort;
      /** MESSAGES_PER_USER, shared with room messages. */
      sendLimit: Limit;
      /** The notification of a message to someone offline (the `notifications` topic), written with the message. */
      offlineNotice: (message: StoredDirectMessage) => OutboxEntry;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private async entity(uid: string): Promise<UserEntity> {
    const identity = await this.deps.profiles.identity(uid);
    if (!identity) throw chatError(404, 'ERR_UID_NOT_FOUND', `The user with UID ${uid} does not exist`);
    return { uid: identity.uid, name: identity.name, avatar: identity.avatar };
  }

  /** The other user of a conversation the actor reads: `uid`, or with `withUser` whichever of the two is not the actor. */
  private partner(actor: Actor, uid: string, withUser: string | undefined): string {
    if (!withUser) {
      if (uid === actor.uid) throw chatError(400, 'ERR_BAD_REQUEST', 'A direct conversation is with another user');
      return uid;
    }
    if (uid === actor.uid && withUser !== actor.uid) return withUser;
    if (withUser === actor.uid && uid !== actor.uid) return uid;
    throw chatError(403, 'ERR_NOT_ALLOWED', 'Only the two users of a direct conversation may read it');
  }

  async send(actor: Actor, input: NewMessageInput): Promise<DirectMessageView> {
    const { type, receiverType } = checkEnvelope(input);
    if (receiverType !== 'user') throw chatError(400, 'ERR_BAD_REQUEST', 'receiverType must be "user" for a direct message');
    if (actor.role === 'guest') throw chatError(403, 'ERR_NOT_ALLOWED', 'Guests cannot send direct messages: sign up first');
    if (input.receiver === actor.uid) throw chatError(400, 'ERR_BAD_REQUEST', 'You cannot send a direct message to yourself');
    if (input.chatMessage.type === 'room')
      throw chatError(400, 'ERR_BAD_REQUEST', 'Room notices belong in a room, not in a direct message');
    await this.deps.sendLimit.consume(actor.uid);
    const receiver = await this.entity(input.receiver);
    if (await this.deps.social.blockedBetween(actor.uid, receiver.uid)) {
      throw chatError(403, 'ERR_USER_BLOCKED', 'You cannot send direct messages to this user: one of you has blocked the other');
    }
    const sender = await this.deps.profiles.identity(actor.uid);
    if (!sender) throw chatError(404, 'ERR_UID_NOT_FOUND', `The user with UID ${actor.uid} does not exist`);
    const now = this.now();
    const chatMessage = composeChatMessage({ text: input.text, chatMessage: input.chatMessage, sender, now });
    checkValid({
      text: input.text || (typeof chatMessage.message === 'string' ? chatMessage.message : ''),
      chatMessage,
      attachments: input.attachments,
    });
    // Someone not using the chat now is told through their devices, in the message's transaction.
    const offline = !(await this.deps.presence.isOnline(receiver.uid));
    const stored = await this.deps.store.insert(
      {
        sender: actor.uid,
        receiver: receiver.uid,
        type,
        text: input.text,
        attachments: input.attachments,
        chatMessage,
        senderEntity: { uid: sender.uid, name: sender.name, avatar: sender.avatar },
        receiverEntity: receiver,
        sentAt: now,
      },
      offline ? this.deps.offlineNotice : undefined,
    );
    return directMessageView(stored);
  }

  /** Oldest first, paged as a room's history (MessageQuery), at most the history cap. */
  async list(actor: Actor, listing: DirectListing, query: MessageQuery): Promise<DirectMessageView[]> {
    let withUser: string | undefined;
    if (listing.uid !== undefined) {
      withUser = this.partner(actor, listing.uid, listing.withUser);
      await this.entity(withUser);
    }
    // What users the actor blocked sent stays hidden from the actor.
    const hiddenSenders = await this.deps.social.blockedUsers(actor.uid);
    const messages = await this.deps.store.messages(
      { owner: actor.uid, withUser, sender: listing.sender, unread: listing.unread },
      { ...query, limit: Math.min(Math.max(query.limit, 1), HISTORY_CAP), hiddenSenders },
    );
    return messages.map(directMessageView);
  }

  private async views(owner: string, summaries: ConversationSummary[], friends: ReadonlySet<string>): Promise<ConversationView[]> {
    return Promise.all(
      summaries.map(async (summary) => {
        const stored =
          summary.lastMessage.sender === summary.partner ? summary.lastMessage.senderEntity : summary.lastMessage.receiverEntity;
        const identity = await this.deps.profiles.identity(summary.partner);
        const entity = identity ? { uid: identity.uid, name: identity.name, avatar: identity.avatar } : stored;
        const group: ConversationGroup = friends.has(summary.partner) ? 'friends' : 'others';
        return conversationView(owner, summary, { entity, online: await this.deps.presence.isOnline(summary.partner), group });
      }),
    );
  }

  /**
   * `/users/{uid}/conversations`: the actor's own (uid is the actor), newest
   * first, paged from 1; each in its group (spec 002: friends or others), and
   * `group` keeps one of them. Conversations with users the actor blocked are hidden.
   */
  async conversations(
    actor: Actor,
    uid: string,
    options: { perPage?: number; page?: number; unread?: boolean; group?: ConversationGroup },
  ): Promise<{ conversations: ConversationView[]; total: number; perPage: number; page: number }> {
    if (uid !== actor.uid) throw chatError(403, 'ERR_NOT_ALLOWED', 'Only your own conversations can be listed');
    const perPage = Math.min(Math.max(options.perPage || CONVERSATIONS_PER_PAGE, 1), MAX_CONVERSATIONS_PER_PAGE);
    const page = Math.max(options.page || 1, 1);
    const [blocked, friendList] = await Promise.all([this.deps.social.blockedUsers(actor.uid), this.deps.social.friends(actor.uid)]);
    const friends = new Set(friendList);
    const { conversations, total } = await this.deps.store.conversations({
      owner: actor.uid,
      unread: options.unread,
      ...(options.group === 'friends' ? { partnersIn: friendList } : {}),
      partnersNotIn: options.group === 'others' ? [...blocked, ...friendList] : blocked,
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    return { conversations: await this.views(actor.uid, conversations, friends), total, perPage, page };
  }

  /** `/users/{uid}/conversation`: the actor's conversation with uid. */
  async conversation(actor: Actor, uid: string): Promise<ConversationView> {
    const partner = this.partner(actor, uid, undefined);
    const [blocked, friends] = await Promise.all([this.deps.social.blockedUsers(actor.uid), this.deps.social.friends(actor.uid)]);
    // A conversation with a user the actor blocked is hidden from the actor.
    const summary = blocked.includes(partner) ? undefined : await this.deps.store.conversation(actor.uid, partner);
    if (!summary) {
      await this.entity(partner);
      throw chatError(404, 'ERR_CONVERSATION_NOT_FOUND', `There is no conversation between ${actor.uid} and ${partner}`);
    }
    const [view] = await this.views(actor.uid, [summary], new Set(friends));
    return view!;
  }

  /** `POST /users/{uid}/conversation/read`: what uid sent the actor, up to messageId (all without), is read now. */
  async markRead(actor: Actor, uid: string, messageId: string | undefined) {
    const partner = this.partner(actor, uid, undefined);
    if (messageId !== undefined && !/^\d{1,18}$/.test(messageId)) throw chatError(400, 'ERR_BAD_REQUEST', 'messageId must be a message id');
    await this.entity(partner);
    const at = this.now();
    const count = await this.deps.store.markRead(actor.uid, partner, messageId, at);
    return {
      success: true,
      message: messageId
        ? `The messages up to the message id ${messageId} from the user ${partner} are marked as read for the user ${actor.uid}.`
        : `The messages from the user ${partner} are marked as read for the user ${actor.uid}.`,
      count,
      readAt: Math.floor(at.getTime() / 1000),
    };
  }
}
