import { apiClient } from '../lib/http.js';

const MERCH = '/api/merch-service';

type Status = 'PUBLIC' | 'PRIVATE' | 'SEASON_AWARD' | 'SUBSCRIBER_ONLY';

/**
 * A dozen avatars: the web client's six looks to choose (web/src/avatars/catalogue.ts)
 * for everyone, two for subscribers, two the current season awards, a
 * Discord-only one and a private one for staff.
 */
export const DEMO_AVATARS: Array<{ slug: string; name: string; status: Status; discordOnly?: boolean; rankThreshold?: number }> = [
  { slug: 'stadium-dj', name: 'Stadium DJ', status: 'PUBLIC' },
  { slug: 'raver', name: 'Raver', status: 'PUBLIC' },
  { slug: 'crooner', name: 'Crooner', status: 'PUBLIC' },
  { slug: 'skater', name: 'Skater', status: 'PUBLIC' },
  { slug: 'royal', name: 'Royal', status: 'PUBLIC' },
  { slug: 'bot', name: 'Bot', status: 'PUBLIC' },
  { slug: 'gold-record', name: 'Gold record', status: 'SUBSCRIBER_ONLY' },
  { slug: 'vip-pass', name: 'VIP pass', status: 'SUBSCRIBER_ONLY' },
  { slug: 'season-champion', name: 'Season champion', status: 'SEASON_AWARD', rankThreshold: 1 },
  { slug: 'season-top-ten', name: 'Season top ten', status: 'SEASON_AWARD', rankThreshold: 10 },
  { slug: 'discord-owl', name: 'Discord owl', status: 'PUBLIC', discordOnly: true },
  { slug: 'staff-cap', name: 'Staff cap', status: 'PRIVATE' },
];

/** The first season of a first run: it starts on the first of this month (UTC). */
export function demoSeason(now = new Date()) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return {
    name: `Season of ${start.toLocaleString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' })}`,
    start: start.toISOString(),
  };
}

/**
 * A current season and a dozen avatars (the current season's awards among
 * them), through the real REST paths as an admin (`token`), so the ranking
 * and the avatar picker are alive on a first run. Idempotent: a current
 * season is kept, and avatars are made only where their slug is free.
 */
export async function seedDemoSeasons(options: { baseUrl: string; token: string; log: (line: string) => void; now?: Date }) {
  const call = apiClient(options.baseUrl);
  const { token } = options;
  let season = await call('GET', `${MERCH}/seasons/current`, token, undefined, [404]);
  if (!season.id) {
    season = await call('POST', `${MERCH}/points/season`, token, demoSeason(options.now));
    options.log(`made the season ${season.name}`);
  }
  const existing = (await call('GET', `${MERCH}/all-avatars`, token)) as unknown as Array<{ slug: string }>;
  let made = 0;
  for (const avatar of DEMO_AVATARS) {
    if (existing.some((a) => a.slug === avatar.slug)) continue;
    const body = { discordOnly: false, ...avatar, ...(avatar.status === 'SEASON_AWARD' ? { seasonId: season.id } : {}) };
    const answer = await call('POST', `${MERCH}/avatars`, token, body, [409]);
    if (answer.slug) made += 1;
  }
  if (made > 0) options.log(`made ${made} avatars`);
  return { seasonId: season.id as string, seasonName: season.name as string };
}
