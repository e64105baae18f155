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

export const RankingStatusSchema = z
  .object({
    id: z.string().openapi({ description: 'Empty for a lifetime status of a user without points' }),
    userUuid: z.uuid(),
    seasonId: z.uuid().nullable().openapi({ description: 'Null for the lifetime status' }),
    seasonName: z.string().nullable(),
    balance: z.number().int(),
    rank: z.number().int().openapi({ description: '1 for the highest balance; 0 without points' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('RankingStatus');

export const RankingSumSchema = z
  .object({ userUuid: z.uuid(), balance: z.number().int(), rank: z.number().int() })
  .openapi('RankingStatusSum');

export const CurrentRankingStatusSchema = z
  .object({
    hasCurrentRankingStatus: z.boolean(),
    season: SeasonSchema.nullable().openapi({ description: 'Null when there is no current season' }),
    rankingStatus: RankingStatusSchema.nullable(),
  })
  .openapi('CurrentRankingStatus');

export const SeasonRankingSchema = z
  .object({
    season: SeasonSchema,
    total: z.number().int(),
    rankings: z.array(RankingStatusSchema),
    me: RankingStatusSchema.nullable().openapi({ description: "The caller's own status in it (null without a token or points)" }),
  })
  .openapi('SeasonRanking');

export const LifetimeRankingSchema = z
  .object({ total: z.number().int(), rankings: z.array(RankingStatusSchema), me: RankingStatusSchema.nullable() })
  .openapi('LifetimeRanking');

export const RankingStatusPageSchema = z
  .object({ total: z.number().int(), rankingStatuses: z.array(RankingStatusSchema) })
  .openapi('RankingStatusPage');

const Reason = z.string().trim().min(1).max(500);
const Key = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/);

export const HandlePointsSchema = z
  .object({
    userUuid: z.uuid(),
    points: z
      .number()
      .int()
      .min(-1_000_000)
      .max(1_000_000)
      .refine((n) => n !== 0, 'points must not be 0')
      .openapi({ description: 'Added; negative to take points' }),
    reason: Reason,
    seasonId: z.uuid().optional().openapi({ description: 'The current season when left out' }),
    idempotencyKey: Key.optional().openapi({ description: 'A repeat with the same key adds nothing and answers the first' }),
  })
  .openapi('HandlePoints');

export const ServicePointsSchema = z
  .object({ userUuid: z.uuid(), points: z.number().int().min(1).max(1_000_000), reason: Reason, idempotencyKey: Key })
  .openapi('ServicePoints');

export const PointsGivenSchema = z
  .object({
    point: z
      .object({
        id: z.uuid(),
        userUuid: z.uuid(),
        seasonId: z.uuid().nullable(),
        kind: z.enum(['upvotes', 'play', 'admin', 'service']),
        amount: z.number().int(),
        reason: z.string(),
        createdAt: z.string(),
      })
      .openapi('PointRecord'),
    rankingStatus: RankingStatusSchema.nullable(),
    lifetime: RankingStatusSchema,
    replayed: z.boolean(),
  })
  .openapi('PointsGiven');
