import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEMO_AVATARS, demoSeason, seedDemoSeasons } from '../../scripts/seed/demo-seasons.js';
import { signedToken, usePlatform } from '../support/platform.js';

// What `npm start` seeds so the ranking and the avatar picker are alive on a first run, through the REST paths.
describe('the demo seasons and avatars', () => {
  const { call, platform } = usePlatform();

  it('makes a current season and a dozen avatars, once however often it runs', async () => {
    const admin = await signedToken('admin', randomUUID());
    const lines: string[] = [];
    for (let run = 0; run < 2; run += 1) {
      await seedDemoSeasons({ baseUrl: platform().baseUrl, token: admin, log: (line) => lines.push(line) });
    }
    const expected = demoSeason();
    expect(lines).toEqual([`made the season ${expected.name}`, `made ${DEMO_AVATARS.length} avatars`]);
    const current = (await call('GET', '/api/merch-service/seasons/current')).body;
    expect(current).toMatchObject({ name: expected.name, start: expected.start, end: null });
    const all = (await call('GET', '/api/merch-service/all-avatars', { token: admin })).body as Array<{
      slug: string;
      seasonId: string | null;
    }>;
    expect(all.map((a) => a.slug).sort()).toEqual(DEMO_AVATARS.map((a) => a.slug).sort());
    expect(all.filter((a) => a.seasonId === current.id)).toHaveLength(2);
    // Everyone may wear the six looks to choose.
    const mine = (await call('GET', '/api/merch-service/avatars')).body as Array<{ slug: string }>;
    expect(mine.map((a) => a.slug)).toEqual(['bot', 'crooner', 'raver', 'royal', 'skater', 'stadium-dj']);
  });
});
