import { STATUS_CODES } from 'node:http';

/**
 * The one error model: a domain error carries the HTTP status the spec gives,
 * its exact message and, where a client must tell it apart from others, a
 * stable code (`ROOM_KICKED`): clients decide by the code, never by the text.
 * gRPC carries all three across services (see grpc/status.ts) and the BFF
 * renders them as `{statusCode, message, error, code?}`.
 */
export class AppError extends Error {
  /** A stable machine-readable name for this refusal (UPPER_SNAKE_CASE), when it has one. */
  readonly code?: string;
  /** When to try again (a 429's `Retry-After`, in seconds). */
  readonly retryAfterSeconds?: number;

  constructor(
    readonly status: number,
    readonly messages: string | string[],
    options: AppErrorOptions = {},
  ) {
    super(Array.isArray(messages) ? messages.join('; ') : messages);
    this.name = 'AppError';
    if (options.code !== undefined) this.code = options.code;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** The body every REST path answers with on failure: the spec's three fields, and the code where there is one. */
  toBody(): ErrorBody {
    return { statusCode: this.status, message: this.messages, error: statusText(this.status), ...(this.code ? { code: this.code } : {}) };
  }
}

export interface AppErrorOptions {
  code?: string;
  retryAfterSeconds?: number;
}

export interface ErrorBody {
  statusCode: number;
  message: string | string[];
  error: string;
  code?: string;
}

export function statusText(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

export const badRequest = (message: string | string[] = 'Bad Request', code?: string) => new AppError(400, message, { code });
export const unauthorized = (message = 'Unauthorized', code?: string) => new AppError(401, message, { code });
export const forbidden = (message = 'Forbidden', code?: string) => new AppError(403, message, { code });
export const notFound = (message = 'Not Found', code?: string) => new AppError(404, message, { code });
export const conflict = (message = 'Conflict', code?: string) => new AppError(409, message, { code });
/** A throttled request: REST answers carry `Retry-After: <retryAfterSeconds>`. */
export const tooManyRequests = (message: string, retryAfterSeconds: number, code?: string) =>
  new AppError(429, message, { retryAfterSeconds, code });
export const unavailable = (message = 'Service Unavailable') => new AppError(503, message);

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
