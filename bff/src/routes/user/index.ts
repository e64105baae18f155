import type { BffLimits } from '../../http/limits.js';
import type { RouteDeps } from '../../http/route.js';
import { authRoutes } from './auth.js';
import type { UserClients } from './clients.js';
import { cometChatRoutes } from './comet-chat.js';
import { mobileRoutes } from './mobile.js';
import { mailRoutes } from './mail.js';
import { passkeysRoutes } from './passkeys.js';
import { moderationRoutes } from './moderation.js';
import { profileRoutes } from './profile.js';
import { profilesRoutes } from './profiles.js';
import { sessionsRoutes } from './sessions.js';
import { providersRoutes } from './providers.js';
import { usersRoutes } from './users.js';

export type { UserClients } from './clients.js';
export { closeUserClients, createUserClients } from './clients.js';

/** /api/user-service: every area of the user service, one line each. */
export function userServiceRoutes(deps: RouteDeps, user: UserClients, limits: BffLimits): void {
  authRoutes(deps, user.accounts, limits);
  usersRoutes(deps, user.accounts, limits);
  profileRoutes(deps, user.accounts);
  cometChatRoutes(deps, user.accounts);
  profilesRoutes(deps, user.profiles);
  mobileRoutes(deps, user.mobile, limits);
  moderationRoutes(deps, user.moderation, limits);
  sessionsRoutes(deps, user.sessions);
  providersRoutes(deps, user.providers, limits);
  mailRoutes(deps, user.mail, limits);
  passkeysRoutes(deps, user.passkeys, limits);
}
