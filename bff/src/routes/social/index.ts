import { AppError } from '@spinroom/platform/core';
import type { RouteDeps } from '../../http/route.js';
import { blockedUserRoutes } from './blocked-users.js';
import type { SocialClients } from './clients.js';
import { contactRoutes } from './contacts.js';
import { deviceRoutes } from './devices.js';
import { djFanRoutes } from './dj-fans.js';
import { friendRoutes } from './friends.js';

export { closeSocialClients, createSocialClients, type SocialClients } from './clients.js';

/** Every client refuses with 503 when the BFF runs without the social service. */
function unavailable(): SocialClients {
  const refuse = new Proxy({}, { get: () => () => Promise.reject(new AppError(503, 'The social service is not available')) });
  return new Proxy({}, { get: () => refuse }) as SocialClients;
}

/** /api/social-service: every area of the social service, one line each (the paths are documented either way). */
export function socialServiceRoutes(deps: RouteDeps, social: SocialClients | undefined): void {
  const clients = social ?? unavailable();
  blockedUserRoutes(deps, clients.social);
  deviceRoutes(deps, clients.social);
  djFanRoutes(deps, clients.social);
  friendRoutes(deps, clients.social);
  contactRoutes(deps, clients.social);
}
