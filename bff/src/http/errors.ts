import { AppError, createLogger } from '@spinroom/platform/core';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';

const logger = createLogger('bff');

/** Unknown paths: 404 in the one error shape. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new AppError(404, `Cannot ${req.method} ${req.originalUrl.split('?')[0]}`));
};

/** Every failure leaves as `{statusCode, message, error}`; never a stack trace. */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const appError = toAppError(error);
  if (appError.status >= 500 && !(error instanceof AppError)) {
    logger.error({ err: error, method: req.method, path: req.path }, 'request failed');
  }
  setRetryAfter(res, appError);
  res.status(appError.status).json(appError.toBody());
};

/** A throttled answer (429) tells when to come back. */
export function setRetryAfter(res: Response, error: AppError): void {
  if (error.retryAfterSeconds !== undefined) res.set('Retry-After', String(error.retryAfterSeconds));
}

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  // body-parser's errors carry a `type` and an HTTP status.
  const type = (error as { type?: string }).type;
  if (type === 'entity.parse.failed') return new AppError(400, 'Malformed JSON in request body');
  if (type === 'entity.too.large') return new AppError(413, 'Request body is too large');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return new AppError(415, 'Unsupported request encoding');
  const status = (error as { status?: number }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) return new AppError(status, (error as Error).message);
  return new AppError(500, 'Internal Server Error');
}
