// Direct messages (#/messages, #/messages/<uuid>): the caller's conversations
// grouped as Friends and Others (spec 002), each with its unread count, and one
// conversation: its newest messages (asked again every 2 s), what the other
// person sent marked read as it is shown, and a box to write. A refusal (a
// block either way) shows the server's message.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { keys } from '../api/keys';
import { messages, newestUnreadFrom, senderOf, type ConversationGroup } from '../api/messages';
import { profiles as profileApi } from '../api/spinroom';
import { ErrorNote } from '../app/ErrorNote';
import { href } from '../app/router';
import { Avatar } from '../avatars/Avatar';
import { fill, formatDate, plural, useLocale, useT } from '../i18n/i18n';
import { useSession } from '../session/session';
import { useChatToken } from './useChatToken';
import '../social/social.css';

/** How often an open conversation and the conversation lists are asked again. */
export const HISTORY_POLL_MS = 2_000;
export const CONVERSATIONS_POLL_MS = 4_000;

export function MessagesScreen({ withUuid }: { withUuid?: string }) {
  const t = useT();
  const token = useChatToken();
  if (token.error) return <ErrorNote error={token.error} />;
  if (!token.data) return <p className="muted">{t.loading}</p>;
  return withUuid ? <Conversation token={token.data} other={withUuid} /> : <Conversations token={token.data} />;
}

function Conversations({ token }: { token: string }) {
  const t = useT();
  return (
    <div className="stack narrow">
      <h1>{t.messages}</h1>
      <ConversationGroupList token={token} group="friends" title={t.conversationsFriends} />
      <ConversationGroupList token={token} group="others" title={t.conversationsOthers} />
    </div>
  );
}

function ConversationGroupList({ token, group, title }: { token: string; group: ConversationGroup; title: string }) {
  const t = useT();
  const locale = useLocale();
  const s = useSession();
  const list = useInfiniteQuery({
    queryKey: keys.conversations(group),
    queryFn: ({ pageParam }) => messages.conversations(token, s.userUuid!, group, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last) =>
      last.meta.pagination.current_page < last.meta.pagination.total_pages ? last.meta.pagination.current_page + 1 : undefined,
    refetchInterval: CONVERSATIONS_POLL_MS,
  });
  const conversations = list.data?.pages.flatMap((p) => p.data) ?? [];
  const id = `conversations-${group}`;
  return (
    <section className="card stack" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ErrorNote error={list.error} />
      {list.data && conversations.length === 0 && <p className="muted">{t.noConversations}</p>}
      <ul className="people-list" aria-label={title}>
        {conversations.map((c) => (
          <li key={c.conversationId}>
            <a className="person-link" href={href({ name: 'messages', withUuid: c.conversationWith.uid })}>
              <Avatar avatarId={c.conversationWith.avatar} seed={c.conversationWith.uid} size={36} decorative />
              <span className="stack">
                <strong>
                  {c.conversationWith.name}
                  {c.conversationWith.status === 'online' && <span className="muted small"> · {t.online}</span>}
                </strong>
                {c.lastMessage && <span className="muted small">{c.lastMessage.data?.text ?? ''}</span>}
              </span>
            </a>
            <span className="row">
              {c.unreadMessageCount > 0 && <span className="unread-badge">{plural(c.unreadMessageCount, t.unreadCount, locale)}</span>}
              <span className="muted small">{formatDate(c.updatedAt * 1000, 'dateTime', locale)}</span>
            </span>
          </li>
        ))}
      </ul>
      {list.hasNextPage && (
        <button type="button" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {t.moreConversations}
        </button>
      )}
    </section>
  );
}

/** Whether the page is on screen: what arrives while it is hidden stays unread until it is seen. */
function usePageVisible(): boolean {
  return useSyncExternalStore(
    (listener) => {
      document.addEventListener('visibilitychange', listener);
      return () => document.removeEventListener('visibilitychange', listener);
    },
    () => document.visibilityState !== 'hidden',
    () => true,
  );
}

function newUuid(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(16)}-${Math.random().toString(16).slice(2)}`;
}

function Conversation({ token, other }: { token: string; other: string }) {
  const t = useT();
  const locale = useLocale();
  const s = useSession();
  const client = useQueryClient();
  const [text, setText] = useState('');
  const logRef = useRef<HTMLOListElement>(null);
  const profile = useQuery({ queryKey: keys.profile(other), queryFn: () => profileApi.other(other), staleTime: 300_000 });
  const history = useQuery({
    queryKey: keys.directHistory(other),
    queryFn: () => messages.history(token, other),
    refetchInterval: HISTORY_POLL_MS,
  });
  const name = profile.data?.nickname ?? t.someone;
  const list = history.data ?? [];

  // What the other person sent is read once it is on the screen (and the page in view).
  const visible = usePageVisible();
  const unread = newestUnreadFrom(list, other);
  const markedUpTo = useRef<string>(undefined);
  useEffect(() => {
    if (!visible || !unread || markedUpTo.current === unread.id) return;
    markedUpTo.current = unread.id;
    messages
      .markRead(token, other, unread.id)
      .then(() => client.invalidateQueries({ queryKey: keys.messages }))
      .catch(() => {
        markedUpTo.current = undefined;
      });
  }, [visible, unread, token, other, client]);

  const lastId = list.at(-1)?.id;
  useEffect(() => {
    const log = logRef.current;
    if (log && lastId) log.scrollTop = log.scrollHeight;
  }, [lastId]);

  const send = useMutation({
    mutationFn: (body: string) => messages.send(token, other, body, newUuid()),
    onSuccess: async () => {
      setText('');
      await client.invalidateQueries({ queryKey: keys.messages });
    },
  });
  const submit = () => {
    const body = text.trim();
    if (body && !send.isPending) send.mutate(body);
  };
  const title = fill(t.messagesWith, { name });
  return (
    <section className="card stack narrow" aria-labelledby="dm-title">
      <a href={href({ name: 'messages' })}>← {t.allConversations}</a>
      <div className="row">
        <Avatar avatarId={profile.data?.avatarId} color={profile.data?.color} seed={other} size={40} decorative />
        <h1 id="dm-title">
          <a href={href({ name: 'profile', userUuid: other })}>{title}</a>
        </h1>
      </div>
      <ErrorNote error={history.error} />
      {history.data && list.length === 0 && <p className="muted">{t.noMessagesYet}</p>}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the history scrolls, so keyboards must reach it */}
      <ol className="dm-log" role="log" aria-label={title} ref={logRef} tabIndex={0}>
        {list.map((m) => {
          const mine = senderOf(m) === s.userUuid;
          return (
            <li key={m.id} className={mine ? 'mine' : undefined}>
              <p className="text">{m.data?.text ?? ''}</p>
              <span className="meta">
                {formatDate(m.sentAt * 1000, 'time', locale)}
                {mine && m.readAt !== undefined && ` · ${t.seen}`}
              </span>
            </li>
          );
        })}
      </ol>
      <form
        className="dm-composer"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label className="sr-only" htmlFor="dm-text">
          {fill(t.writeTo, { name })}
        </label>
        <textarea
          id="dm-text"
          rows={2}
          maxLength={2000}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              submit();
            }
          }}
        />
        <button type="submit" className="primary" disabled={send.isPending || !text.trim()}>
          {t.send}
        </button>
      </form>
      <ErrorNote error={send.error} />
    </section>
  );
}
