// The chat API (CometChat v3 shapes, services/chat/README.md) under /chat/v3.0:
// the `appid` header and the chat token as `authtoken`.
import { api, CHAT, request, USER } from './client';
import type { CometMessage } from '../chat/chatState';

export const CHAT_APP_ID = 'spinroom';

export const chatToken = () => api.get<{ cometAuthToken: string }>(`${USER}/comet-chat/user-token`).then((r) => r.cometAuthToken);

function chatRequest<T>(token: string, method: string, path: string, body?: unknown, query?: Record<string, string | number>): Promise<T> {
  return request<T>(method, `${CHAT}${path}`, { body, query, anonymous: true, headers: { appid: CHAT_APP_ID, authtoken: token } });
}

export interface OutgoingChat {
  text: string;
  uuid: string;
  type: 'user' | 'room';
  mentions: Array<{ start: number; userNickname: string; userUuid: string }>;
}

export const chat = {
  history: (token: string, roomUuid: string) =>
    chatRequest<{ data: CometMessage[] }>(token, 'GET', `/groups/${roomUuid}/messages`, undefined, { per_page: 100 }).then((r) => r.data),
  send: (token: string, roomUuid: string, m: OutgoingChat) =>
    chatRequest<{ data: CometMessage }>(token, 'POST', '/messages', {
      receiver: roomUuid,
      receiverType: 'group',
      category: 'message',
      type: 'text',
      data: { text: m.text, metadata: { chatMessage: { message: m.text, uuid: m.uuid, type: m.type, mentions: m.mentions } } },
    }).then((r) => r.data),
  edit: (token: string, id: string, text: string, mentions: OutgoingChat['mentions']) =>
    chatRequest<{ data: CometMessage }>(token, 'PUT', `/messages/${id}`, { data: { text, metadata: { chatMessage: { mentions } } } }).then(
      (r) => r.data,
    ),
  react: (token: string, id: string, emoji: string, on: boolean) =>
    chatRequest<{ data: CometMessage }>(token, on ? 'POST' : 'DELETE', `/messages/${id}/reactions/${encodeURIComponent(emoji)}`).then(
      (r) => r.data,
    ),
};
