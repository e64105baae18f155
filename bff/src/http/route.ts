import { extendZodWithOpenApi, type OpenAPIRegistry, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { nameHttpRoute, runWithContext, type Caller, type TokenVerifier } from '@spinroom/platform/core';
import type { Request, Router } from 'express';
import { z } from 'zod';
import { parseInput, requireJsonBody } from './validation.js';

extendZodWithOpenApi(z);

export interface RouteDeps {
  router: Router;
  registry: OpenAPIRegistry;
  /** The token verifier; throws 503 until the user service's public key is known. */
  verifier: () => TokenVerifier;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * A path authenticated by headers of its own instead of a bearer token (the
 * CometChat paths' `appid` and `authtoken`): `headers` documents them,
 * `verify` reads them (a 401 when they are wrong) into what the handler needs.
 */
export interface HeaderAuth<C> {
  headers: z.ZodObject;
  verify(req: Request): C;
}

/**
 * `caller`: a valid bearer token is required. `public`: anyone, and no caller is
 * read. `optional`: anyone, as the caller when a token is sent (a bad one is
 * still a 401), for what visitors may see and callers may see more of.
 */
type Auth = 'public' | 'caller' | 'optional' | HeaderAuth<unknown>;

/** What the handler knows of who calls: the verified caller, or the credentials of a HeaderAuth. */
type Credentials<A extends Auth> =
  A extends HeaderAuth<infer C>
    ? { caller: undefined; credentials: C }
    : { caller: A extends 'public' ? undefined : A extends 'optional' ? Caller | undefined : Caller; credentials: undefined };

interface RouteSpec<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType, R extends z.ZodType, A extends Auth> {
  method: Method;
  /** OpenAPI-style path, e.g. `/api/user-service/profile/{id}`. */
  path: string;
  summary: string;
  tags: string[];
  /** Kept for old clients; the document marks it deprecated (say what replaces it in the summary). */
  deprecated?: boolean;
  /** Paths need a valid bearer token unless they say `public` (or authenticate by their own headers). */
  auth?: A;
  body?: B;
  query?: Q;
  params?: P;
  status?: number;
  response: R;
  /** Statuses (besides 400/401/500) the path may answer, for the document. */
  errors?: number[];
  /**
   * A path family with an error shape of its own (their router's error
   * handler writes it): the document lists exactly these statuses with this schema.
   */
  errorShape?: { schema: z.ZodType; statuses: number[] };
  /**
   * A body the handler reads from `req` itself (multipart/form-data, a raw
   * signed body), documented under its content type instead of a JSON `body`.
   */
  rawBody?: { contentType: string; schema: z.ZodType };
  /** The success answer's content type when it is not JSON: the handler returns a RawReply. */
  produces?: string;
  handler: (
    input: { body: z.infer<B>; query: z.infer<Q>; params: z.infer<P>; req: Request } & Credentials<A>,
  ) => Promise<z.input<R> | RawReply>;
}

/** A non-JSON answer (a playlist, a key, a media segment), sent as is with its headers. */
export class RawReply {
  constructor(
    readonly body: Buffer,
    readonly headers: Record<string, string>,
  ) {}
}

export const ErrorBodySchema = z
  .object({
    statusCode: z.number().int(),
    message: z.union([z.string(), z.array(z.string())]),
    error: z.string(),
    code: z.string().optional().openapi({
      description:
        'A stable name for this refusal (e.g. ROOM_PASSWORD_REQUIRED), where it has one: clients decide by it, not by the message',
    }),
  })
  .openapi('Error');

/**
 * Declares one REST path: the same zod schemas validate the request and
 * describe it in /api/openapi.json. The handler runs with the caller in the
 * request context, so gRPC calls it makes carry the caller's token.
 */
export function route<
  B extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = z.ZodUndefined,
  P extends z.ZodType = z.ZodUndefined,
  R extends z.ZodType = z.ZodType,
  A extends Auth = 'caller',
>(deps: RouteDeps, spec: RouteSpec<B, Q, P, R, A>): void {
  const status = spec.status ?? 200;
  const auth: Auth = spec.auth ?? 'caller';
  const headerAuth = typeof auth === 'object' ? auth : undefined;
  const errorStatuses = spec.errorShape?.statuses ?? [
    400,
    ...(auth === 'caller' || auth === 'optional' ? [401] : []),
    // Any body can be over the JSON body limit (413) or of another type (415).
    ...(spec.body ? [413, 415] : []),
    ...(spec.errors ?? []),
    500,
  ];
  const responses: Record<string, ResponseConfig> = {
    [status]: { description: 'Success', content: { [spec.produces ?? 'application/json']: { schema: spec.response } } },
  };
  for (const code of errorStatuses) {
    responses[code] = {
      description: `Error ${code}`,
      content: { 'application/json': { schema: spec.errorShape?.schema ?? ErrorBodySchema } },
    };
  }
  deps.registry.registerPath({
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    tags: spec.tags,
    ...(spec.deprecated ? { deprecated: true } : {}),
    ...(headerAuth ? {} : { security: auth === 'caller' ? [{ bearerAuth: [] }] : auth === 'optional' ? [{}, { bearerAuth: [] }] : [] }),
    request: {
      ...(headerAuth ? { headers: headerAuth.headers } : {}),
      ...(spec.body ? { body: { content: { 'application/json': { schema: spec.body } }, required: true } } : {}),
      ...(spec.rawBody ? { body: { content: { [spec.rawBody.contentType]: { schema: spec.rawBody.schema } }, required: true } } : {}),
      ...(spec.query ? { query: spec.query as unknown as z.ZodObject } : {}),
      ...(spec.params ? { params: spec.params as unknown as z.ZodObject } : {}),
    },
    responses,
  });

  const expressPath = spec.path.replace(/\{(\w+)\}/g, ':$1');
  deps.router[spec.method](expressPath, async (req, res) => {
    nameHttpRoute(expressPath);
    const caller =
      auth === 'caller' || (auth === 'optional' && req.headers.authorization !== undefined)
        ? await deps.verifier().verifyHeader(req.headers.authorization)
        : undefined;
    const credentials = headerAuth?.verify(req);
    if (spec.body) requireJsonBody(req);
    const input = {
      body: parseInput(spec.body, req.body ?? {}),
      query: parseInput(spec.query, req.query),
      params: parseInput(spec.params, req.params),
      caller,
      credentials,
      req,
    };
    const result = await runWithContext({ caller }, () => spec.handler(input as unknown as Parameters<typeof spec.handler>[0]));
    if (result instanceof RawReply) res.status(status).set(result.headers).send(result.body);
    else res.status(status).json(result);
  });
}
