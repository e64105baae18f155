import { forbidden, isAdminRole, type Caller, type TokenIssuer } from '@spinroom/platform';
import type { Accounts } from '../accounts.js';
import { issueChatToken } from '../service-tokens.js';
import { tokenRole } from '../user.js';

export const CREATE_CHAT_USERS_REFUSED = 'Only admins and services may create chat users';

/**
 * A chat token for the caller's "ghost": same subject, role `guest`, no
 * capabilities, so it reads a room's chat with a guest's rights and no more
 * (no acting on behalf of others, whatever the caller's own role).
 */
export function issueGhostChatToken(tokens: TokenIssuer, caller: Caller): Promise<{ chatToken: string; expiresInSeconds: number }> {
  if (caller.role === 'service') throw forbidden('Services have no chat identity');
  return issueChatToken(tokens, { ...caller, role: 'guest', capabilities: [] });
}

/** A chat user as CometChat's user object names it, the identity the chat service gives the account's messages. */
export interface ChatUser {
  uid: string;
  name: string;
  avatar: string;
  role: string;
}

/**
 * CometChat's bulk user creation. Spinroom's chat users are its accounts (the
 * chat reads identities from this service), so creating them is checking that
 * each account exists and answering its chat identity; unknown uuids are listed.
 */
export async function createChatUsers(
  caller: Caller,
  accounts: Accounts,
  userUuids: string[],
): Promise<{ users: ChatUser[]; unknownUuids: string[] }> {
  if (caller.role !== 'service' && !isAdminRole(caller.role)) throw forbidden(CREATE_CHAT_USERS_REFUSED);
  const users = await accounts.profiles(userUuids);
  const found = new Set(users.map((u) => u.uuid));
  return {
    users: users.map((u) => ({ uid: u.uuid, name: u.nickname, avatar: u.avatarId, role: tokenRole(u) })),
    unknownUuids: [...new Set(userUuids)].filter((uuid) => !found.has(uuid)),
  };
}
