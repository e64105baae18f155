import type { SessionsServiceServer } from '@spinroom/contracts/user/v1/sessions';
import type { createUnaryFactory } from '@spinroom/platform';
import type { Sessions } from '../domain/sessions.js';

/** spinroom.user.v1.SessionsService: logout (see proto/spinroom/user/v1/sessions.proto). */
export function sessionsHandlers(deps: { sessions: Sessions; unary: ReturnType<typeof createUnaryFactory> }): SessionsServiceServer {
  const { sessions, unary } = deps;
  return {
    logout: unary(async (_request, context) => {
      await sessions.logOut(context.caller);
      return {};
    }),
  };
}
