import { z } from 'zod';

/**
 * Paging, one vocabulary for every list: `limit`/`offset`, or `take`/`skip` where
 * the original names them so. Offsets are bounded so that no value reaches a
 * service as a number its 32-bit fields or the database would refuse.
 */
export const MAX_PAGE_SIZE = 100;
export const MAX_OFFSET = 1_000_000;

export const pageSize = (fallback = 20, max = MAX_PAGE_SIZE) => z.coerce.number().int().min(1).max(max).default(fallback);
export const pageOffset = () => z.coerce.number().int().min(0).max(MAX_OFFSET).default(0);

/** `?limit&offset`, both optional (the service picks its defaults). */
export const LimitOffsetQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  offset: z.coerce.number().int().min(0).max(MAX_OFFSET).optional(),
});

/** `?limit&offset` with defaults 20 and 0. */
export const LimitOffsetDefaults = z.object({ limit: pageSize(), offset: pageOffset() });

/** `?take&skip` with defaults 20 and 0. */
export const TakeSkipQuery = z.object({ take: pageSize(), skip: pageOffset() });
