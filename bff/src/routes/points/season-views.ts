import type { Season } from '@spinroom/contracts/points/v1/seasons';
import type { z } from 'zod';
import { present } from '../../http/upstream.js';
import type { SeasonSchema } from './season-schemas.js';

export const iso = (date: Date | undefined) => present(date).toISOString();

export function seasonJson(season: Season | undefined): z.input<typeof SeasonSchema> {
  const s = present(season);
  return {
    id: s.id,
    name: s.name,
    start: iso(s.start),
    end: s.end ? s.end.toISOString() : null,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
  };
}
