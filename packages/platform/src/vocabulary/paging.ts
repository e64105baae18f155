import { badRequest } from '../errors.js';

/** The most items one page (or one batch of ids) may ask for. */
export const MAX_PAGE_SIZE = 100;

/** A limit/offset page from a request (0 meaning "the default"), or a 400 out of range. */
export function pageOf(request: { limit: number; offset: number }, fallback = 20): { limit: number; offset: number } {
  const limit = request.limit === 0 ? fallback : request.limit;
  if (limit < 1 || limit > MAX_PAGE_SIZE || request.offset < 0)
    throw badRequest(`limit must be 1 to ${MAX_PAGE_SIZE} and offset 0 or more`);
  return { limit, offset: request.offset };
}
