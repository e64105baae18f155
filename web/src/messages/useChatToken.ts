import { useQuery } from '@tanstack/react-query';
import { chatToken } from '../api/chat';
import { keys } from '../api/keys';
import { useSession } from '../session/session';

/** The chat API's token (the same the room's chat uses), for signed-in people only. */
export function useChatToken() {
  const s = useSession();
  return useQuery({ queryKey: keys.chatToken, queryFn: chatToken, enabled: s.isLoggedIn, staleTime: 24 * 3600_000 });
}
