import { z } from 'zod';
import '../../http/route.js'; // extends zod with .openapi()

/** An ISO 8601 time with its offset (2026-12-01T00:00:00Z), or a day (2026-12-01, midnight UTC). */
export const Instant = z.union([z.iso.datetime({ offset: true }), z.iso.date()]).openapi({
  description: 'An ISO 8601 time with its offset, or a day (midnight UTC)',
  example: '2026-12-01T00:00:00Z',
});

export const SeasonSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    start: z.string().openapi({ description: 'When the season starts' }),
    end: z.string().nullable().openapi({ description: "The next season's start; null for the latest season" }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Season');

export const SeasonCreateSchema = z.object({ name: z.string().trim().min(1).max(100), start: Instant }).openapi('SeasonCreate');

export const SeasonPatchSchema = z
  .object({ name: z.string().trim().min(1).max(100).optional(), start: Instant.optional() })
  .openapi('SeasonPatch');

export const SeasonPageSchema = z.object({ seasons: z.array(SeasonSchema), total: z.number().int() }).openapi('SeasonPage');
