// The room's chat: history once, then the feed's pushes (sentChatMessage,
// editedChatMessage, reactedToChatMessage) merged by uuid; a sent message
// shows at once with a temporary id, and one that fails stays, marked, to be
// retried (with the same uuid) or removed. A message pushed by the feed that
// mentions the user is their `mention` alert.
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { chat, chatToken } from '../api/chat';
import { keys } from '../api/keys';
import { rooms as roomApi } from '../api/spinroom';
import { errorText } from '../api/errors';
import type { LiveRoom } from '../rooms/liveRoom';
import { fromComet, mergeMessages, toggleReaction, type ChatMessage, type CometMessage } from './chatState';
import { mentionsUser } from './mentions';

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
  const [mention, setMention] = useState<ChatMessage | undefined>();
  const meUuid = useRef(me?.uuid);
  meUuid.current = me?.uuid;
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
      if (!message) return;
      const read = fromComet(message);
      setMessages((list) => mergeMessages(list, [read]));
      if (name === 'sentChatMessage' && read.userUuid !== meUuid.current && mentionsUser(read, meUuid.current)) setMention(read);
    });
  }, [room]);

  /** Sends (or sends again) a message already in the list, with its uuid: stored, it replaces the local copy; failed, it stays marked. */
  const deliver = useCallback(
    async (local: ChatMessage) => {
      if (!token.data || !roomUuid) return;
      try {
        const stored = await chat.send(token.data, roomUuid, {
          text: local.text,
          uuid: local.uuid,
          type: local.type,
          mentions: local.mentions,
        });
        setMessages((list) => mergeMessages(list, [fromComet(stored)]));
      } catch (e) {
        const failure = errorText(e);
        setMessages((list) => list.map((m) => (m.uuid === local.uuid ? { ...m, pending: false, failed: true, failure } : m)));
      }
    },
    [token.data, roomUuid],
  );

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
      await deliver(local);
    },
    [token.data, roomUuid, me, deliver],
  );

  const retry = useCallback(
    async (message: ChatMessage) => {
      const again: ChatMessage = { ...message, pending: true, failed: false, failure: undefined };
      setMessages((list) => list.map((m) => (m.uuid === message.uuid ? again : m)));
      await deliver(again);
    },
    [deliver],
  );

  /** Forgets a message that failed to send. */
  const discard = useCallback((message: ChatMessage) => {
    setMessages((list) => list.filter((m) => m.uuid !== message.uuid || !m.failed));
  }, []);

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

  return {
    messages,
    send,
    retry,
    discard,
    edit,
    react,
    mention,
    dismissMention: useCallback(() => setMention(undefined), []),
    error: error ?? (token.error ? errorText(token.error) : undefined),
  };
}
