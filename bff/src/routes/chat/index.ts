import { AppError } from '@spinroom/platform/core';
import { z } from 'zod';
import type { ChatClient } from './clients.js';
import { chatRoute, type ChatRouteDeps } from './cometchat.js';

/**
 * /chat: the original's CometChat v3 REST API (ORIGINAL-API.md, "Chat"), for
 * room chat groups and direct messages. Each path answers under /chat/v3 and /chat/v3.0.
 */

const Json = z.record(z.string(), z.unknown());
const MessageSchema = Json.openapi('ChatMessage', {
  description:
    'A CometChat message: id (numeric string), sentAt/updatedAt (seconds), sender, receiver, type, data {text, entities, metadata {chatMessage}, reactions}',
});
const Guid = z.object({ guid: z.string().min(1).max(64) });
const MessageId = z.object({ id: z.string().regex(/^\d{1,18}$/, 'must be a message id') });
const Seconds = z.coerce.number().int().min(0).max(1e11);

const AttachmentSchema = z.object({
  url: z.string().max(2048),
  name: z.string().max(255).optional(),
  mimeType: z.string().max(255).optional(),
  extension: z.string().max(32).optional(),
  size: z.number().int().min(0).optional(),
});

const SendMessageSchema = z
  .object({
    type: z.string(),
    receiverType: z.string(),
    category: z.string().default('message'),
    receiver: z.string().min(1).max(64),
    data: z
      .object({
        text: z.string().default(''),
        attachments: z.array(AttachmentSchema).max(10).optional(),
        metadata: z.object({ chatMessage: Json.optional() }).loose().optional(),
      })
      .loose(),
  })
  .loose();

const EditMessageSchema = z
  .object({
    text: z.string().optional(),
    data: z
      .object({
        text: z.string().optional(),
        metadata: z
          .object({
            chatMessage: z
              .object({ mentions: z.array(z.unknown()).optional() })
              .loose()
              .optional(),
          })
          .loose()
          .optional(),
      })
      .loose()
      .optional(),
  })
  .loose();

/** CometChat v3's List Group Messages query (services/chat/README.md, Listing). */
const ListQuerySchema = z.object({
  per_page: z.coerce.number().int().min(1).max(300).optional().openapi({ description: 'Messages per page (default 100, at most 300)' }),
  id: z
    .string()
    .regex(/^\d{1,18}$/, 'must be a message id')
    .optional()
    .openapi({ description: 'A cursor: messages newer (affix=append) or older (affix=prepend) than this message id' }),
  affix: z.enum(['append', 'prepend']).optional().openapi({
    description:
      'append: the oldest page after the cursor or lower bound; prepend (the default): the newest page (before the cursor). Oldest first either way',
  }),
  fromTimestamp: Seconds.optional().openapi({ description: 'Seconds: only messages sent at or after it, whatever the affix' }),
  toTimestamp: Seconds.optional().openapi({ description: 'Seconds: only messages sent at or before it, whatever the affix' }),
  updatedAt: Seconds.optional().openapi({
    description: 'Seconds: messages changed (sent, edited, reacted to) at or after it (append) or at or before it (prepend)',
  }),
  sentAt: Seconds.optional().openapi({ description: 'Seconds: messages sent at or after it (append) or at or before it (prepend)' }),
});

const Uid = z.string().min(1).max(64);
const Flag = z.enum(['true', 'false', '1', '0']);
const isSet = (flag: z.infer<typeof Flag> | undefined) => flag === 'true' || flag === '1';

const DirectMessagesQuerySchema = ListQuerySchema.extend({
  withUser: Uid.optional().openapi({
    description:
      'With the path user, the two users whose conversation is read (the caller is one of them); without it, the caller and the path user',
  }),
  unread: Flag.optional().openapi({ description: 'true: only messages sent to the caller and not read yet' }),
});

/** CometChat v3's List Messages, for the caller's direct messages. */
const ListMessagesQuerySchema = ListQuerySchema.extend({
  receiverType: z
    .enum(['user', 'group'])
    .optional()
    .openapi({ description: "user (the default): direct messages; a room's messages are GET /groups/{guid}/messages" }),
  sender: Uid.optional().openapi({ description: 'Only messages this user sent (the caller or another)' }),
  limit: z.coerce.number().int().min(1).max(300).optional().openapi({ description: 'Messages per page, as per_page' }),
  unread: Flag.optional().openapi({ description: 'true: only messages sent to the caller and not read yet' }),
});

const ConversationsQuerySchema = z.object({
  conversationType: z
    .enum(['user', 'group'])
    .optional()
    .openapi({ description: 'user: direct conversations (rooms keep none, so group answers an empty list)' }),
  perPage: z.coerce.number().int().min(1).max(50).optional().openapi({ description: 'Conversations per page (default 30, at most 50)' }),
  per_page: z.coerce.number().int().min(1).max(50).optional().openapi({ description: 'As perPage' }),
  page: z.coerce.number().int().min(1).max(100000).optional().openapi({ description: 'From 1' }),
  unread: Flag.optional().openapi({ description: 'true: only conversations with unread messages' }),
  conversationGroup: z
    .enum(['friends', 'others'])
    .optional()
    .openapi({ description: "Spec 002's grouping: only conversations with the caller's friends, or only with others" }),
});

const ConversationSchema = Json.openapi('ChatConversation', {
  description:
    'A CometChat conversation: conversationId, conversationType "user", unreadMessageCount, createdAt/updatedAt (seconds), lastMessage, conversationWith {uid, name, avatar, status}, conversationGroup (friends or others)',
});

const MarkReadSchema = z.object({
  messageId: z
    .union([z.string().regex(/^\d{1,18}$/, 'must be a message id'), z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)])
    .optional()
    .openapi({ description: 'Up to and including this message; without it, every message' }),
});

type PageQuery = z.infer<typeof ListQuerySchema>;
const paging = (query: PageQuery, limit: number) => ({
  perPage: limit,
  id: query.id,
  affix: query.affix ?? 'prepend',
  fromTimestamp: query.fromTimestamp,
  toTimestamp: query.toTimestamp,
  sentAt: query.sentAt,
  updatedAt: query.updatedAt,
});

const MessagesPageSchema = z.object({
  data: z.array(MessageSchema),
  meta: z.object({ current: z.object({ limit: z.number(), count: z.number() }) }),
});

export function chatRoutes(deps: ChatRouteDeps, chat: ChatClient): void {
  const as = (token: string) => ({ token });

  chatRoute(deps, {
    method: 'get',
    path: '/me',
    summary: 'The caller as a chat user {uid, name, avatar, ...}',
    response: z.object({ data: Json }),
    handler: async ({ token, onBehalfOf }) => ({ data: (await chat.getMe({ onBehalfOf }, as(token))).user }),
  });

  chatRoute(deps, {
    method: 'post',
    path: '/groups/{guid}/members',
    summary: "Join a room's chat group (417 ERR_ALREADY_JOINED when in already)",
    params: Guid,
    response: z.object({ data: Json }),
    handler: async ({ params, token, onBehalfOf }) => ({
      data: (await chat.joinGroup({ groupId: params.guid, onBehalfOf }, as(token))).group,
    }),
  });

  chatRoute(deps, {
    method: 'delete',
    path: '/groups/{guid}/members/{uid}',
    summary: "Leave a room's chat group (another member: the room's moderators only)",
    params: Guid.extend({ uid: z.string().min(1).max(64) }),
    response: z.object({ data: Json }),
    handler: async ({ params, token, onBehalfOf }) => ({
      data: (await chat.leaveGroup({ groupId: params.guid, uid: params.uid, onBehalfOf }, as(token))).result,
    }),
  });

  chatRoute(deps, {
    method: 'get',
    path: '/groups/{guid}/messages',
    summary:
      'Messages of a room, oldest first: the newest page, or with `id=<n>&affix=append` only newer ones; `fromTimestamp`/`toTimestamp` bound the send time (401 ERR_GROUP_NOT_JOINED when not joined)',
    params: Guid,
    query: ListQuerySchema,
    response: z.object({ data: z.array(MessageSchema), meta: z.object({ current: z.object({ limit: z.number(), count: z.number() }) }) }),
    handler: async ({ params, query, token, onBehalfOf }) => {
      const limit = query.per_page ?? 100;
      const { messages } = await chat.listGroupMessages(
        {
          groupId: params.guid,
          perPage: limit,
          id: query.id,
          affix: query.affix ?? 'prepend',
          fromTimestamp: query.fromTimestamp,
          toTimestamp: query.toTimestamp,
          sentAt: query.sentAt,
          updatedAt: query.updatedAt,
          onBehalfOf,
        },
        as(token),
      );
      return { data: messages, meta: { current: { limit, count: messages.length } } };
    },
  });

  chatRoute(deps, {
    method: 'post',
    path: '/messages',
    summary:
      'Send a message to a room\'s group (receiverType "group") or a direct message to a user (receiverType "user"; 403 ERR_USER_BLOCKED when either blocked the other)',
    body: SendMessageSchema,
    response: z.object({ data: MessageSchema }),
    handler: async ({ body, token, onBehalfOf }) => ({
      data: (
        await chat.sendMessage(
          {
            type: body.type,
            receiverType: body.receiverType,
            category: body.category,
            receiver: body.receiver,
            text: body.data.text,
            attachments: (body.data.attachments ?? []).map((a) => ({
              url: a.url,
              name: a.name ?? '',
              mimeType: a.mimeType ?? '',
              extension: a.extension ?? '',
              size: a.size ?? 0,
            })),
            chatMessage: body.data.metadata?.chatMessage ?? {},
            onBehalfOf,
          },
          as(token),
        )
      ).message,
    }),
  });

  chatRoute(deps, {
    method: 'put',
    path: '/messages/{id}',
    summary: 'Edit your last text message, within 20 s of sending',
    params: MessageId,
    body: EditMessageSchema,
    response: z.object({ data: MessageSchema }),
    handler: async ({ params, body, token, onBehalfOf }) => ({
      data: (
        await chat.editMessage(
          { id: params.id, text: body.data?.text ?? body.text ?? '', mentions: body.data?.metadata?.chatMessage?.mentions, onBehalfOf },
          as(token),
        )
      ).message,
    }),
  });

  chatRoute(deps, {
    method: 'get',
    path: '/messages/{id}/reactions',
    summary: "A message's reactions",
    params: MessageId,
    response: z.object({ data: z.array(Json) }),
    handler: async ({ params, token, onBehalfOf }) => ({
      data: (await chat.listReactions({ id: params.id, onBehalfOf }, as(token))).reactions,
    }),
  });

  for (const [method, on] of [
    ['post', true],
    ['delete', false],
  ] as const) {
    chatRoute(deps, {
      method,
      path: '/messages/{id}/reactions/{reaction}',
      summary: on ? 'React to a message (once per user per emoji)' : 'Take your reaction off a message',
      params: MessageId.extend({ reaction: z.string().min(1).max(64) }),
      response: z.object({ data: MessageSchema }),
      handler: async ({ params, token, onBehalfOf }) => ({
        data: (await chat.setReaction({ id: params.id, reaction: params.reaction, on, onBehalfOf }, as(token))).message,
      }),
    });
  }

  // Direct messages (CometChat v3's receiverType "user").
  chatRoute(deps, {
    method: 'get',
    path: '/users/{uid}/messages',
    summary:
      "Direct messages between the caller and a user (or, with withUser, the two named), oldest first, paged as a room's (404 ERR_UID_NOT_FOUND; 403 ERR_NOT_ALLOWED when the caller is neither)",
    params: z.object({ uid: Uid }),
    query: DirectMessagesQuerySchema,
    response: MessagesPageSchema,
    handler: async ({ params, query, token, onBehalfOf }) => {
      const limit = query.per_page ?? 100;
      const { messages } = await chat.listDirectMessages(
        { uid: params.uid, withUser: query.withUser ?? '', sender: '', unread: isSet(query.unread), ...paging(query, limit), onBehalfOf },
        as(token),
      );
      return { data: messages, meta: { current: { limit, count: messages.length } } };
    },
  });

  chatRoute(deps, {
    method: 'get',
    path: '/messages',
    summary: "The caller's direct messages (receiverType=user), narrowed by sender and unread, oldest first, paged as a room's",
    query: ListMessagesQuerySchema,
    response: MessagesPageSchema,
    handler: async ({ query, token, onBehalfOf }) => {
      if (query.receiverType === 'group') {
        throw new AppError(400, "List Messages answers direct messages (receiverType=user): a room's are GET /groups/{guid}/messages", {
          code: 'ERR_BAD_REQUEST',
        });
      }
      const limit = query.limit ?? query.per_page ?? 100;
      const { messages } = await chat.listDirectMessages(
        { uid: '', withUser: '', sender: query.sender ?? '', unread: isSet(query.unread), ...paging(query, limit), onBehalfOf },
        as(token),
      );
      return { data: messages, meta: { current: { limit, count: messages.length } } };
    },
  });

  chatRoute(deps, {
    method: 'get',
    path: '/users/{uid}/conversations',
    summary:
      "The caller's direct conversations (uid is the caller; 403 ERR_NOT_ALLOWED otherwise), the newest first, each with its last message, unread count and group (friends or others); none with users the caller blocked",
    params: z.object({ uid: Uid }),
    query: ConversationsQuerySchema,
    response: z.object({
      data: z.array(ConversationSchema),
      meta: z.object({
        pagination: z.object({
          total: z.number(),
          count: z.number(),
          per_page: z.number(),
          current_page: z.number(),
          total_pages: z.number(),
        }),
      }),
    }),
    handler: async ({ params, query, token, onBehalfOf }) => {
      const perPage = query.perPage ?? query.per_page ?? 30;
      const page = query.page ?? 1;
      let answer: { conversations: unknown[]; total: number } = { conversations: [], total: 0 };
      if (query.conversationType === 'group') {
        // Rooms keep no conversations (no unread counts): the caller is still checked.
        await chat.getMe({ onBehalfOf }, as(token));
      } else {
        answer = await chat.listConversations(
          { uid: params.uid, perPage, page, unread: isSet(query.unread), conversationGroup: query.conversationGroup ?? '', onBehalfOf },
          as(token),
        );
      }
      const { conversations, total } = answer;
      return {
        data: conversations,
        meta: {
          pagination: {
            total,
            count: conversations.length,
            per_page: perPage,
            current_page: page,
            total_pages: Math.ceil(total / perPage),
          },
        },
      };
    },
  });

  chatRoute(deps, {
    method: 'get',
    path: '/users/{uid}/conversation',
    summary:
      "The caller's conversation with a user (404 ERR_CONVERSATION_NOT_FOUND before the first message, ERR_UID_NOT_FOUND for no such user)",
    params: z.object({ uid: Uid }),
    response: z.object({ data: ConversationSchema }),
    handler: async ({ params, token, onBehalfOf }) => ({
      data: (await chat.getConversation({ uid: params.uid, onBehalfOf }, as(token))).conversation,
    }),
  });

  chatRoute(deps, {
    method: 'post',
    path: '/users/{uid}/conversation/read',
    summary: 'Marks what a user sent the caller read, up to messageId (all without); their unread count drops accordingly',
    params: z.object({ uid: Uid }),
    body: MarkReadSchema,
    response: z.object({ data: z.object({ success: z.boolean(), message: z.string(), count: z.number(), readAt: z.number() }) }),
    handler: async ({ params, body, token, onBehalfOf }) => ({
      data: (
        await chat.markConversationRead(
          { uid: params.uid, messageId: body.messageId === undefined ? '' : String(body.messageId), onBehalfOf },
          as(token),
        )
      ).result as { success: boolean; message: string; count: number; readAt: number },
    }),
  });
}
