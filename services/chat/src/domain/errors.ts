import { AppError } from '@spinroom/platform';

/**
 * A chat error carries CometChat's error code in front of its message,
 * `"<CODE>: <message>"`, through gRPC to the BFF, which answers
 * `{error: {code, message}}` (see the BFF's chat routes and README.md).
 */
export function chatError(status: number, code: string, message: string): AppError {
  return new AppError(status, `${code}: ${message}`);
}
