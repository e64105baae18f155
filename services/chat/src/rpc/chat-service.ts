import type { ChatServiceServer } from '@spinroom/contracts/chat/v1/chat_service';
import type { CallContext, createUnaryFactory } from '@spinroom/platform';
import { resolveActor, type Actor, type Chat } from '../domain/chat.js';

/** Plain JSON for a google.protobuf.Struct field (drops undefined). */
const json = <T>(value: T) => JSON.parse(JSON.stringify(value)) as { [key: string]: unknown };

/** gRPC handlers of spinroom.chat.v1.ChatService: resolve who acts, delegate to the domain. */
export function chatServiceHandlers(deps: { chat: Chat; unary: ReturnType<typeof createUnaryFactory> }): ChatServiceServer {
  const { chat, unary } = deps;
  const actor = (context: CallContext, onBehalfOf: string): Actor => {
    const caller = context.caller;
    return resolveActor({ uid: caller.userUuid, role: caller.role }, onBehalfOf || undefined);
  };
  return {
    getMe: unary(async (request, context) => ({ user: json(await chat.me(actor(context, request.onBehalfOf))) })),
    joinGroup: unary(async (request, context) => ({ group: json(await chat.join(actor(context, request.onBehalfOf), request.groupId)) })),
    leaveGroup: unary(async (request, context) => ({
      result: json(await chat.leave(actor(context, request.onBehalfOf), request.groupId, request.uid)),
    })),
    listGroupMessages: unary(async (request, context) => {
      const messages = await chat.list(actor(context, request.onBehalfOf), request.groupId, {
        limit: request.perPage || 100,
        id: request.id,
        affix: request.affix === 'append' ? 'append' : 'prepend',
        fromTimestamp: request.fromTimestamp,
        toTimestamp: request.toTimestamp,
        sentAt: request.sentAt,
        updatedAt: request.updatedAt,
      });
      return { messages: messages.map(json) };
    }),
    sendMessage: unary(async (request, context) => ({
      message: json(
        await chat.send(actor(context, request.onBehalfOf), {
          type: request.type,
          receiverType: request.receiverType,
          category: request.category,
          receiver: request.receiver,
          text: request.text,
          attachments: request.attachments,
          chatMessage: request.chatMessage ?? {},
        }),
      ),
    })),
    editMessage: unary(async (request, context) => ({
      message: json(await chat.edit(actor(context, request.onBehalfOf), request.id, request.text, request.mentions)),
    })),
    listReactions: unary(async (request, context) => ({
      reactions: (await chat.reactions(actor(context, request.onBehalfOf), request.id)).map(json),
    })),
    setReaction: unary(async (request, context) => ({
      message: json(await chat.react(actor(context, request.onBehalfOf), request.id, request.reaction, request.on)),
    })),
  };
}
