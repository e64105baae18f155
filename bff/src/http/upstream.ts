import { AppError } from '@spinroom/platform/core';

/** A message field proto3 may leave unset but the service always fills; unset means a broken upstream. */
export function present<T>(value: T | undefined): T {
  if (value === undefined) throw new AppError(502, 'Bad Gateway');
  return value;
}
