import type { ChatServiceServer } from '@spinroom/contracts/chat/v1/chat_service';
import type { CallContext, createUnaryFactory, Logger } from '@spinroom/platform';
import { resolveActor, type Actor, type Chat } from '../domain/chat.js';
import type { DirectChat } from '../domain/direct-chat.js';
import type { MessageQuery, PresencePort } from '../domain/ports.js';

/** Plain JSON for a google.protobuf.Struct field (drops undefined). */
const json = <T>(value: T) => JSON.parse(JSON.stringify(value)) as { [key: string]: unknown };

/** gRPC handlers of spinroom.chat.v1.ChatService: resolve who acts, delegate to the domain. */
export function chatServiceHandlers(deps: {
  chat: Chat;
  direct: DirectChat;
  presence: PresencePort;
  logger: Logger;
  unary: ReturnType<typeof createUnaryFactory>;
}): ChatServiceServer {
  const { chat, direct, presence, logger, unary } = deps;
  const actor = (context: CallContext, onBehalfOf: string): Actor => {
    const caller = context.caller;
    const resolved = resolveActor({ uid: caller.userUuid, role: caller.role }, onBehalfOf || undefined);
    // A chat call shows its caller online (an admin acting for another shows no one).
    if (resolved.uid === caller.userUuid) {
      presence.seen(caller.userUuid).catch((error: unknown) => logger.warn({ err: error }, 'chat presence not written'));
    }
    return resolved;
  };
  const page = (request: {
    perPage: number;
    id?: string;
    affix: string;
    fromTimestamp?: number;
    toTimestamp?: number;
    sentAt?: number;
    updatedAt?: number;
  }): MessageQuery => ({
    limit: request.perPage || 100,
    id: request.id,
    affix: request.affix === 'append' ? 'append' : 'prepend',
    fromTimestamp: request.fromTimestamp,
    toTimestamp: request.toTimestamp,
    sentAt: request.sentAt,
    updatedAt: request.updatedAt,
  });
  return {
    getMe: unary(async (request, context) => ({ user: json(await chat.me(actor(context, request.onBehalfOf))) })),
    joinGroup: unary(async (request, context) => ({ group: json(await chat.join(actor(context, request.onBehalfOf), request.groupId)) })),
    leaveGroup: unary(async (request, context) => ({
      result: json(await chat.leave(actor(context, request.onBehalfOf), request.groupId, request.uid)),
    })),
    listGroupMessages: unary(async (request, context) => {
      const messages = await chat.list(actor(context, request.onBehalfOf), request.groupId, page(request));
      return { messages: messages.map(json) };
    }),
    sendMessage: unary(async (request, context) => {
      const input = {
        type: request.type,
        receiverType: request.receiverType,
        category: request.category,
        receiver: request.receiver,
        text: request.text,
        attachments: request.attachments,
        chatMessage: request.chatMessage ?? {},
      };
      const who = actor(context, request.onBehalfOf);
      return { message: json(request.receiverType === 'user' ? await direct.send(who, input) : await chat.send(who, input)) };
    }),
    editMessage: unary(async (request, context) => ({
      message: json(await chat.edit(actor(context, request.onBehalfOf), request.id, request.text, request.mentions)),
    })),
    listReactions: unary(async (request, context) => ({
      reactions: (await chat.reactions(actor(context, request.onBehalfOf), request.id)).map(json),
    })),
    setReaction: unary(async (request, context) => ({
      message: json(await chat.react(actor(context, request.onBehalfOf), request.id, request.reaction, request.on)),
    })),
    listDirectMessages: unary(async (request, context) => {
      const messages = await direct.list(
        actor(context, request.onBehalfOf),
        {
          uid: request.uid || undefined,
          withUser: request.withUser || undefined,
          sender: request.sender || undefined,
          unread: request.unread,
        },
        page(request),
      );
      return { messages: messages.map(json) };
    }),
    listConversations: unary(async (request, context) => {
      const { conversations, total } = await direct.conversations(actor(context, request.onBehalfOf), request.uid, {
        perPage: request.perPage,
        page: request.page,
        unread: request.unread,
        group: request.conversationGroup === 'friends' || request.conversationGroup === 'others' ? request.conversationGroup : undefined,
      });
      return { conversations: conversations.map(json), total };
    }),
    getConversation: unary(async (request, context) => ({
      conversation: json(await direct.conversation(actor(context, request.onBehalfOf), request.uid)),
    })),
    markConversationRead: unary(async (request, context) => ({
      result: json(await direct.markRead(actor(context, request.onBehalfOf), request.uid, request.messageId || undefined)),
    })),
  };
}
