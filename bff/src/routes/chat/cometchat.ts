import { extendZodWithOpenApi, type OpenAPIRegistry, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { AppError, createLogger, nameHttpRoute } from '@spinroom/platform/core';
import type { ErrorRequestHandler, Request, RequestHandler, Router } from 'express';
import { z } from 'zod';
import { setRetryAfter, toAppError } from '../../http/errors.js';
import { parseInput, requireJsonBody } from '../../http/validation.js';

extendZodWithOpenApi(z);

/**
 * The original's CometChat v3 REST conventions: headers `appid` and
 * `authtoken` (a chat token), optional `onBehalfOf`; answers `{data}`;
 * failures `{error: {code, message}}` with CometChat's codes.
 */

export interface ChatRouteDeps {
  router: Router;
  registry: OpenAPIRegistry;
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

export interface ChatCall<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  /** The chat token, passed on to the chat service. */
  token: string;
  onBehalfOf: string;
}

/** Declares one chat path under both prefixes, documented in /api/openapi.json. */
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
  const responses: Record<string, ResponseConfig> = { 200: { description: 'Success', content: { 'application/json': { schema: spec.response } } } };
  for (const code of [400, 401, 403, 404, 415, 417]) {
    responses[code] = { description: `Error ${code}`, content: { 'application/json': { schema: CometChatErrorSchema } } };
  }
  for (const prefix of CHAT_PREFIXES) {
    deps.registry.registerPath({
      method: spec.method,
      path: `${prefix}${spec.path}`,
      summary: spec.summary,
      tags: ['chat'],
      request: {
        headers: ChatHeadersSchema,
        ...(spec.body ? { body: { content: { 'application/json': { schema: spec.body } }, required: true } } : {}),
        ...(spec.query ? { query: spec.query as unknown as z.ZodObject } : {}),
        ...(spec.params ? { params: spec.params as unknown as z.ZodObject } : {}),
      },
      responses,
    });
    const expressPath = `${prefix}${spec.path.replace(/\{(\w+)\}/g, ':$1')}`;
    deps.router[spec.method](expressPath, async (req, res) => {
      nameHttpRoute(expressPath);
      const token = chatToken(req, deps.appId);
      if (spec.body) requireJsonBody(req);
      const result = await spec.handler({
        body: parseInput(spec.body, req.body ?? {}),
        query: parseInput(spec.query, req.query),
        params: parseInput(spec.params, req.params),
        token,
        onBehalfOf: String(req.headers.onbehalfof ?? ''),
      } as ChatCall<z.infer<B>, z.infer<Q>, z.infer<P>>);
      res.status(200).json(result);
    });
  }
}

function chatToken(req: Request, appId: string): string {
  const appid = req.headers.appid;
  if (!appid) throw new AppError(401, 'AUTH_ERR_EMPTY_APPID: The appid header is missing');
  if (appid !== appId) throw new AppError(401, `AUTH_ERR_APPID_NOT_FOUND: The app ${String(appid)} does not exist`);
  const token = req.headers.authtoken;
  if (typeof token !== 'string' || token.length === 0) throw new AppError(401, 'AUTH_ERR_EMPTY_AUTH_TOKEN: The authtoken header is missing');
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

/** `{error: {code, message}}` for an error: the chat service's "<CODE>: <message>", else a code by status. */
export function cometChatErrorBody(error: AppError) {
  if (Array.isArray(error.messages)) {
    return { error: { code: DEFAULT_CODES[error.status] ?? 'ERR_BAD_REQUEST', message: error.messages.join('; '), details: error.messages } };
  }
  const coded = /^([A-Z][A-Z0-9_]+): ([\s\S]*)$/.exec(error.messages);
  if (coded) return { error: { code: coded[1]!, message: coded[2]! } };
  const code = error.status === 401 ? 'AUTH_ERR_AUTH_TOKEN_NOT_FOUND' : (DEFAULT_CODES[error.status] ?? (error.status >= 500 ? 'ERR_INTERNAL' : 'ERR_BAD_REQUEST'));
  const message = error.status === 401 ? 'The auth token is not a valid chat token' : error.messages;
  return { error: { code, message } };
}

/** Unknown /chat paths: 404 in CometChat's error shape. */
export const chatNotFoundHandler: RequestHandler = (req, _res, next) => {
  next(new AppError(404, `ERR_NOT_FOUND: Cannot ${req.method} ${req.originalUrl.split('?')[0]}`));
};

/** Every /chat failure (malformed JSON and oversized bodies too) leaves in CometChat's shape. */
const logger = createLogger('bff');

export const chatErrorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const appError = toAppError(error);
  if (appError.status >= 500 && !(error instanceof AppError)) logger.error({ err: error, method: req.method, path: req.path }, 'chat request failed');
  setRetryAfter(res, appError);
  res.status(appError.status).json(cometChatErrorBody(appError));
};
