import { AppError } from '@spinroom/platform/core';
import { z } from 'zod';
import type { ChatClient } from './clients.js';
import { chatRoute, type ChatRouteDeps } from './cometchat.js';

/**
 * /chat: the original's CometChat v3 REST API (ORIGINAL-API.md, "Chat"), for
 * room chat groups. Each path answers under /chat/v3 and /chat/v3.0.
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

/** The refusal on the direct-message paths (sending one, receiverType "user", is the chat service's own 400 with this code). */
const DIRECT_MESSAGES_NOT_SUPPORTED = 'Direct messages are not available yet: only room groups have messages';

/** The direct-message paths of CometChat v3 (ORIGINAL-API.md, Chat), not built yet. */
const DIRECT_MESSAGE_PATHS = [
  ['get', '/users/{uid}/messages', "A user's direct messages with the caller"],
  ['get', '/users/{uid}/conversations', "A user's conversations"],
  ['get', '/users/{uid}/conversation', 'The conversation between the caller and a user'],
  ['post', '/users/{uid}/conversation/read', 'Marks a direct conversation read'],
] as const;

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
    summary: 'Send a message to a room\'s group (receiverType "group")',
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

  // Direct messages are not built yet: a valid chat token gets CometChat's 400.
  for (const [method, path, what] of DIRECT_MESSAGE_PATHS) {
    chatRoute(deps, {
      method,
      path,
      summary: `${what}: not available yet, 400 ERR_DIRECT_MESSAGES_NOT_SUPPORTED`,
      params: z.object({ uid: z.string().min(1).max(64) }),
      response: z.object({ data: z.array(Json) }),
      handler: async ({ token, onBehalfOf }) => {
        // The chat service checks the token (401) and onBehalfOf (403) first, as on every chat path.
        await chat.getMe({ onBehalfOf }, as(token));
        throw new AppError(400, DIRECT_MESSAGES_NOT_SUPPORTED, { code: 'ERR_DIRECT_MESSAGES_NOT_SUPPORTED' });
      },
    });
  }
}
