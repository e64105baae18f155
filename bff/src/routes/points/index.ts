import { AppError } from '@spinroom/platform/core';
import type { RouteDeps } from '../../http/route.js';
import type { PointsClients } from './clients.js';
import { avatarRoutes } from './avatars.js';
import { consumableRoutes } from './consumables.js';
import { rankingRoutes } from './rankings.js';
import { seasonRoutes } from './seasons.js';
import { shopFileRoutes } from './shop-files.js';
import { tokenAccountRoutes } from './token-accounts.js';
import { tokenBundleRoutes } from './token-bundles.js';
import { tokenTransactionRoutes } from './token-transactions.js';

export { closePointsClients, createPointsClients, type PointsClients } from './clients.js';

/** Every client refuses with 503 when the BFF runs without the points service. */
function unavailable(): PointsClients {
  const refuse = new Proxy({}, { get: () => () => Promise.reject(new AppError(503, 'Tokens are not available')) });
  return new Proxy({}, { get: () => refuse }) as PointsClients;
}

/** /api/merch-service: every area of the points service, one line each (the paths are documented either way). */
export function pointsServiceRoutes(deps: RouteDeps, points: PointsClients | undefined): void {
  const clients = points ?? unavailable();
  tokenAccountRoutes(deps, clients.tokens);
  tokenTransactionRoutes(deps, clients.tokens);
  consumableRoutes(deps, clients.consumables);
  tokenBundleRoutes(deps, clients.bundles);
  shopFileRoutes(deps, clients.files);
  seasonRoutes(deps, clients.seasons);
  rankingRoutes(deps, clients.rankings);
  avatarRoutes(deps, clients.avatars);
}
