// The chat box. Enter sends, Shift+Enter starts a new line. Typing `@` and the
// start of a name offers the people in the room (a listbox the box points into
// with aria-activedescendant: ↑/↓ move, Enter or Tab picks, Escape closes); a
// picked person shows as `@nickname` in the box and is sent as their
// `<@uid:...>` token. The length is counted as sent, tokens included: a counter
// shows near the chat service's limit, and over it nothing is sent and the box
// says why (never cut). ↑ in an empty box edits the last message while it may
// be edited; Escape cancels the edit.
import { useLayoutEffect, useState, type KeyboardEvent, type RefObject, type SubmitEvent, type ReactNode } from 'react';
import { useT } from '../i18n/i18n';
import { lengthCheck, MAX_MESSAGE_LENGTH, type ChatMessage } from './chatState';
import { decodeMentions, encodeMentions, insertMention, mentionQuery, suggestMentions, type Mention, type Person } from './mentions';

const LIST_ID = 'chat-mention-list';
const optionId = (i: number) => `chat-mention-${i}`;

export interface ChatComposerProps {
  input: RefObject<HTMLTextAreaElement | null>;
  people: Person[];
  meUuid: string | null;
  names: Map<string, string>;
  isModerator: boolean;
  editable: ChatMessage | undefined;
  editing: ChatMessage | null;
  onEditing: (message: ChatMessage | null) => void;
  onSend: (text: string, type: 'user' | 'room', mentions: Mention[]) => Promise<void>;
  onEdit: (message: ChatMessage, text: string, mentions: Mention[]) => Promise<void>;
  /** More beside the Send button (the room's consumables), after it in the tab order. */
  extra?: ReactNode;
}

export function ChatComposer(props: ChatComposerProps) {
  const t = useT();
  const { input, editing } = props;
  const [text, setText] = useState('');
  const [picked, setPicked] = useState<Person[]>([]);
  const [caret, setCaret] = useState(0);
  const [asNotice, setAsNotice] = useState(false);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [choice, setChoice] = useState({ key: '', index: 0 });
  const [moveCaret, setMoveCaret] = useState<number | null>(null);
  // A message to edit puts its text in the box (mentions as @nickname).
  const [shown, setShown] = useState<string | null>(null);
  if ((editing?.uuid ?? null) !== shown) {
    setShown(editing?.uuid ?? null);
    if (editing) {
      const decoded = decodeMentions(editing.text, props.names);
      setText(decoded.text);
      setPicked(decoded.picked);
      setMoveCaret(decoded.text.length);
    }
  }
  useLayoutEffect(() => {
    if (moveCaret === null || !input.current) return;
    input.current.focus();
    input.current.setSelectionRange(moveCaret, moveCaret);
    setCaret(moveCaret);
    setMoveCaret(null);
  }, [moveCaret, input]);

  const query = mentionQuery(text, caret);
  const options = query && query.start !== dismissedAt ? suggestMentions(query.query, props.people, props.meUuid) : [];
  const open = options.length > 0;
  const key = query ? `${query.start}:${query.query}` : '';
  const active = choice.key === key ? Math.min(choice.index, options.length - 1) : 0;

  const body = text.trim();
  const outgoing = encodeMentions(body, props.people, picked);
  const length = lengthCheck(outgoing.text);

  const change = (value: string, at: number) => {
    setText(value);
    setCaret(at);
    const q = mentionQuery(value, at);
    if (!q || q.start !== dismissedAt) setDismissedAt(null);
  };
  const pick = (person: Person) => {
    if (!query) return;
    const next = insertMention(text, query.start, caret, person.nickname);
    setText(next.text);
    setPicked((list) => [...list.filter((p) => p.nickname !== person.nickname), person]);
    setMoveCaret(next.caret);
  };
  const reset = () => {
    setText('');
    setPicked([]);
    setCaret(0);
    setDismissedAt(null);
    props.onEditing(null);
  };
  const send = () => {
    if (!body || length.over) return;
    if (editing) void props.onEdit(editing, outgoing.text, outgoing.mentions);
    else void props.onSend(outgoing.text, asNotice ? 'room' : 'user', outgoing.mentions);
    reset();
  };
  const submit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    send();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (open) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        setChoice({ key, index: (active + step + options.length) % options.length });
        return;
      }
      if ((e.key === 'Enter' && !e.shiftKey) || (e.key === 'Tab' && !e.shiftKey)) {
        e.preventDefault();
        pick(options[active]!);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        setDismissedAt(query!.start);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      send();
    } else if (e.key === 'ArrowUp' && !text && props.editable && !editing) {
      e.preventDefault();
      props.onEditing(props.editable);
    } else if (e.key === 'Escape' && editing) {
      e.preventDefault();
      reset();
    }
  };
  const describedBy = ['chat-keys', length.show && 'chat-length', length.over && 'chat-too-long'].filter(Boolean).join(' ');

  return (
    <form onSubmit={submit} className="chat-form">
      <div className="chat-box">
        <label className="sr-only" htmlFor="chat-input">
          {editing ? t.edit : t.message}
        </label>
        <textarea
          id="chat-input"
          ref={input}
          rows={1}
          value={text}
          onChange={(e) => change(e.target.value, e.target.selectionStart)}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onBlur={() => setDismissedAt(query?.start ?? null)}
          placeholder={editing ? t.edit : t.message}
          autoComplete="off"
          aria-autocomplete="list"
          aria-controls={open ? LIST_ID : undefined}
          aria-activedescendant={open ? optionId(active) : undefined}
          aria-describedby={describedBy}
          aria-invalid={length.over || undefined}
        />
        {open && (
          <div className="mention-list" id={LIST_ID} role="listbox" aria-label={t.mentionSuggestions}>
            {options.map((p, i) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the chat box handles the keys (aria-activedescendant); a click picks too
              // biome-ignore lint/a11y/useFocusableInteractive: options are pointed at with aria-activedescendant, the focus stays in the box
              <div
                key={p.uuid}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                // Keep the focus in the box.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(p)}
              >
                @{p.nickname}
              </div>
            ))}
          </div>
        )}
      </div>
      {props.isModerator && !editing && (
        <label className="check small">
          <input type="checkbox" checked={asNotice} onChange={(e) => setAsNotice(e.target.checked)} /> {t.notice}
        </label>
      )}
      <button type="submit" disabled={!body}>
        {editing ? t.save : t.send}
      </button>
      {editing && (
        <button type="button" onClick={reset}>
          {t.cancel}
        </button>
      )}
      {props.extra}
      <p id="chat-keys" className="sr-only">
        {t.chatKeys}
      </p>
      {length.show && (
        <p id="chat-length" className={length.over ? 'chat-length over' : 'chat-length'}>
          {t.chatLength.replace('{count}', String(length.count)).replace('{max}', String(MAX_MESSAGE_LENGTH))}
        </p>
      )}
      {length.over && (
        <p id="chat-too-long" className="error" role="alert">
          {t.chatTooLong.replace('{max}', String(MAX_MESSAGE_LENGTH)).replace('{over}', String(-length.left))}
        </p>
      )}
    </form>
  );
}
