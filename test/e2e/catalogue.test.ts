import { describe, expect, it } from 'vitest';
import { freshEmail, usePlatform } from '../support/platform.js';

type Json = any;

describe('genres, artists and albums through the BFF', () => {
  const { call } = usePlatform();
  const P = '/api/playlist-service';

  it('files catalogued songs under their artist and genre', async () => {
    const { body: me } = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: freshEmail(), password: 'correct horse battery' },
    });
    const tag = Math.random().toString(36).slice(2, 7);
    const songs = [
      {
        musicProvider: 'spotify',
        songId: `g1-${tag}`,
        trackName: 'One',
        artistName: `Zed ${tag}`,
        duration: 100,
        genre: `Shoegaze ${tag}`,
      },
      {
        musicProvider: 'spotify',
        songId: `g2-${tag}`,
        trackName: 'Two',
        artistName: `zed ${tag}`,
        duration: 200,
        genre: `shoegaze ${tag}`,
      },
      { musicProvider: 'spotify', songId: `g3-${tag}`, trackName: 'Three', artistName: `Ada ${tag}`, duration: 300, genre: `Dub ${tag}` },
    ];
    const { body: added } = await call('POST', `${P}/crate/special/likes/songs`, { token: me.accessToken, body: { songs } });

    const genres = await call('GET', `${P}/api/v1/genres?prefix=shoe`, { token: me.accessToken });
    expect(genres.body.genres.map((g: Json) => g.name)).toContain(`Shoegaze ${tag}`);
    expect(genres.body.genres.filter((g: Json) => g.name.toLowerCase() === `shoegaze ${tag}`)).toHaveLength(1);
    const byId = await call('GET', `${P}/api/v1/genres?idIn=${genres.body.genres[0].id}`, { token: me.accessToken });
    expect(byId.body.genres).toEqual([genres.body.genres[0]]);

    const artists = await call('GET', `${P}/artists/service/all-artists?take=100`, { token: me.accessToken });
    const zed = artists.body.artists.filter((a: Json) => a.name.toLowerCase() === `zed ${tag}`);
    expect(zed).toEqual([{ artistShortId: expect.any(String), name: `Zed ${tag}`, songCount: 2 }]);
    const albums = await call('GET', `${P}/artists/service/${zed[0].artistShortId}/albums`, { token: me.accessToken });
    expect(albums.body).toEqual({ albums: [], total: 0 });

    const song = await call('GET', `${P}/albums/service/${added.songs[2].songShortId}/song`, { token: me.accessToken });
    expect(song.body).toMatchObject({ trackName: 'Three', artistName: `Ada ${tag}` });
    expect((await call('GET', `${P}/albums/service/nope/song`, { token: me.accessToken })).status).toBe(404);
    expect((await call('GET', `${P}/albums/service/nope/songs`, { token: me.accessToken })).body.message).toBe('Album not found');
    const all = await call('GET', `${P}/albums/service/all-songs?take=5`, { token: me.accessToken });
    expect(all.body.songs.length).toBeGreaterThan(0);
  });
});
