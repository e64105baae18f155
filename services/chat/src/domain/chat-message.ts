import { randomUUID } from 'node:crypto';
import { chatError } from './errors.js';

/**
 * A room chat message: the CometChat v3 envelope the original's clients read,
 * around spec 002's chat message (`data.metadata.chatMessage`).
 */

/** The longest text a message may carry (data.text and chatMessage.message). */
export const MAX_TEXT_LENGTH = 2000;
/** The largest `metadata.chatMessage` accepted, as JSON. */
export const MAX_CHAT_MESSAGE_BYTES = 16 * 1024;
/** Spec 002: "editable window 20 s". */
export const EDIT_WINDOW_MS = 20_000;
/** Spec 002: "Chat history cap 300". */
export const HISTORY_CAP = 300;
export const MAX_REACTION_LENGTH = 32;

export type MessageType = 'text' | 'image';

export interface Attachment {
  url: string;
  name: string;
  mimeType: string;
  extension: string;
  size: number;
}

/** Who sent a message, as the server knows them (never as the client said). */
export interface SenderIdentity {
  uid: string;
  name: string;
  avatar: string;
  color: string;
  badges: string[];
}

export interface Mention {
  start: number;
  userNickname: string;
  userUuid: string;
}

/** A message as stored. `chatMessage` is spec 002's chat message, identity already set by the server. */
export interface StoredMessage {
  id: string;
  receiver: string;
  receiverType: 'group';
  sender: string;
  type: MessageType;
  category: 'message';
  text: string;
  attachments: Attachment[];
  chatMessage: Record<string, unknown>;
  senderEntity: { uid: string; name: string; avatar: string };
  sentAt: Date;
  updatedAt: Date;
  editedAt: Date | null;
}

export interface StoredReaction {
  id: string;
  messageId: string;
  uid: string;
  name: string;
  avatar: string;
  reaction: string;
  reactedAt: Date;
}

/** What a client sends to POST /v3.0/messages (already shape-checked by the BFF). */
export interface NewMessageInput {
  type: string;
  receiverType: string;
  category: string;
  receiver: string;
  text: string;
  attachments: Attachment[];
  chatMessage: Record<string, unknown>;
}

/** The fields of spec 002's chat message a client may set; identity and reactions are the server's. */
// `consumable` is the server's alone: only a purchase the points service recorded shows one (consumableChatMessage).
const CLIENT_FIELDS = ['message', 'uuid', 'mentions', 'imageUrls', 'media', 'songs', 'type', 'playlist', 'replies'] as const;

const isHttpUrl = (value: unknown): value is string => {
  if (typeof value !== 'string' || value.length > 2048) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

function mentionsOf(value: unknown): Mention[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > 50)
    throw chatError(400, 'ERR_BAD_REQUEST', 'mentions must be a list of at most 50 {start, userNickname, userUuid}');
  return value.map((m) => {
    const { start, userNickname, userUuid } = (m ?? {}) as Record<string, unknown>;
    if (
      typeof start !== 'number' ||
      !Number.isInteger(start) ||
      start < 0 ||
      typeof userNickname !== 'string' ||
      typeof userUuid !== 'string'
    ) {
      throw chatError(400, 'ERR_BAD_REQUEST', 'A mention is {start: integer >= 0, userNickname: string, userUuid: string}');
    }
    return { start, userNickname: userNickname.slice(0, 100), userUuid: userUuid.slice(0, 64) };
  });
}

function checkText(text: string): void {
  if (text.length > MAX_TEXT_LENGTH) throw chatError(400, 'ERR_TEXT_TOO_LONG', `A message may hold at most ${MAX_TEXT_LENGTH} characters`);
}

/**
 * Spec 002: "A chat message is valid if it has text or both image and media,
 * and is a room notice or has user id, name and avatar." Image URLs must be
 * http(s). An attachment is both an image and its media.
 */
export function checkValid(message: { text: string; chatMessage: Record<string, unknown>; attachments: Attachment[] }): void {
  checkText(message.text);
  const imageUrls = message.chatMessage.imageUrls ?? [];
  if (!Array.isArray(imageUrls) || imageUrls.length > 10 || !imageUrls.every(isHttpUrl)) {
    throw chatError(400, 'ERR_BAD_REQUEST', 'imageUrls must be a list of at most 10 http(s) URLs');
  }
  if (!message.attachments.every((a) => isHttpUrl(a.url))) throw chatError(400, 'ERR_BAD_REQUEST', 'Attachment URLs must be http(s) URLs');
  const hasText = message.text.trim().length > 0;
  const hasImage = imageUrls.length > 0 || message.attachments.length > 0;
  const media = message.chatMessage.media;
  const hasMedia = (media !== undefined && media !== null && media !== '') || message.attachments.length > 0;
  if (!hasText && !(hasImage && hasMedia)) throw chatError(400, 'ERR_BAD_REQUEST', 'A message needs text, or both an image and its media');
  const isRoomNotice = message.chatMessage.type === 'room';
  const { userUuid, userName, avatarId } = message.chatMessage;
  if (!isRoomNotice && !(userUuid && userName && avatarId)) {
    throw chatError(400, 'ERR_BAD_REQUEST', "A message needs its sender's user id, name and avatar");
  }
}

/**
 * The chat message to store: the fields a client may set (text kept exactly as
 * written), then the identity fields from the sender's own profile, whatever
 * the client put there.
 */
export function composeChatMessage(input: {
  text: string;
  chatMessage: Record<string, unknown>;
  sender: SenderIdentity;
  now: Date;
}): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const field of CLIENT_FIELDS) {
    if (input.chatMessage[field] !== undefined) kept[field] = input.chatMessage[field];
  }
  const composed: Record<string, unknown> = {
    ...kept,
    message: typeof kept.message === 'string' ? kept.message : input.text,
    uuid: typeof kept.uuid === 'string' && kept.uuid.length <= 64 ? kept.uuid : randomUUID(),
    type: kept.type === 'room' ? 'room' : 'user',
    mentions: mentionsOf(kept.mentions),
    // Identity and badges: the server's records only.
    userUuid: input.sender.uid,
    userName: input.sender.name,
    avatarId: input.sender.avatar,
    color: input.sender.color,
    badges: input.sender.badges,
    date: input.now.toISOString(),
  };
  if (typeof composed.message !== 'string') throw chatError(400, 'ERR_BAD_REQUEST', 'chatMessage.message must be text');
  checkText(composed.message);
  if (Buffer.byteLength(JSON.stringify(composed)) > MAX_CHAT_MESSAGE_BYTES) {
    throw chatError(400, 'ERR_BAD_REQUEST', `metadata.chatMessage may be at most ${MAX_CHAT_MESSAGE_BYTES} bytes`);
  }
  return composed;
}

/** A consumable bought in a room, as the points service announced it (points-events). */
export interface ConsumablePurchaseNotice {
  purchaseId: string;
  roomUuid: string;
  userUuid: string;
  consumable: { id: string; name: string; tokenCost: number; displayType: string };
  purchasedAt: Date;
}

/**
 * The room chat message showing a purchase (spec 002's chat message with its
 * `consumable`): sent as the buyer, its text the consumable's name, and
 * `consumable` `{id, name, tokenCost, displayType, purchaseId}`.
 */
export function consumableChatMessage(notice: ConsumablePurchaseNotice, sender: SenderIdentity, now: Date): Record<string, unknown> {
  const { id, name, tokenCost, displayType } = notice.consumable;
  return {
    ...composeChatMessage({ text: name, chatMessage: { uuid: notice.purchaseId }, sender, now }),
    consumable: { id, name, tokenCost, displayType, purchaseId: notice.purchaseId },
  };
}

/** The checks of POST /v3.0/messages on the envelope, before anything is looked up: a room's group or a user (a direct message). */
export function checkEnvelope(input: NewMessageInput): { type: MessageType; receiverType: 'group' | 'user' } {
  if (input.receiverType !== 'group' && input.receiverType !== 'user')
    throw chatError(400, 'ERR_BAD_REQUEST', 'receiverType must be "group" or "user"');
  if (input.category !== 'message') throw chatError(400, 'ERR_BAD_REQUEST', 'category must be "message"');
  if (input.type !== 'text' && input.type !== 'image') throw chatError(400, 'ERR_BAD_REQUEST', 'type must be "text" or "image"');
  return { type: input.type, receiverType: input.receiverType };
}

/**
 * Spec 002: "The last own message is editable only within 20 s and only if it
 * is text." `lastOwnId` is the id of the editor's newest message in that group.
 */
export function checkEditable(message: StoredMessage, editor: string, lastOwnId: string | null, now: Date): void {
  if (message.sender !== editor) throw chatError(403, 'ERR_NOT_YOUR_MESSAGE', 'Only the sender can edit a message');
  if (message.type !== 'text') throw chatError(403, 'ERR_EDIT_NOT_ALLOWED', 'Only text messages can be edited');
  if (lastOwnId !== message.id) throw chatError(403, 'ERR_EDIT_NOT_ALLOWED', 'Only your last message can be edited');
  if (now.getTime() - message.sentAt.getTime() > EDIT_WINDOW_MS) {
    throw chatError(403, 'ERR_EDIT_WINDOW_PASSED', `A message can be edited only within ${EDIT_WINDOW_MS / 1000} seconds of sending`);
  }
}

/** The edited chat message: new text (and mentions when given); everything else as it was. */
export function editedChatMessage(previous: Record<string, unknown>, text: string, mentions: unknown): Record<string, unknown> {
  checkText(text);
  if (text.trim().length === 0) throw chatError(400, 'ERR_BAD_REQUEST', 'A message needs text');
  return { ...previous, message: text, ...(mentions !== undefined ? { mentions: mentionsOf(mentions) } : {}) };
}

export function checkReaction(reaction: string): void {
  if (reaction.length === 0 || reaction.length > MAX_REACTION_LENGTH || /[\s<>]/.test(reaction)) {
    throw chatError(400, 'ERR_BAD_REQUEST', `A reaction is an emoji or a short code of at most ${MAX_REACTION_LENGTH} characters`);
  }
}

/**
 * "A reaction toggles per user on a message": each user either has or has not
 * reacted with an emoji. The state after a reaction is put on or taken off
 * (putting it on twice keeps one; taking off what is not there changes nothing).
 */
export function toggleReaction(
  reactions: ReadonlyArray<{ uid: string; reaction: string }>,
  uid: string,
  reaction: string,
  on: boolean,
): { changed: boolean } {
  const has = reactions.some((r) => r.uid === uid && r.reaction === reaction);
  return { changed: has !== on };
}

/** A message as clients read it back (CometChat v3 message object). */
export interface MessageView {
  id: string;
  conversationId: string;
  sender: string;
  receiver: string;
  receiverType: 'group';
  category: 'message';
  type: MessageType;
  data: {
    text: string;
    attachments?: Attachment[];
    entities: {
      sender: { entity: { uid: string; name: string; avatar: string }; entityType: 'user' };
      receiver: { entity: { guid: string }; entityType: 'group' };
    };
    metadata: { chatMessage: Record<string, unknown> };
    reactions: Array<{ reaction: string; count: number; reactedByMe?: true }>;
  };
  sentAt: number;
  updatedAt: number;
  editedAt?: number;
  editedBy?: string;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * The message as read back: reactions both in CometChat's `data.reactions`
 * (counts; `reactedByMe` for the viewer) and in spec 002's
 * `metadata.chatMessage.reactions` (per emoji, who reacted).
 */
export function messageView(message: StoredMessage, reactions: StoredReaction[], viewer?: string): MessageView {
  const perEmoji = new Map<string, StoredReaction[]>();
  for (const r of [...reactions].sort((a, b) => Number(a.id) - Number(b.id))) {
    perEmoji.set(r.reaction, [...(perEmoji.get(r.reaction) ?? []), r]);
  }
  const counts = [...perEmoji].map(([reaction, list]) => ({
    reaction,
    count: list.length,
    ...(viewer && list.some((r) => r.uid === viewer) ? { reactedByMe: true as const } : {}),
  }));
  const specReactions = Object.fromEntries(
    [...perEmoji].map(([reaction, list]) => [reaction, list.map((r) => ({ userUUID: r.uid, messageId: message.id, name: r.name }))]),
  );
  return {
    id: message.id,
    conversationId: `group_${message.receiver}`,
    sender: message.sender,
    receiver: message.receiver,
    receiverType: message.receiverType,
    category: message.category,
    type: message.type,
    data: {
      text: message.text,
      ...(message.attachments.length > 0 ? { attachments: message.attachments } : {}),
      entities: {
        sender: { entity: message.senderEntity, entityType: 'user' },
        receiver: { entity: { guid: message.receiver }, entityType: 'group' },
      },
      metadata: { chatMessage: { ...message.chatMessage, id: message.id, reactions: specReactions } },
      reactions: counts,
    },
    sentAt: seconds(message.sentAt),
    updatedAt: seconds(message.updatedAt),
    ...(message.editedAt ? { editedAt: seconds(message.editedAt), editedBy: message.sender } : {}),
  };
}
