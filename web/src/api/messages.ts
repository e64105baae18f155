// Direct messages through the chat API (CometChat v3 shapes, services/chat/README.md
// "Direct messages"): conversations grouped as friends and others (spec 002),
// one conversation's history, sending with `receiverType: "user"`, read state.
import type { CometMessage } from '../chat/chatState';
import { CHAT_APP_ID } from './chat';
import { CHAT, request } from './client';

export type ConversationGroup = 'friends' | 'others';
/** Conversations a page (the chat service allows 50). */
export const CONVERSATIONS_PAGE = 30;
/** How much of one conversation is shown: its newest messages. */
export const HISTORY_SIZE = 100;

export interface DirectMessage extends CometMessage {
  receiver?: string;
  receiverType?: string;
  /** Seconds, once the receiver has read it. */
  readAt?: number;
}

export interface Conversation {
  conversationId: string;
  conversationType: 'user';
  unreadMessageCount: number;
  createdAt: number;
  updatedAt: number;
  lastMessage?: DirectMessage;
  conversationWith: { uid: string; name: string; avatar?: string; status?: 'online' | 'offline' };
  conversationGroup: ConversationGroup;
}

export interface ConversationPage {
  data: Conversation[];
  meta: { pagination: { total: number; count: number; per_page: number; current_page: number; total_pages: number } };
}

function chatCall<T>(token: string, method: string, path: string, body?: unknown, query?: Record<string, string | number | boolean>) {
  return request<T>(method, `${CHAT}${path}`, { body, query, anonymous: true, headers: { appid: CHAT_APP_ID, authtoken: token } });
}

const uid = (uuid: string) => encodeURIComponent(uuid);

export const messages = {
  /** The caller's conversations of one group, newest first, from page 1. */
  conversations: (token: string, me: string, group: ConversationGroup, page = 1) =>
    chatCall<ConversationPage>(token, 'GET', `/users/${uid(me)}/conversations`, undefined, {
      conversationType: 'user',
      conversationGroup: group,
      perPage: CONVERSATIONS_PAGE,
      page,
    }),
  /** Conversations with something unread (the menu's count). */
  unread: (token: string, me: string) =>
    chatCall<ConversationPage>(token, 'GET', `/users/${uid(me)}/conversations`, undefined, {
      conversationType: 'user',
      unread: true,
      perPage: 50,
    }),
  /** The newest messages with someone, oldest first. */
  history: (token: string, other: string) =>
    chatCall<{ data: DirectMessage[] }>(token, 'GET', `/users/${uid(other)}/messages`, undefined, { per_page: HISTORY_SIZE }).then(
      (r) => r.data,
    ),
  send: (token: string, other: string, text: string, uuid: string) =>
    chatCall<{ data: DirectMessage }>(token, 'POST', '/messages', {
      receiver: other,
      receiverType: 'user',
      category: 'message',
      type: 'text',
      data: { text, metadata: { chatMessage: { message: text, uuid, type: 'user', mentions: [] } } },
    }).then((r) => r.data),
  /** What `other` sent the caller is read, up to `messageId`. */
  markRead: (token: string, other: string, messageId: string) =>
    chatCall<{ data: { success: boolean; count: number } }>(token, 'POST', `/users/${uid(other)}/conversation/read`, { messageId }).then(
      (r) => r.data,
    ),
};

/** The newest message in `list` that `other` sent and the caller has not read, if any. */
export function newestUnreadFrom(list: DirectMessage[], other: string): DirectMessage | undefined {
  for (let i = list.length - 1; i >= 0; i--) {
    const m = list[i]!;
    if (senderOf(m) === other) return m.readAt === undefined ? m : undefined;
  }
  return undefined;
}

export function senderOf(m: DirectMessage): string {
  return m.sender ?? m.data?.entities?.sender?.entity?.uid ?? '';
}
