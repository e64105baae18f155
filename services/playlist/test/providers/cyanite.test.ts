import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CYANITE, startCyaniteStandIn } from '../stand-ins/cyanite.js';
import { expectAppError, testProviders } from './helpers.js';

describe('Cyanite (music analysis) against its stand-in', () => {
  let standIn: Awaited<ReturnType<typeof startCyaniteStandIn>>;
  const cyanite = (env: Record<string, string> = { CYANITE_ACCESS_TOKEN: CYANITE.accessToken }) =>
    testProviders({ CYANITE_API_URL: standIn.url, ...env }).providers.cyanite;

  beforeAll(async () => {
    standIn = await startCyaniteStandIn();
    standIn.tracks.set('7', {
      id: '7',
      externalId: 'song-uuid',
      analysis: 'finished',
      genreTags: ['electronicDance'],
      moodTags: ['energetic'],
      bpm: 123,
    });
    standIn.tracks.set('8', { id: '8', externalId: null, analysis: 'pending' });
  });
  afterAll(() => standIn.close());

  it('reads a library track: its externalId and finished AudioAnalysisV6 tags, or that it is pending or unknown', async () => {
    expect(await cyanite().libraryTrack('7')).toEqual({
      externalId: 'song-uuid',
      status: 'finished',
      genreTags: ['electronicDance'],
      moodTags: ['energetic'],
      bpm: 123,
    });
    expect(await cyanite().libraryTrack('8')).toMatchObject({ status: 'pending', genreTags: [] });
    expect((await cyanite().libraryTrack('404')).status).toBe('notFound');
    const [call] = standIn.server.calls('/graphql');
    expect(call!.headers.authorization).toBe(`Bearer ${CYANITE.accessToken}`);
  });

  it('enqueues a track for analysis (the GraphQL mutation) and reports its error code', async () => {
    expect(await cyanite().enqueue('8')).toEqual({ enqueued: true });
    expect(standIn.enqueued).toContain('8');
    expect(await cyanite().enqueue('nope')).toEqual({ enqueued: false, code: 'libraryTrackNotFound' });
  });

  it('is off without a token (503), and a refused token is a 502', async () => {
    await expectAppError(cyanite({}).libraryTrack('7'), 503, 'Cyanite is not configured on this server');
    await expectAppError(cyanite({ CYANITE_ACCESS_TOKEN: 'wrong' }).enqueue('7'), 502, /Cyanite did not answer as expected/);
  });
});
