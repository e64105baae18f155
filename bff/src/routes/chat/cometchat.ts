import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { AppError, createLogger } from '@spinroom/platform/core';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { z } from 'zod';
import { setRetryAfter, toAppError } from '../../http/errors.js';
import { route, type HeaderAuth, type RouteDeps } from '../../http/route.js';

extendZodWithOpenApi(z);

/**
 * The original's CometChat v3 REST conventions: headers `appid` and
 * `authtoken` (a chat token), optional `onBehalfOf`; answers `{data}`;
 * failures `{error: {code, message}}` with CometChat's codes.
 */

export interface ChatRouteDeps extends RouteDeps {
  /** Requests must carry this `appid`. */
  appId: string;
}

/** Both spellings the original's clients use. */
export const CHAT_PREFIXES = ['/chat/v3', '/chat/v3.0'] as const;

export const CometChatErrorSchema = z
  .object({ error: z.object({ code: z.string(), message: z.string(), details: z.array(z.string()).optional() }) })
  .openapi('CometChatError');

const ChatHeadersSchema = z.object({
  appid: z.string().openapi({ description: 'The chat app id (config CHAT_APP_ID)' }),
  authtoken: z.string().openapi({ description: 'The chat token from GET /api/user-service/comet-chat/user-token' }),
  onbehalfof: z.string().optional().openapi({ description: 'A user uuid to act for (admins and global moderators only)' }),
});

type Method = 'get' | 'post' | 'put' | 'delete';

/** Who a chat request acts as: checked by the chat service, which the token is passed on to. */
interface ChatCredentials {
  /** The chat token, passed on to the chat service. */
  token: string;
  onBehalfOf: string;
}

export interface ChatCall<B, Q, P> extends ChatCredentials {
  body: B;
  query: Q;
  params: P;
}

/** The statuses a chat path may answer, in CometChat's error shape. */
const CHAT_ERRORS = { schema: CometChatErrorSchema, statuses: [400, 401, 403, 404, 415, 417] };

/** Declares one chat path under both prefixes with route(): the chat headers instead of a bearer token, CometChat's error shape. */
export function chatRoute<B extends z.ZodType = z.ZodUndefined, Q extends z.ZodType = z.ZodUndefined, P extends z.ZodType = z.ZodUndefined>(
  deps: ChatRouteDeps,
  spec: {
    method: Method;
    /** Below the prefix, e.g. `/groups/{guid}/messages`. */
    path: string;
    summary: string;
    body?: B;
    query?: Q;
    params?: P;
    response: z.ZodType;
    handler: (call: ChatCall<z.infer<B>, z.infer<Q>, z.infer<P>>) => Promise<unknown>;
  },
): void {
  const auth: HeaderAuth<ChatCredentials> = {
    headers: ChatHeadersSchema,
    verify: (req) => ({ token: chatToken(req, deps.appId), onBehalfOf: String(req.headers.onbehalfof ?? '') }),
  };
  for (const prefix of CHAT_PREFIXES) {
    route(deps, {
      method: spec.method,
      path: `${prefix}${spec.path}`,
      summary: spec.summary,
      tags: ['chat'],
      auth,
      errorShape: CHAT_ERRORS,
      body: spec.body,
      query: spec.query,
      params: spec.params,
      response: spec.response,
      handler: ({ body, query, params, credentials }) => spec.handler({ body, query, params, ...credentials }),
    });
  }
}

function chatToken(req: Request, appId: string): string {
  const appid = req.headers.appid;
  if (!appid) throw new AppError(401, 'The appid header is missing', { code: 'AUTH_ERR_EMPTY_APPID' });
  if (appid !== appId) throw new AppError(401, `The app ${String(appid)} does not exist`, { code: 'AUTH_ERR_APPID_NOT_FOUND' });
  const token = req.headers.authtoken;
  if (typeof token !== 'string' || token.length === 0)
    throw new AppError(401, 'The authtoken header is missing', { code: 'AUTH_ERR_EMPTY_AUTH_TOKEN' });
  return token;
}

const DEFAULT_CODES: Record<number, string> = {
  400: 'ERR_BAD_REQUEST',
  401: 'AUTH_ERR_AUTH_TOKEN_NOT_FOUND',
  403: 'ERR_PERMISSION_DENIED',
  404: 'ERR_NOT_FOUND',
  413: 'ERR_PAYLOAD_TOO_LARGE',
  415: 'ERR_UNSUPPORTED_MEDIA_TYPE',
  503: 'ERR_SERVICE_UNAVAILABLE',
};

/** `{error: {code, message}}` for an error: the error's own code (the chat service's CometChat codes), else a code by status. */
export function cometChatErrorBody(error: AppError) {
  if (Array.isArray(error.messages)) {
    return {
      error: {
        code: error.code ?? DEFAULT_CODES[error.status] ?? 'ERR_BAD_REQUEST',
        message: error.messages.join('; '),
        details: error.messages,
      },
    };
  }
  if (error.code) return { error: { code: error.code, message: error.messages } };
  const code =
    error.status === 401
      ? 'AUTH_ERR_AUTH_TOKEN_NOT_FOUND'
      : (DEFAULT_CODES[error.status] ?? (error.status >= 500 ? 'ERR_INTERNAL' : 'ERR_BAD_REQUEST'));
  const message = error.status === 401 ? 'The auth token is not a valid chat token' : error.messages;
  return { error: { code, message } };
}

/** Unknown /chat paths: 404 in CometChat's error shape. */
export const chatNotFoundHandler: RequestHandler = (req, _res, next) => {
  next(new AppError(404, `Cannot ${req.method} ${req.originalUrl.split('?')[0]}`, { code: 'ERR_NOT_FOUND' }));
};

/** Every /chat failure (malformed JSON and oversized bodies too) leaves in CometChat's shape. */
const logger = createLogger('bff');

export const chatErrorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const appError = toAppError(error);
  if (appError.status >= 500 && !(error instanceof AppError))
    logger.error({ err: error, method: req.method, path: req.path }, 'chat request failed');
  setRetryAfter(res, appError);
  res.status(appError.status).json(cometChatErrorBody(appError));
};
