// The room's chat panel: the mention alert, pinned messages, the history (one
// tab stop, ChatLog) and the chat box (ChatComposer). Mentions show as
// @nickname from the room's people, else the names messages carry.
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import type { PinnedMessage } from '../api/types';
import { useT } from '../i18n/i18n';
import { ChatComposer } from './ChatComposer';
import { ChatLog } from './ChatLog';
import { editableMessage, type ChatMessage } from './chatState';
import { nicknameDirectory, plainText, type Mention } from './mentions';
import { MessageText } from './MessageText';
import './chat.css';

interface Props {
  messages: ChatMessage[];
  meUuid: string | null;
  people: Array<{ uuid: string; nickname: string }>;
  canPost: boolean;
  disabledUntil: Date | null;
  isModerator: boolean;
  pinned: PinnedMessage[];
  error?: string;
  /** The latest message that mentions the user, until dismissed. */
  mention?: ChatMessage;
  onDismissMention: () => void;
  // Async, and they report their own failures (useRoomChat's `error`, a failed message's mark): the panel does not wait.
  onSend: (text: string, type: 'user' | 'room', mentions: Mention[]) => Promise<void>;
  onEdit: (message: ChatMessage, text: string, mentions: Mention[]) => Promise<void>;
  onReact: (message: ChatMessage, emoji: string) => Promise<void>;
  onRetry: (message: ChatMessage) => Promise<void>;
  onDiscard: (message: ChatMessage) => void;
  onPin: (message: ChatMessage | null) => void;
  /** More beside the chat box's Send button (the room's consumables). */
  composerExtra?: ReactNode;
}

export function ChatPanel(props: Props) {
  const t = useT();
  const [editing, setEditing] = useState<ChatMessage | null>(null);
  const [, setTick] = useState(0);
  const input = useRef<HTMLTextAreaElement>(null);
  const panel = useRef<HTMLElement>(null);
  // Re-render each second so the edit button disappears when its 20 s are up.
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  const editable = editableMessage(props.messages, props.meUuid);
  const names = useMemo(() => nicknameDirectory(props.people, props.messages), [props.people, props.messages]);
  const mention = props.mention;
  const mentionText = mention ? plainText(mention.text, mention.mentions, names, t.mentionSomeone) : '';

  // A mention while the page is hidden also makes a system notification, if the user already allowed them (never asked here).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per mention, which its uuid says
  useEffect(() => {
    if (!mention || typeof Notification === 'undefined' || Notification.permission !== 'granted' || document.visibilityState !== 'hidden')
      return;
    try {
      new Notification(t.mentionedYou.replace('{name}', mention.userName), { body: mentionText, tag: `spinroom-mention-${mention.uuid}` });
    } catch {
      // Some browsers (Chrome on Android) allow notifications only from a service worker: the alert in the page stays.
    }
  }, [mention?.uuid]);

  const showMention = () => {
    if (!mention) return;
    panel.current?.querySelector<HTMLElement>(`li[data-uuid="${CSS.escape(mention.uuid)}"]`)?.focus();
    props.onDismissMention();
  };

  return (
    <section className="chat" aria-labelledby="chat-title" ref={panel}>
      <h2 id="chat-title">{t.chat}</h2>
      <div className="mention-alert" role="status">
        {mention && (
          <>
            {/* The log reads the message out itself: the alert says who, and Show goes to it. */}
            <strong>{t.mentionedYou.replace('{name}', mention.userName)}</strong>
            <button type="button" className="link" onClick={showMention}>
              {t.chatShowMention}
            </button>
            <button type="button" className="link" aria-label={t.chatDismiss} onClick={() => props.onDismissMention()}>
              ×
            </button>
          </>
        )}
      </div>
      {props.pinned.length > 0 && (
        <section className="pinned" aria-label={t.pinned}>
          {props.pinned.map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: pinned messages have no id, and the list is replaced whole
            <p key={i}>
              📌 <strong>{p.message.userName}</strong>: <MessageText text={p.message.message ?? ''} names={names} meUuid={props.meUuid} />
            </p>
          ))}
          {props.isModerator && (
            <button type="button" className="link" onClick={() => props.onPin(null)}>
              {t.unpin}
            </button>
          )}
        </section>
      )}
      <ChatLog
        messages={props.messages}
        meUuid={props.meUuid}
        names={names}
        canPost={props.canPost}
        isModerator={props.isModerator}
        editable={editing ? undefined : editable}
        onStartEdit={setEditing}
        onReact={props.onReact}
        onPin={props.onPin}
        onRetry={props.onRetry}
        onDiscard={props.onDiscard}
        onLeave={() => input.current?.focus()}
      />
      {props.error && (
        <p className="error" role="alert">
          {props.error}
        </p>
      )}
      {props.disabledUntil ? (
        <p className="notice">
          {t.chatDisabledUntil} {props.disabledUntil.getFullYear() > 9999 ? '…' : props.disabledUntil.toLocaleTimeString()}
        </p>
      ) : props.canPost ? (
        <ChatComposer
          input={input}
          people={props.people}
          meUuid={props.meUuid}
          names={names}
          isModerator={props.isModerator}
          editable={editable}
          editing={editing}
          onEditing={setEditing}
          onSend={props.onSend}
          onEdit={props.onEdit}
          extra={props.composerExtra}
        />
      ) : null}
    </section>
  );
}
