// Room chat as the client keeps it (spec 002 §4 "Chat", §5): a sent message
// shows at once with a temporary id; merging history drops duplicates by uuid,
// caps what is new at 300, and collapses consecutive room notices.

export const CHAT_CAP = 300;
export const EDIT_WINDOW_MS = 20_000;

export interface Reactor {
  userUUID: string;
  messageId?: string;
  name?: string;
}

export interface ChatMessage {
  /** The server's message id (a growing numeric string), or `temp-...` until it answers. */
  id: string;
  /** The client-made uuid the message carries in metadata.chatMessage. */
  uuid: string;
  text: string;
  userUuid: string;
  userName: string;
  avatarId: string;
  color: string;
  /** ms since epoch */
  sentAt: number;
  type: 'user' | 'room';
  reactions: Record<string, Reactor[]>;
  mentions: Array<{ start: number; userNickname: string; userUuid: string }>;
  editedAt?: number;
  pending?: boolean;
  failed?: boolean;
  /** Why sending failed (the error's text), while `failed`. */
  failure?: string;
  /** How many identical room notices in a row this one stands for. */
  repeats?: number;
  /** A consumable bought in the room (issue 16): the chat service's message of the purchase, never one a client wrote. */
  consumable?: ChatConsumable;
}

/** spec 002's chat message `consumable`, as the chat service stores a purchase's (services/chat/README.md). */
export interface ChatConsumable {
  id: string;
  name: string;
  tokenCost: number;
  displayType: 'cover' | 'small';
}

function consumableOf(value: unknown): ChatConsumable | undefined {
  const c = value as { id?: unknown; name?: unknown; tokenCost?: unknown; displayType?: unknown } | null | undefined;
  if (!c || typeof c !== 'object' || typeof c.id !== 'string' || typeof c.name !== 'string') return undefined;
  return {
    id: c.id,
    name: c.name,
    tokenCost: typeof c.tokenCost === 'number' ? c.tokenCost : 0,
    displayType: c.displayType === 'cover' ? 'cover' : 'small',
  };
}

/** A CometChat v3 message as the chat API reads it back. */
export interface CometMessage {
  id: string;
  sentAt: number;
  updatedAt?: number;
  editedAt?: number;
  sender?: string;
  data?: {
    text?: string;
    entities?: { sender?: { entity?: { uid?: string; name?: string; avatar?: string } } };
    metadata?: { chatMessage?: Record<string, unknown> };
  };
}

export function fromComet(m: CometMessage): ChatMessage {
  // Spec 002's chat message as the server stores it; the loosely typed fields are checked below.
  const cm = (m.data?.metadata?.chatMessage ?? {}) as {
    uuid?: unknown;
    message?: unknown;
    userUuid?: string;
    userName?: string;
    avatarId?: string;
    color?: string;
    type?: unknown;
    reactions?: unknown;
    mentions?: unknown;
    consumable?: unknown;
  };
  const sender = m.data?.entities?.sender?.entity;
  const consumable = consumableOf(cm.consumable);
  return {
    id: String(m.id),
    uuid: typeof cm.uuid === 'string' && cm.uuid ? cm.uuid : `server-${m.id}`,
    text: m.data?.text ?? (typeof cm.message === 'string' ? cm.message : ''),
    userUuid: cm.userUuid ?? sender?.uid ?? m.sender ?? '',
    userName: cm.userName ?? sender?.name ?? '',
    avatarId: cm.avatarId ?? sender?.avatar ?? '',
    color: cm.color ?? '#8B5CF6',
    sentAt: (m.sentAt ?? 0) * 1000,
    type: cm.type === 'room' ? 'room' : 'user',
    reactions: (cm.reactions && typeof cm.reactions === 'object' ? cm.reactions : {}) as Record<string, Reactor[]>,
    mentions: Array.isArray(cm.mentions) ? cm.mentions : [],
    ...(m.editedAt ? { editedAt: m.editedAt * 1000 } : {}),
    ...(consumable ? { consumable } : {}),
  };
}

/**
 * Merges incoming messages into the list: one entry per uuid (an incoming one
 * replaces the local copy, e.g. a temp message the server has now stored, or an
 * edit), at most `cap` new ones kept (the newest), ordered by time, with runs of
 * identical room notices collapsed into one.
 */
export function mergeMessages(existing: ChatMessage[], incoming: ChatMessage[], cap = CHAT_CAP): ChatMessage[] {
  const byUuid = new Map(existing.map((m) => [m.uuid, m]));
  const fresh: ChatMessage[] = [];
  const seenIncoming = new Set<string>();
  for (const message of incoming) {
    if (seenIncoming.has(message.uuid)) continue;
    seenIncoming.add(message.uuid);
    if (byUuid.has(message.uuid)) byUuid.set(message.uuid, { ...message, pending: false });
    else fresh.push(message);
  }
  const kept = fresh.slice(-cap);
  const merged = [...byUuid.values(), ...kept].sort((a, b) => a.sentAt - b.sentAt || compareIds(a.id, b.id));
  return collapseNotices(merged).slice(-cap);
}

function compareIds(a: string, b: string): number {
  const na = Number(a);
  const nb = Number(b);
  if (Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Consecutive room notices with the same text become the latest one, counting the repeats. */
export function collapseNotices(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const message of messages) {
    const last = out.at(-1);
    if (last && last.type === 'room' && message.type === 'room' && last.text === message.text) {
      out[out.length - 1] = { ...message, repeats: (last.repeats ?? 1) + 1 };
    } else out.push(message);
  }
  return out;
}

/** Toggles one user's reaction on a message (spec 002 §5: per user). */
export function toggleReaction(message: ChatMessage, emoji: string, user: Reactor): ChatMessage {
  const list = message.reactions[emoji] ?? [];
  const has = list.some((r) => r.userUUID === user.userUUID);
  const nextList = has ? list.filter((r) => r.userUUID !== user.userUUID) : [...list, user];
  const reactions = { ...message.reactions };
  if (nextList.length) reactions[emoji] = nextList;
  else delete reactions[emoji];
  return { ...message, reactions };
}

/** The caller's last message, if it is still editable: text, sent within 20 s, stored by the server. */
export function editableMessage(messages: ChatMessage[], userUuid: string | null, now = Date.now()): ChatMessage | undefined {
  if (!userUuid) return undefined;
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const m = messages[i]!;
    if (m.userUuid !== userUuid) continue;
    // A consumable's message is the purchase's, not words to edit.
    if (m.pending || m.id.startsWith('temp-') || m.type !== 'user' || !m.text || m.consumable) return undefined;
    return now - m.sentAt <= EDIT_WINDOW_MS ? m : undefined;
  }
  return undefined;
}

/**
 * The longest text a message may carry: the chat service's MAX_TEXT_LENGTH
 * (services/chat/src/domain/chat-message.ts), counted as it counts, in UTF-16
 * code units of the text as sent (mention tokens included).
 */
export const MAX_MESSAGE_LENGTH = 2000;
/** The counter shows from this many characters left. */
export const LENGTH_WARNING = 200;

/** The length rule for a text about to be sent: its count, what is left, whether to show the counter, whether it is over. */
export function lengthCheck(sent: string, max = MAX_MESSAGE_LENGTH): { count: number; left: number; show: boolean; over: boolean } {
  const count = sent.length;
  const left = max - count;
  return { count, left, show: left <= LENGTH_WARNING, over: left < 0 };
}

/** A room notice or a message with user id, name and avatar, with text (spec 002 §5). */
export function isValidMessage(m: ChatMessage): boolean {
  if (!m.text.trim()) return false;
  return m.type === 'room' || (!!m.userUuid && !!m.userName && !!m.avatarId);
}
