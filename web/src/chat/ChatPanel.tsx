import { useEffect, useRef, useState, type KeyboardEvent, type SubmitEvent } from 'react';
import type { PinnedMessage } from '../api/types';
import { Avatar } from '../avatars/Avatar';
import { useT } from '../i18n/i18n';
import { editableMessage, findMentions, type ChatMessage } from './chatState';

const REACTIONS = ['👍', '❤️', '😂', '🔥'];

interface Props {
  messages: ChatMessage[];
  meUuid: string | null;
  people: Array<{ uuid: string; nickname: string }>;
  canPost: boolean;
  disabledUntil: Date | null;
  isModerator: boolean;
  pinned: PinnedMessage[];
  error?: string;
  // Async, and they report their own failures (useRoomChat's `error`): the panel does not wait.
  onSend: (text: string, type: 'user' | 'room', mentions: ChatMessage['mentions']) => Promise<void>;
  onEdit: (message: ChatMessage, text: string, mentions: ChatMessage['mentions']) => Promise<void>;
  onReact: (message: ChatMessage, emoji: string) => Promise<void>;
  onPin: (message: ChatMessage | null) => void;
}

function MessageText({ message, meUuid }: { message: ChatMessage; meUuid: string | null }) {
  if (!message.mentions.length) return <>{message.text}</>;
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const [i, m] of message.mentions.entries()) {
    if (m.start < at || m.start > message.text.length) continue;
    parts.push(message.text.slice(at, m.start));
    const token = `@${m.userNickname}`;
    parts.push(
      <mark key={i} className={m.userUuid === meUuid ? 'mention me' : 'mention'}>
        {token}
      </mark>,
    );
    at = m.start + token.length;
  }
  parts.push(message.text.slice(at));
  return <>{parts}</>;
}

export function ChatPanel(props: Props) {
  const t = useT();
  const [text, setText] = useState('');
  const [asNotice, setAsNotice] = useState(false);
  const [editing, setEditing] = useState<ChatMessage | null>(null);
  const [, setTick] = useState(0);
  const list = useRef<HTMLOListElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls down when a message arrives, which is what the length says
  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [props.messages.length]);
  // Re-render each second so the edit button disappears when its 20 s are up.
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  const editable = editableMessage(props.messages, props.meUuid);

  const submit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const body = text.trim();
    if (!body) return;
    const mentions = findMentions(body, props.people);
    if (editing) void props.onEdit(editing, body, mentions);
    else void props.onSend(body, asNotice ? 'room' : 'user', mentions);
    setText('');
    setEditing(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    // Arrow up on an empty box edits the last message while it may be edited.
    if (e.key === 'ArrowUp' && !text && editable) {
      setEditing(editable);
      setText(editable.text);
    } else if (e.key === 'Escape' && editing) {
      setEditing(null);
      setText('');
    }
  };

  return (
    <section className="chat" aria-labelledby="chat-title">
      <h2 id="chat-title">{t.chat}</h2>
      {props.pinned.length > 0 && (
        <section className="pinned" aria-label={t.pinned}>
          {props.pinned.map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: pinned messages have no id, and the list is replaced whole
            <p key={i}>
              📌 <strong>{p.message.userName}</strong>: {p.message.message}
            </p>
          ))}
          {props.isModerator && (
            <button type="button" className="link" onClick={() => props.onPin(null)}>
              {t.unpin}
            </button>
          )}
        </section>
      )}
      <ol className="messages" ref={list} aria-live="polite" aria-label={t.chat}>
        {props.messages.map((m) =>
          m.type === 'room' ? (
            <li key={m.uuid} className="notice" data-message-id={m.id}>
              📣 {m.text}
              {m.repeats && m.repeats > 1 ? ` ×${m.repeats}` : ''}
            </li>
          ) : (
            <li key={m.uuid} className={`message${m.pending ? ' pending' : ''}${m.failed ? ' failed' : ''}`} data-message-id={m.id}>
              <Avatar avatarId={m.avatarId} color={m.color} size={28} title={m.userName} />
              <div>
                <span className="author" style={{ color: m.color }}>
                  {m.userName}
                </span>
                <p className="text">
                  <MessageText message={m} meUuid={props.meUuid} />
                  {m.editedAt ? <span className="muted"> (edited)</span> : null}
                </p>
                <div className="reactions">
                  {Object.entries(m.reactions).map(([emoji, who]) => (
                    <button
                      type="button"
                      key={emoji}
                      className="reaction"
                      aria-pressed={who.some((r) => r.userUUID === props.meUuid)}
                      aria-label={`${emoji} ${who.length}`}
                      disabled={!props.canPost || m.id.startsWith('temp-')}
                      onClick={() => void props.onReact(m, emoji)}
                    >
                      {emoji} {who.length}
                    </button>
                  ))}
                  {props.canPost && !m.id.startsWith('temp-') && (
                    <details className="react-menu">
                      <summary aria-label={`${t.react}: ${m.text.slice(0, 30)}`}>☺</summary>
                      {REACTIONS.map((emoji) => (
                        <button type="button" key={emoji} aria-label={`${t.react} ${emoji}`} onClick={() => void props.onReact(m, emoji)}>
                          {emoji}
                        </button>
                      ))}
                      {props.isModerator && (
                        <button type="button" onClick={() => props.onPin(m)}>
                          {t.pin}
                        </button>
                      )}
                    </details>
                  )}
                  {editable?.uuid === m.uuid && !editing && (
                    <button
                      type="button"
                      className="link"
                      onClick={() => {
                        setEditing(m);
                        setText(m.text);
                      }}
                    >
                      {t.edit}
                    </button>
                  )}
                </div>
              </div>
            </li>
          ),
        )}
      </ol>
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
        <form onSubmit={submit} className="chat-form">
          <label className="sr-only" htmlFor="chat-input">
            {editing ? t.edit : t.message}
          </label>
          <input
            id="chat-input"
            value={text}
            maxLength={2000}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
            placeholder={editing ? t.edit : t.message}
            autoComplete="off"
          />
          {props.isModerator && (
            <label className="check small">
              <input type="checkbox" checked={asNotice} onChange={(e) => setAsNotice(e.target.checked)} /> {t.notice}
            </label>
          )}
          <button type="submit" disabled={!text.trim()}>
            {editing ? t.save : t.send}
          </button>
          {editing && (
            <button
              type="button"
              onClick={() => {
                setEditing(null);
                setText('');
              }}
            >
              {t.cancel}
            </button>
          )}
        </form>
      ) : null}
    </section>
  );
}
