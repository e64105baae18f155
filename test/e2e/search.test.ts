import { eventually } from '@spinroom/platform/testing';
import { describe, expect, it } from 'vitest';
import { freshEmail, usePlatform } from '../support/platform.js';

type Json = any;

describe('catalogue search through the BFF', () => {
  const { call } = usePlatform();
  const P = '/api/playlist-service';

  it('ranks matches, tolerates typos and partial words, filters explicit songs, and adds by numeric id', async () => {
    const { body: me } = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: freshEmail(), password: 'correct horse battery' },
    });
    const tag = Math.random().toString(36).slice(2, 7);
    const songs = [
      { musicProvider: 'spotify', songId: `a-${tag}`, trackName: `Velvet ${tag} Morning`, artistName: 'The Lanterns', duration: 200 },
      {
        musicProvider: 'spotify',
        songId: `b-${tag}`,
        trackName: `Morning ${tag}`,
        artistName: 'Velvet Underground Tribute',
        duration: 210,
      },
      {
        musicProvider: 'spotify',
        songId: `c-${tag}`,
        trackName: `Quiet ${tag} Storm`,
        artistName: 'Nimbus',
        duration: 220,
        explicit: true,
      },
    ];
    await call('POST', `${P}/crate/special/likes/songs`, { token: me.accessToken, body: { songs } });

    const ranked = await call('GET', `${P}/search?q=${encodeURIComponent(`velvet ${tag} morning`)}`, { token: me.accessToken });
    expect(ranked.status).toBe(200);
    expect(ranked.body.songs[0].trackName).toBe(`Velvet ${tag} Morning`);
    expect(ranked.body.songs.map((s: Json) => s.trackName)).toContain(`Morning ${tag}`);

    const typo = await call('GET', `${P}/search?q=${encodeURIComponent(`quiet ${tag} strom`)}`, { token: me.accessToken });
    expect(typo.body.songs.map((s: Json) => s.trackName)).toContain(`Quiet ${tag} Storm`);
    const clean = await call('GET', `${P}/search?q=${encodeURIComponent(`quiet ${tag}`)}&explicit=false`, { token: me.accessToken });
    expect(clean.body.songs.map((s: Json) => s.trackName)).not.toContain(`Quiet ${tag} Storm`);

    const v2 = await call('GET', `${P}/search/v2?q=${tag}&limit=2`, { token: me.accessToken });
    expect(v2.body.songs).toHaveLength(2);
    expect(v2.body.songs[0].id).toEqual(expect.any(Number));
    expect((await call('GET', `${P}/search?q=`, { token: me.accessToken })).status).toBe(400);
    expect((await call('GET', `${P}/search?q=x`)).status).toBe(401);

    const { body: crate } = await call('POST', `${P}/crate`, { token: me.accessToken, body: { crateName: 'By id' } });
    const added = await call('POST', `${P}/api/v1/playlists/${crate.crateUuid}/tracks`, {
      token: me.accessToken,
      body: { songId: v2.body.songs[0].id, append: true },
    });
    expect(added).toMatchObject({ status: 201, body: { songs: [{ id: v2.body.songs[0].id, position: 0 }], count: 1 } });
    expect(
      (await call('POST', `${P}/api/v1/playlists/${crate.crateUuid}/tracks`, { token: me.accessToken, body: { songId: 999999999 } }))
        .status,
    ).toBe(404);
  });

  it('shows a song added after a search in that search asked again, through the answers the BFF keeps', async () => {
    const { body: me } = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: freshEmail(), password: 'correct horse battery' },
    });
    const tag = `kept${Math.random().toString(36).slice(2, 7)}`;
    const search = async () =>
      (await call('GET', `${P}/search?q=${tag}`, { token: me.accessToken })).body.songs.map((s: Json) => s.trackName);
    expect(await search()).toEqual([]);
    expect(await search()).toEqual([]);
    const song = { musicProvider: 'spotify', songId: `k-${tag}`, trackName: `Harbour ${tag}`, artistName: 'Kept Answers', duration: 200 };
    await call('POST', `${P}/crate/special/likes/songs`, { token: me.accessToken, body: { songs: [song] } });
    // The catalogue's generation advances at the song's commit; the BFF reads it every SEARCH_GENERATION_POLL_MS.
    await eventually(async () => ((await search()).includes(`Harbour ${tag}`) ? true : undefined), 30_000, 100);
    expect((await call('GET', `${P}/search?q=${tag}`)).status).toBe(401);
  });
});
