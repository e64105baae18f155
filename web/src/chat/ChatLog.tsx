// The chat history as one tab stop: a scrollable log (role="log", tabIndex 0).
// Arrow keys (and Home/End) move between messages; the focused message's
// controls (reactions, the react menu, edit) join the tab order, the others'
// stay out of it, so Tab passes the whole history at once. A failed message's
// Retry and Remove stay in the tab order: they need doing. Escape goes back to
// the chat box.
import { useEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { Avatar } from '../avatars/Avatar';
import { useT } from '../i18n/i18n';
import type { ChatMessage } from './chatState';
import { mentionsUser, plainText } from './mentions';
import { ConsumableInChat } from '../shop/ConsumableInChat';
import { MessageText } from './MessageText';

const REACTIONS = ['👍', '❤️', '😂', '🔥'];

export interface ChatLogProps {
  messages: ChatMessage[];
  meUuid: string | null;
  names: Map<string, string>;
  canPost: boolean;
  isModerator: boolean;
  /** The message that may be edited now, unless one is being edited. */
  editable: ChatMessage | undefined;
  onStartEdit: (message: ChatMessage) => void;
  onReact: (message: ChatMessage, emoji: string) => Promise<void>;
  onPin: (message: ChatMessage) => void;
  onRetry: (message: ChatMessage) => Promise<void>;
  onDiscard: (message: ChatMessage) => void;
  /** Where Escape sends the focus. */
  onLeave: () => void;
}

export function ChatLog(props: ChatLogProps) {
  const t = useT();
  const log = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls down when a message arrives, which is what the length says
  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [props.messages.length]);

  const items = () => Array.from(log.current?.querySelectorAll<HTMLLIElement>('li[data-uuid]') ?? []);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      props.onLeave();
      return;
    }
    // Only on the log itself or on a message: a control inside keeps its keys.
    const target = e.target as HTMLElement;
    if (target !== log.current && !target.matches('li[data-uuid]')) return;
    const all = items();
    if (!all.length) return;
    const at = all.indexOf(target as HTMLLIElement);
    let next: HTMLLIElement | undefined;
    if (e.key === 'Home') next = all[0];
    else if (e.key === 'End') next = all.at(-1);
    else if (e.key === 'ArrowUp') next = at < 0 ? all.at(-1) : all[Math.max(at - 1, 0)];
    else if (e.key === 'ArrowDown') next = at < 0 ? all.at(-1) : all[Math.min(at + 1, all.length - 1)];
    if (!next) return;
    e.preventDefault();
    next.focus();
  };
  const onBlur = (e: FocusEvent<HTMLDivElement>) => {
    if (!log.current?.contains(e.relatedTarget)) setActive(null);
  };

  return (
    <div
      className="chat-log"
      ref={log}
      role="log"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrollable history is one tab stop, its messages reached by arrow keys
      tabIndex={0}
      aria-label={t.chatHistory}
      aria-describedby="chat-log-keys"
      onKeyDown={onKeyDown}
      onBlur={onBlur}
      // The log itself focused: no message is, so none's controls are tab stops.
      onFocus={(e) => e.target === e.currentTarget && setActive(null)}
    >
      <p id="chat-log-keys" className="sr-only">
        {t.chatLogKeys}
      </p>
      <ol className="chat-messages">
        {props.messages.map((m) => {
          const stop = active === m.uuid ? 0 : -1;
          // Messages take the focus from the arrow keys (roving focus) and are never tab stops: tabIndex -1.
          if (m.type === 'room')
            return (
              <li key={m.uuid} className="notice" data-message-id={m.id} data-uuid={m.uuid} tabIndex={-1} onFocus={() => setActive(m.uuid)}>
                📣 <MessageText text={m.text} mentions={m.mentions} names={props.names} meUuid={props.meUuid} />
                {m.repeats && m.repeats > 1 ? ` ×${m.repeats}` : ''}
              </li>
            );
          const temp = m.id.startsWith('temp-');
          const forMe = m.userUuid !== props.meUuid && mentionsUser(m, props.meUuid);
          const classes = ['message', m.pending && 'pending', m.failed && 'failed', forMe && 'mentions-me'].filter(Boolean).join(' ');
          return (
            <li key={m.uuid} className={classes} data-message-id={m.id} data-uuid={m.uuid} tabIndex={-1} onFocus={() => setActive(m.uuid)}>
              <Avatar avatarId={m.avatarId} color={m.color} seed={m.userUuid} size={28} title={m.userName} />
              <div>
                <span className="author" style={{ color: m.color }}>
                  {m.userName}
                </span>
                {forMe && <span className="sr-only"> ({t.mentionsYou})</span>}
                {m.consumable ? (
                  <p className="text">
                    <ConsumableInChat consumable={m.consumable} who={m.userName} />
                  </p>
                ) : (
                  <p className="text">
                    <MessageText text={m.text} mentions={m.mentions} names={props.names} meUuid={props.meUuid} />
                    {m.editedAt ? <span className="muted"> ({t.chatEdited})</span> : null}
                  </p>
                )}
                {m.failed && (
                  <p className="send-failed">
                    <span>
                      {t.chatNotSent}
                      {m.failure ? `: ${m.failure}` : ''}
                    </span>{' '}
                    <button type="button" className="link" onClick={() => void props.onRetry(m)}>
                      {t.chatRetry}
                    </button>{' '}
                    <button type="button" className="link" onClick={() => props.onDiscard(m)}>
                      {t.remove}
                    </button>
                  </p>
                )}
                <div className="reactions">
                  {Object.entries(m.reactions).map(([emoji, who]) => (
                    <button
                      type="button"
                      key={emoji}
                      className="reaction"
                      tabIndex={stop}
                      aria-pressed={who.some((r) => r.userUUID === props.meUuid)}
                      aria-label={`${emoji} ${who.length}`}
                      disabled={!props.canPost || temp}
                      onClick={() => void props.onReact(m, emoji)}
                    >
                      {emoji} {who.length}
                    </button>
                  ))}
                  {props.canPost && !temp && (
                    <details className="react-menu">
                      <summary
                        tabIndex={stop}
                        aria-label={`${t.react}: ${plainText(m.text, m.mentions, props.names, t.mentionSomeone).slice(0, 30)}`}
                      >
                        ☺
                      </summary>
                      {REACTIONS.map((emoji) => (
                        <button
                          type="button"
                          key={emoji}
                          tabIndex={stop}
                          aria-label={`${t.react} ${emoji}`}
                          onClick={() => void props.onReact(m, emoji)}
                        >
                          {emoji}
                        </button>
                      ))}
                      {props.isModerator && (
                        <button type="button" tabIndex={stop} onClick={() => props.onPin(m)}>
                          {t.pin}
                        </button>
                      )}
                    </details>
                  )}
                  {props.editable?.uuid === m.uuid && (
                    <button type="button" className="link" tabIndex={stop} onClick={() => props.onStartEdit(m)}>
                      {t.edit}
                    </button>
                  )}
                </div>
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
