import {
  checkEditable,
  checkEnvelope,
  checkReaction,
  checkValid,
  composeChatMessage,
  consumableChatMessage,
  editedChatMessage,
  HISTORY_CAP,
  messageView,
  toggleReaction,
  type ConsumablePurchaseNotice,
  type MessageView,
  type NewMessageInput,
  type SenderIdentity,
  type StoredMessage,
} from './chat-message.js';
import { chatError } from './errors.js';
import { isGlobalRole, ROOM_STAFF_ROLES, type Limit, type LimitDeclaration } from '@spinroom/platform';
import type { ChatStore, FeedMessageName, FeedPort, MessageQuery, ProfilePort, RoomAccess, RoomAccessPort, SocialPort } from './ports.js';

/** Who acts: the chat token's subject, or the user an admin acts for (`onBehalfOf`). */
export interface Actor {
  uid: string;
  /** The token role (user, guest, bot, admin, ...). */
  role: string;
}

/** Token roles that may act on behalf of another user. */
const ON_BEHALF_ROLES = new Set(['admin', 'globalModerator']);
/** The CometChat-style code for each refusal of the room's access rule. */
const REFUSAL_CODES: Record<string, string> = {
  banned: 'ERR_USER_BANNED',
  kicked: 'ERR_USER_KICKED',
  passwordRequired: 'ERR_ROOM_PASSWORD_REQUIRED',
  private: 'ERR_ROOM_PRIVATE',
};

export function isRoomModerator(actor: Actor, access: RoomAccess): boolean {
  return isGlobalRole(actor.role) || (ROOM_STAFF_ROLES as readonly string[]).includes(access.highestRole);
}

/** The caller, or the user named by `onBehalfOf` when the caller may act for others (403 otherwise). */
export function resolveActor(caller: Actor, onBehalfOf: string | undefined): Actor {
  if (!onBehalfOf || onBehalfOf === caller.uid) return caller;
  if (!ON_BEHALF_ROLES.has(caller.role))
    throw chatError(403, 'ERR_ON_BEHALF_OF_NOT_ALLOWED', 'Only admins and global moderators may act on behalf of another user');
  return { uid: onBehalfOf, role: 'user' };
}

/** Messages sent per user, in every room together (a flood is refused before it is stored). */
export const MESSAGES_PER_USER: LimitDeclaration = {
  key: 'chat:messages',
  message: (until) => `You are sending messages too fast: try again after ${until.toISOString()}`,
  code: 'ERR_TOO_MANY_REQUESTS',
};

/** Room chat: groups (one per room), messages, edits and reactions. */
export class Chat {
  constructor(
    private readonly deps: {
      store: ChatStore;
      rooms: RoomAccessPort;
      profiles: ProfilePort;
      feed: FeedPort;
      /** Blocks: what users the reader blocked sent is hidden from the reader. */
      social: SocialPort;
      /** MESSAGES_PER_USER, with its configured allowance. */
      sendLimit: Limit;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private async identity(uid: string): Promise<SenderIdentity> {
    const identity = await this.deps.profiles.identity(uid);
    if (!identity) throw chatError(404, 'ERR_UID_NOT_FOUND', `The user with UID ${uid} does not exist`);
    return identity;
  }

  private async access(actor: Actor, roomUuid: string): Promise<RoomAccess> {
    try {
      return await this.deps.rooms.access(roomUuid, actor.uid, actor.role);
    } catch (error) {
      if ((error as { status?: number }).status === 404)
        throw chatError(404, 'ERR_GUID_NOT_FOUND', `The group with GUID ${roomUuid} does not exist`);
      throw error;
    }
  }

  private async requireMember(actor: Actor, groupId: string): Promise<void> {
    if (!(await this.deps.store.isMember(groupId, actor.uid))) {
      throw chatError(
        401,
        'ERR_GROUP_NOT_JOINED',
        `The user with UID ${actor.uid} is not a member of the group with GUID ${groupId}. Please join the group to access it.`,
      );
    }
  }

  private refused(actor: Actor, access: RoomAccess): Error {
    if (access.refusal === 'banned') return chatError(403, 'ERR_USER_BANNED', `The user with UID ${actor.uid} is banned from this room`);
    return chatError(403, REFUSAL_CODES[access.refusal] ?? 'ERR_NOT_ALLOWED', access.refusalMessage || 'You may not enter this room');
  }

  /** Reading the history: the room service's mayRead (banned users and those not admitted behind a door may not). */
  private checkMayRead(actor: Actor, access: RoomAccess): void {
    if (!access.mayRead) throw this.refused(actor, access);
  }

  /** Being in the group and posting: the room service's mayEnter (also no kicked users). */
  private checkMayEnter(actor: Actor, access: RoomAccess): void {
    if (!access.mayEnter) throw this.refused(actor, access);
  }

  /** Those who may enter send; chat-disabled users not until the role ends. */
  private checkMaySend(actor: Actor, access: RoomAccess): void {
    this.checkMayEnter(actor, access);
    if (access.chatDisabled && (!access.chatDisabledUntil || access.chatDisabledUntil > this.now())) {
      throw chatError(
        403,
        'ERR_CHAT_DISABLED',
        access.chatDisabledUntil
          ? `Chat is disabled for you in this room until ${access.chatDisabledUntil.toISOString()}`
          : 'Chat is disabled for you in this room until a moderator enables it again',
      );
    }
  }

  private async view(message: StoredMessage, viewer?: string): Promise<MessageView> {
    return messageView(message, await this.deps.store.reactions([message.id]), viewer);
  }

  private async publish(name: FeedMessageName, message: StoredMessage): Promise<MessageView> {
    const view = await this.view(message);
    await this.deps.feed.publish(message.receiver, name, view);
    return view;
  }

  async me(actor: Actor) {
    const identity = await this.identity(actor.uid);
    return {
      uid: identity.uid,
      name: identity.name,
      avatar: identity.avatar,
      role: actor.role,
      status: 'online',
      metadata: { color: identity.color, badges: identity.badges },
    };
  }

  /** Joins the room's chat group: 417 ERR_ALREADY_JOINED when in already; only those who may enter the room. */
  async join(actor: Actor, roomUuid: string) {
    this.checkMayEnter(actor, await this.access(actor, roomUuid));
    const joinedAt = this.now();
    if (!(await this.deps.store.join(roomUuid, actor.uid, joinedAt))) {
      throw chatError(417, 'ERR_ALREADY_JOINED', `The user with UID ${actor.uid} has already joined the group with GUID ${roomUuid}.`);
    }
    return { guid: roomUuid, type: 'public', scope: 'participant', hasJoined: true, joinedAt: Math.floor(joinedAt.getTime() / 1000) };
  }

  /** Leaves the group: oneself, or anyone when a moderator of the room. */
  async leave(actor: Actor, roomUuid: string, uid: string) {
    if (uid !== actor.uid) {
      const access = await this.access(actor, roomUuid);
      if (!isRoomModerator(actor, access)) throw chatError(403, 'ERR_NOT_ALLOWED', 'Only moderators of the room may remove another member');
    }
    if (!(await this.deps.store.leave(roomUuid, uid))) {
      throw chatError(404, 'ERR_NOT_A_MEMBER', `The user with UID ${uid} is not a member of the group with GUID ${roomUuid}.`);
    }
    return { success: true, message: `The user with UID ${uid} has left the group with GUID ${roomUuid}.` };
  }

  /** Oldest first: the page MessageQuery names, at most the history cap, without the messages of users the reader blocked. */
  async list(actor: Actor, roomUuid: string, query: MessageQuery): Promise<MessageView[]> {
    await this.requireMember(actor, roomUuid);
    this.checkMayRead(actor, await this.access(actor, roomUuid));
    const hiddenSenders = await this.deps.social.blockedUsers(actor.uid);
    const messages = await this.deps.store.messages(roomUuid, {
      ...query,
      limit: Math.min(Math.max(query.limit, 1), HISTORY_CAP),
      hiddenSenders,
    });
    const reactions = await this.deps.store.reactions(messages.map((m) => m.id));
    return messages.map((m) =>
      messageView(
        m,
        reactions.filter((r) => r.messageId === m.id),
        actor.uid,
      ),
    );
  }

  async send(actor: Actor, input: NewMessageInput): Promise<MessageView> {
    const { type, receiverType } = checkEnvelope(input);
    if (receiverType !== 'group') throw chatError(400, 'ERR_BAD_REQUEST', 'receiverType must be "group" for a room\'s message');
    await this.deps.sendLimit.consume(actor.uid);
    const roomUuid = input.receiver;
    const access = await this.access(actor, roomUuid);
    await this.requireMember(actor, roomUuid);
    this.checkMaySend(actor, access);
    if (input.chatMessage.type === 'room' && !isRoomModerator(actor, access)) {
      throw chatError(403, 'ERR_NOT_ALLOWED', "Only the room's moderators, owner and co-owners may send room notices");
    }
    const sender = await this.identity(actor.uid);
    const now = this.now();
    const chatMessage = composeChatMessage({ text: input.text, chatMessage: input.chatMessage, sender, now });
    checkValid({
      text: input.text || (typeof chatMessage.message === 'string' ? chatMessage.message : ''),
      chatMessage,
      attachments: input.attachments,
    });
    const stored = await this.deps.store.insert({
      receiver: roomUuid,
      sender: actor.uid,
      type,
      text: input.text,
      attachments: input.attachments,
      chatMessage,
      senderEntity: { uid: sender.uid, name: sender.name, avatar: sender.avatar },
      sentAt: now,
    });
    return this.publish('sentChatMessage', stored);
  }

  /**
   * A consumable bought in a room (the points service's event): shown in the
   * room's chat as the buyer's message carrying `consumable`, once per
   * purchase (the message's dedupe key), and pushed to the room's feed. Not
   * shown when the room is gone, the buyer may not enter it (banned, kicked,
   * not admitted behind its door) or the buyer is unknown; undefined then, and
   * for a purchase shown before.
   */
  async showConsumablePurchase(notice: ConsumablePurchaseNotice): Promise<MessageView | undefined> {
    let access: RoomAccess;
    try {
      access = await this.deps.rooms.access(notice.roomUuid, notice.userUuid, 'user');
    } catch (error) {
      if ((error as { status?: number }).status === 404) return undefined;
      throw error;
    }
    if (!access.mayEnter) return undefined;
    const sender = await this.deps.profiles.identity(notice.userUuid);
    if (!sender) return undefined;
    const now = this.now();
    const stored = await this.deps.store.insertOnce(
      {
        receiver: notice.roomUuid,
        sender: notice.userUuid,
        type: 'text',
        text: notice.consumable.name,
        attachments: [],
        chatMessage: consumableChatMessage(notice, sender, now),
        senderEntity: { uid: sender.uid, name: sender.name, avatar: sender.avatar },
        sentAt: now,
      },
      `consumable-purchase:${notice.purchaseId}`,
    );
    return stored ? this.publish('sentChatMessage', stored) : undefined;
  }

  /** Edits the actor's last text message within 20 s of sending. */
  async edit(actor: Actor, id: string, text: string, mentions: unknown): Promise<MessageView> {
    const message = await this.requireMessage(id);
    const access = await this.access(actor, message.receiver);
    this.checkMaySend(actor, access);
    const now = this.now();
    checkEditable(message, actor.uid, await this.deps.store.lastOwnMessageId(message.receiver, actor.uid), now);
    const chatMessage = editedChatMessage(message.chatMessage, text, mentions);
    return this.publish('editedChatMessage', await this.deps.store.updateText(id, text, chatMessage, now));
  }

  async reactions(actor: Actor, id: string) {
    const message = await this.requireMessage(id);
    await this.requireMember(actor, message.receiver);
    this.checkMayRead(actor, await this.access(actor, message.receiver));
    return (await this.deps.store.reactions([id])).map((r) => ({
      id: r.id,
      messageId: r.messageId,
      reaction: r.reaction,
      uid: r.uid,
      reactedAt: Math.floor(r.reactedAt.getTime() / 1000),
      reactedBy: { uid: r.uid, name: r.name, avatar: r.avatar },
    }));
  }

  /** Puts a reaction on (POST) or takes it off (DELETE): one per user per emoji. */
  async react(actor: Actor, id: string, reaction: string, on: boolean): Promise<MessageView> {
    checkReaction(reaction);
    const message = await this.requireMessage(id);
    await this.requireMember(actor, message.receiver);
    this.checkMayEnter(actor, await this.access(actor, message.receiver));
    const current = await this.deps.store.reactions([id]);
    if (!toggleReaction(current, actor.uid, reaction, on).changed) return this.view(message, actor.uid);
    const identity = await this.identity(actor.uid);
    const changed = await this.deps.store.setReaction({
      messageId: id,
      uid: actor.uid,
      name: identity.name,
      avatar: identity.avatar,
      reaction,
      on,
      at: this.now(),
    });
    const after = (await this.deps.store.message(id)) ?? message;
    if (changed) await this.publish('reactedToChatMessage', after);
    return this.view(after, actor.uid);
  }

  private async requireMessage(id: string): Promise<StoredMessage> {
    const message = /^\d{1,18}$/.test(id) ? await this.deps.store.message(id) : undefined;
    if (!message) throw chatError(404, 'ERR_MESSAGE_NOT_FOUND', `The message with id ${id} does not exist`);
    return message;
  }
}
