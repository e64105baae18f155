import { z } from 'zod';

/** The largest value a 32-bit signed field holds: what a serial id or a position can be. */
export const MAX_INT32 = 2_147_483_647;

/** A numeric id from a path (`/rooms/admin/{id}`): a positive 32-bit integer. */
export const SerialId = z.coerce.number().int().positive().max(MAX_INT32);

/** A position in a crate or a queue. */
export const Position = z.number().int().min(0).max(MAX_INT32);
