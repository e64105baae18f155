// The menu's "Messages" link, with how many conversations have unread messages.
import { useQuery } from '@tanstack/react-query';
import { keys } from '../api/keys';
import { messages } from '../api/messages';
import { href } from '../app/router';
import { plural, useLocale, useT } from '../i18n/i18n';
import { useSession } from '../session/session';
import { useChatToken } from './useChatToken';
import '../social/social.css';

/** How often the menu asks (a conversation's own screen asks every 2 s). */
const UNREAD_POLL_MS = 15_000;

export function MessagesNavLink({ current }: { current: boolean }) {
  const t = useT();
  const locale = useLocale();
  const s = useSession();
  const token = useChatToken();
  const unread = useQuery({
    queryKey: keys.unreadConversations,
    queryFn: () => messages.unread(token.data!, s.userUuid!),
    enabled: !!token.data && !!s.userUuid,
    refetchInterval: UNREAD_POLL_MS,
  });
  const count = (unread.data?.data ?? []).reduce((sum, c) => sum + c.unreadMessageCount, 0);
  return (
    <a href={href({ name: 'messages' })} aria-current={current ? 'page' : undefined}>
      {t.messages}
      {count > 0 && (
        <span className="unread-badge">
          <span aria-hidden="true">{count}</span>
          <span className="sr-only">{plural(count, t.unreadCount, locale)}</span>
        </span>
      )}
    </a>
  );
}
