// The room's chat: history once, then the feed's pushes (sentChatMessage,
// editedChatMessage, reactedToChatMessage) merged by uuid; a sent message
// shows at once with a temporary id.
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { chat, chatToken } from '../api/chat';
import { keys } from '../api/keys';
import { rooms as roomApi } from '../api/spinroom';
import { errorText } from '../api/errors';
import type { LiveRoom } from '../rooms/liveRoom';
import { fromComet, mergeMessages, toggleReaction, type ChatMessage, type CometMessage } from './chatState';

function newUuid(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export function useRoomChat(options: {
  room: LiveRoom | undefined;
  roomUuid: string | undefined;
  slug: string;
  me: { uuid: string; nickname: string; avatarId: string; color: string } | undefined;
  enabled: boolean;
}) {
  const { room, roomUuid, slug, me, enabled } = options;
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [error, setError] = useState<string | undefined>();
  const token = useQuery({ queryKey: keys.chatToken, queryFn: chatToken, enabled, staleTime: 24 * 3600_000 });

  useEffect(() => {
    if (!enabled || !token.data || !roomUuid) return;
    let cancelled = false;
    void (async () => {
      try {
        await roomApi.joinChat(slug);
        const history = await chat.history(token.data, roomUuid);
        if (!cancelled) setMessages((list) => mergeMessages(list, history.map(fromComet)));
      } catch (e) {
        if (!cancelled) setError(errorText(e));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [enabled, token.data, roomUuid, slug]);

  useEffect(() => {
    if (!room) return;
    return room.onEvent((name, params) => {
      if (name !== 'sentChatMessage' && name !== 'editedChatMessage' && name !== 'reactedToChatMessage') return;
      const message = params.message as CometMessage | undefined;
      if (message) setMessages((list) => mergeMessages(list, [fromComet(message)]));
    });
  }, [room]);

  const send = useCallback(
    async (text: string, type: 'user' | 'room', mentions: ChatMessage['mentions']) => {
      if (!token.data || !roomUuid || !me) return;
      const uuid = newUuid();
      const local: ChatMessage = {
        id: `temp-${uuid}`,
        uuid,
        text,
        type,
        mentions,
        userUuid: me.uuid,
        userName: me.nickname,
        avatarId: me.avatarId,
        color: me.color,
        sentAt: Date.now(),
        reactions: {},
        pending: true,
      };
      setMessages((list) => mergeMessages(list, [local]));
      setError(undefined);
      try {
        const stored = await chat.send(token.data, roomUuid, { text, uuid, type, mentions });
        setMessages((list) => mergeMessages(list, [fromComet(stored)]));
      } catch (e) {
        setMessages((list) => list.map((m) => (m.uuid === uuid ? { ...m, pending: false, failed: true } : m)));
        setError(errorText(e));
      }
    },
    [token.data, roomUuid, me],
  );

  const edit = useCallback(
    async (message: ChatMessage, text: string, mentions: ChatMessage['mentions']) => {
      if (!token.data) return;
      try {
        const stored = await chat.edit(token.data, message.id, text, mentions);
        setMessages((list) => mergeMessages(list, [fromComet(stored)]));
      } catch (e) {
        setError(errorText(e));
      }
    },
    [token.data],
  );

  const react = useCallback(
    async (message: ChatMessage, emoji: string) => {
      if (!token.data || !me) return;
      const on = !(message.reactions[emoji] ?? []).some((r) => r.userUUID === me.uuid);
      setMessages((list) =>
        list.map((m) =>
          m.uuid === message.uuid ? toggleReaction(m, emoji, { userUUID: me.uuid, name: me.nickname, messageId: m.id }) : m,
        ),
      );
      try {
        const stored = await chat.react(token.data, message.id, emoji, on);
        setMessages((list) => mergeMessages(list, [fromComet(stored)]));
      } catch (e) {
        setMessages((list) => list.map((m) => (m.uuid === message.uuid ? message : m)));
        setError(errorText(e));
      }
    },
    [token.data, me],
  );

  return { messages, send, edit, react, error: error ?? (token.error ? errorText(token.error) : undefined) };
}
