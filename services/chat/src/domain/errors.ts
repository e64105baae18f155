import { AppError } from '@spinroom/platform';

/**
 * A chat error: an HTTP status, CometChat's error code and its message. The
 * code travels as the AppError's code through gRPC to the BFF, which answers
 * `{error: {code, message}}` (see the BFF's chat routes and README.md).
 */
export function chatError(status: number, code: string, message: string): AppError {
  return new AppError(status, message, { code });
}
