import { apiClient } from '../lib/http.js';

const MERCH = '/api/merch-service';

type AvatarStatus = 'PUBLIC' | 'PRIVATE' | 'SEASON_AWARD' | 'SUBSCRIBER_ONLY';

/**
 * A dozen avatars: the web client's six drawn looks for everyone (its
 * catalogue, web/src/avatars/catalogue.ts), and six that are earned or kept:
 * for subscribers, for the Discord activity, and three season awards by rank
 * (the client draws a look made from each slug).
 */
export const DEMO_AVATARS: Array<{ slug: string; name: string; status: AvatarStatus; discordOnly?: boolean; rankThreshold?: number }> = [
  { slug: 'stadium-dj', name: 'Stadium DJ', status: 'PUBLIC' },
  { slug: 'raver', name: 'Raver', status: 'PUBLIC' },
  { slug: 'crooner', name: 'Crooner', status: 'PUBLIC' },
  { slug: 'skater', name: 'Skater', status: 'PUBLIC' },
  { slug: 'royal', name: 'Royal', status: 'PUBLIC' },
  { slug: 'bot', name: 'Bot', status: 'PUBLIC' },
  { slug: 'night-owl', name: 'Night owl', status: 'SUBSCRIBER_ONLY' },
  { slug: 'vinyl-veteran', name: 'Vinyl veteran', status: 'SUBSCRIBER_ONLY' },
  { slug: 'discord-regular', name: 'Discord regular', status: 'PUBLIC', discordOnly: true },
  { slug: 'season-champion', name: 'Season champion', status: 'SEASON_AWARD', rankThreshold: 1 },
  { slug: 'season-top-ten', name: 'Top ten', status: 'SEASON_AWARD', rankThreshold: 10 },
  { slug: 'crowd-favourite', name: 'Crowd favourite', status: 'SEASON_AWARD', rankThreshold: 100 },
];

/** The first day of this month (UTC): the demo season's start, so a first run is inside it. */
export function demoSeasonStart(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}

/**
 * A current season and the demo avatars (its awards name it), through the
 * REST paths as an admin (`token`). Idempotent: a current season is kept (a
 * new one is made only when none is running), and an avatar whose slug exists
 * is left as it is.
 */
export async function seedDemoSeason(options: { baseUrl: string; token: string; log: (line: string) => void; now?: Date }) {
  const call = apiClient(options.baseUrl);
  const { token } = options;
  let season = (await call('GET', `${MERCH}/seasons/current`, token, undefined, [404])) as { id?: string; name?: string };
  if (!season.id) {
    const start = demoSeasonStart(options.now);
    season = await call('POST', `${MERCH}/points/season`, token, { name: `Season ${start.slice(0, 7)}`, start });
    options.log(`started the season "${season.name}"`);
  }
  let made = 0;
  for (const avatar of DEMO_AVATARS) {
    const existing = await call('GET', `${MERCH}/avatars/${avatar.slug}`, token, undefined, [404]);
    if (existing.slug) continue;
    const award = avatar.status === 'SEASON_AWARD' ? { seasonId: season.id } : {};
    await call('POST', `${MERCH}/avatars`, token, { discordOnly: false, ...avatar, ...award });
    made += 1;
  }
  if (made > 0) options.log(`made ${made} avatars`);
  return { season: season.name as string, avatars: DEMO_AVATARS.length };
}
