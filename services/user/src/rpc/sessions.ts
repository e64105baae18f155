import type { SessionsServiceServer } from '@spinroom/contracts/user/v1/sessions';
import type { createUnaryFactory } from '@spinroom/platform';
import type { Sessions } from '../domain/sessions.js';
import type { Bots } from '../domain/sessions/bots.js';

/** spinroom.user.v1.SessionsService: logout and bots (see proto/spinroom/user/v1/sessions.proto). */
export function sessionsHandlers(deps: {
  sessions: Sessions;
  bots: Bots;
  unary: ReturnType<typeof createUnaryFactory>;
}): SessionsServiceServer {
  const { sessions, bots, unary } = deps;
  return {
    logout: unary(async (_request, context) => {
      await sessions.logOut(context.caller);
      return {};
    }),
    signUpBot: unary(async (request, context) => {
      const bot = await bots.signUp(context.caller, {
        botNickName: request.botNickName,
        avatarId: request.avatarId,
        color: request.color,
      });
      return { botId: bot.id, botUuid: bot.uuid };
    }),
    getBotToken: unary(async (_request, context) => bots.token(context.caller)),
  };
}
