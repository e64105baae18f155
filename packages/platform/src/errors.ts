import { STATUS_CODES } from 'node:http';

/**
 * The one error model: a domain error carries the HTTP status the spec gives
 * and its exact message. gRPC carries both across services (see grpc/status.ts)
 * and the BFF renders them as `{statusCode, message, error}`.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string | string[],
    /** When to try again (a 429's `Retry-After`, in seconds). */
    readonly retryAfterSeconds?: number,
  ) {
    super(Array.isArray(messages) ? messages.join('; ') : messages);
    this.name = 'AppError';
  }

  /** The body every REST path answers with on failure. */
  toBody(): ErrorBody {
    return { statusCode: this.status, message: this.messages, error: statusText(this.status) };
  }
}

export interface ErrorBody {
  statusCode: number;
  message: string | string[];
  error: string;
}

export function statusText(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

export const badRequest = (message: string | string[] = 'Bad Request') => new AppError(400, message);
export const unauthorized = (message = 'Unauthorized') => new AppError(401, message);
export const forbidden = (message = 'Forbidden') => new AppError(403, message);
export const notFound = (message = 'Not Found') => new AppError(404, message);
export const conflict = (message = 'Conflict') => new AppError(409, message);
/** A throttled request: REST answers carry `Retry-After: <retryAfterSeconds>`. */
export const tooManyRequests = (message: string, retryAfterSeconds: number) => new AppError(429, message, retryAfterSeconds);
export const unavailable = (message = 'Service Unavailable') => new AppError(503, message);

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
