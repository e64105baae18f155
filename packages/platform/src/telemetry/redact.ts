import type { IncomingMessage, RequestOptions } from 'node:http';
import { context, type Attributes, type Span } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';
import { ATTR_URL_FULL, ATTR_URL_PATH, ATTR_URL_QUERY } from '@opentelemetry/semantic-conventions';

/**
 * What the HTTP and Redis instrumentations would record verbatim, made safe
 * for a trace backend: paths and keys carry phone numbers, emails and
 * one-time values (`GET /phone-validation/validate/+1202...`, Twilio Lookup's
 * `/v2/PhoneNumbers/+1202...`, `?email=` of a magic-link request, limit keys
 * per number). Spans keep their shape (route, host, key prefix), never the values.
 */
export const REDACTED = 'REDACTED';

/** Every run of three digits or more as `*` (numbers, codes, ids; `v2` and percent escapes stay readable). */
export function redactDigits(path: string): string {
  return path.replace(/%[0-9A-Fa-f]{2}|\d{3,}/g, (match) => (match.startsWith('%') ? match : '*'));
}

/** A query string's parameter names, each value REDACTED (`email=REDACTED&take=REDACTED`). */
export function redactQuery(query: string): string {
  const names = [...new URLSearchParams(query).keys()];
  return names.map((name) => `${encodeURIComponent(name)}=${REDACTED}`).join('&');
}

/**
 * Server spans: the path with its digits redacted and the query's values
 * dropped when the span starts; once a route has named the request
 * (nameHttpRoute), the route's template (`/validate/:phone`) instead of the path.
 */
export function incomingRequestAttributes(request: IncomingMessage): Attributes {
  const url = request.url ?? '/';
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  return {
    [ATTR_URL_PATH]: redactDigits(path),
    ...(at < 0 || at === url.length - 1 ? {} : { [ATTR_URL_QUERY]: redactQuery(url.slice(at + 1)) }),
  };
}

/** Outgoing calls (providers: Twilio, Spotify, Discord...): scheme, host and port as given, the path's digits and every query value redacted. */
export function outgoingRequestAttributes(options: RequestOptions): Attributes {
  const protocol = options.protocol ?? 'http:';
  const host = options.hostname ?? options.host ?? 'localhost';
  const port = options.port ? `:${options.port}` : '';
  const url = options.path ?? '/';
  const at = url.indexOf('?');
  const path = redactDigits(at < 0 ? url : url.slice(0, at));
  const query = at < 0 ? '' : redactQuery(url.slice(at + 1));
  return { [ATTR_URL_FULL]: `${protocol}//${host}${port}${path}${query ? `?${query}` : ''}` };
}

/** At the end of a server span: the route's template as its path, when a route named it. */
export function pathAsRoute(span: Span, request: unknown): void {
  if (!isIncoming(request)) return;
  const metadata = getRPCMetadata(context.active());
  if (metadata?.type === RPCType.HTTP && metadata.route !== undefined) span.setAttribute(ATTR_URL_PATH, metadata.route);
}

function isIncoming(request: unknown): request is IncomingMessage {
  return typeof request === 'object' && request !== null && 'socket' in request && 'httpVersion' in request && !('path' in request);
}

/**
 * Redis statements: the command and its key's leading words (`INCR limit:phone-codes:*`),
 * never the rest of the key (a number, an email, a uuid) nor any other argument (values, scripts).
 */
export function redisStatement(command: string, args: ReadonlyArray<unknown>): string {
  const first = args[0];
  if (/^(EVAL|EVALSHA|FCALL|SCRIPT)/i.test(command) || typeof first !== 'string') return command;
  const words: string[] = [];
  for (const segment of first.split(':')) {
    if (!/^[A-Za-z][A-Za-z-]*$/.test(segment)) {
      words.push('*');
      break;
    }
    words.push(segment);
  }
  return `${command} ${words.join(':')}`;
}
