import { describe, expect, it } from 'vitest';
import { freshEmail, usePlatform } from '../support/platform.js';

type Json = any;
const providerSong = (n: number, overrides: Record<string, unknown> = {}) => ({
  musicProvider: 'spotify',
  songId: `sp-${n}-${Math.random().toString(36).slice(2, 8)}`,
  trackName: `Track ${n}`,
  artistName: `Artist ${Math.random().toString(36).slice(2, 8)}`,
  duration: 180 + n,
  ...overrides,
});

describe('crates, the queue and likes through the BFF', () => {
  const { call } = usePlatform();
  const signUp = async () =>
    (await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery' } })).body as {
      accessToken: string;
      userUuid: string;
    };
  const P = '/api/playlist-service';

  it("creates crates named 'New Playlist #n' and lists them after the queue and likes", async () => {
    const me = await signUp();
    const first = await call('POST', `${P}/crate`, { token: me.accessToken, body: {} });
    expect(first).toMatchObject({
      status: 201,
      body: { crateName: 'New Playlist #1', isPublic: false, special: null, crateSongsNumber: 0, userUuid: me.userUuid },
    });
    const named = await call('POST', `${P}/crate`, { token: me.accessToken, body: { crateName: 'Friday', isPublic: true } });
    expect(named.body).toMatchObject({ crateName: 'Friday', isPublic: true });
    const second = await call('POST', `${P}/crate`, { token: me.accessToken, body: {} });
    expect(second.body.crateName).toBe('New Playlist #2');

    await call('GET', `${P}/crate/special/queue`, { token: me.accessToken });
    await call('GET', `${P}/crate/special/likes`, { token: me.accessToken });
    const list = await call('GET', `${P}/crate/user`, { token: me.accessToken });
    expect(list.body.crates.map((c: Json) => c.crateName)).toEqual(['Queue', 'Likes', 'New Playlist #2', 'Friday', 'New Playlist #1']);
    expect(list.body.count).toBe(5);

    const other = await signUp();
    const theirs = await call('GET', `${P}/crate/user/${me.userUuid}`, { token: other.accessToken });
    expect(theirs.body.crates.map((c: Json) => c.crateName)).toEqual(['Friday']);

    // The service (SEO) paths see public crates only, by short id.
    const service = await call('GET', `${P}/crate/user/service/${me.userUuid}`, { token: other.accessToken });
    expect(service.body).toMatchObject({ crates: [{ crateName: 'Friday', crateShortId: named.body.crateShortId }], total: 1 });
    const all = await call('GET', `${P}/crate/service/all-crates?take=100`, { token: other.accessToken });
    expect(all.body.crates.map((c: Json) => c.crateUuid)).toContain(named.body.crateUuid);
    expect(all.body.crates.map((c: Json) => c.crateUuid)).not.toContain(first.body.crateUuid);
    const bySlug = await call('GET', `${P}/crate/service/${named.body.crateShortId}/songs`, { token: other.accessToken });
    expect(bySlug.body).toMatchObject({ crateName: 'Friday', songs: [] });
    expect((await call('GET', `${P}/crate/service/${first.body.crateShortId}/songs`, { token: other.accessToken })).status).toBe(404);
  });

  it('fills the queue with catalogue and provider songs, without duplicating catalogue entries', async () => {
    const me = await signUp();
    const queue = await call('GET', `${P}/crate/special/queue`, { token: me.accessToken });
    expect(queue).toMatchObject({ status: 200, body: { crateName: 'Queue', special: 'queue', songs: [] } });

    // Other tests' uploads reach every catalogue through upload-events: keep this song's isrc unique.
    const isrc = `us${Math.random().toString(36).slice(2, 12)}`.slice(0, 12);
    const song = providerSong(1, { isrc, thumbnails: { spotify: 'https://img/1.jpg' } });
    const added = await call('POST', `${P}/crate/special/queue/songs`, { token: me.accessToken, body: { songs: [song], append: true } });
    expect(added.status).toBe(201);
    expect(added.body.songs[0]).toMatchObject({
      trackName: 'Track 1',
      isrc: isrc.toUpperCase(),
      musicProviders: { spotify: song.songId },
      thumbnails: { spotify: 'https://img/1.jpg' },
      position: 0,
      crateSongUuid: expect.any(String),
      songId: expect.any(String),
    });
    const catalogueId = added.body.songs[0].songId;

    // The same song seen through Apple (same names, 3 s apart) is the same catalogue song, and learns its Apple id.
    const viaApple = await call('POST', `${P}/crate/special/queue/songs`, {
      token: me.accessToken,
      body: { songs: [{ ...song, musicProvider: 'apple', songId: 'apple-77', isrc: undefined, duration: song.duration + 3 }] },
    });
    expect(viaApple.body.songs[0]).toMatchObject({
      songId: catalogueId,
      musicProviders: { spotify: song.songId, apple: 'apple-77' },
      position: 1,
    });

    // By catalogue id, at the top.
    const top = await call('POST', `${P}/crate/special/queue/songs`, {
      token: me.accessToken,
      body: { songs: [{ songId: catalogueId }], append: false },
    });
    expect(top.body.songs[0].position).toBe(0);
    const songs = await call('GET', `${P}/crate/special/queue/songs`, { token: me.accessToken });
    expect(songs.body.songs.map((s: Json) => [s.position, s.songId])).toEqual([
      [0, catalogueId],
      [1, catalogueId],
      [2, catalogueId],
    ]);
    expect(songs.body.count).toBe(3);

    const unknown = await call('POST', `${P}/crate/special/queue/songs`, {
      token: me.accessToken,
      body: { songs: [{ songId: '00000000-0000-4000-8000-000000000000' }] },
    });
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Song not found' } });
    const badProvider = await call('POST', `${P}/crate/special/queue/songs`, {
      token: me.accessToken,
      body: { songs: [providerSong(2, { musicProvider: 'winamp' })] },
    });
    expect(badProvider).toMatchObject({ status: 400, body: { message: 'Unknown music provider: winamp' } });
    const song1 = await call('GET', `${P}/api/v1/songs/${catalogueId}`, { token: me.accessToken });
    expect(song1.body).toMatchObject({ songId: catalogueId, trackName: 'Track 1' });
  });

  it('moves, removes, shuffles and clears, keeping positions dense', async () => {
    const me = await signUp();
    const { body: crate } = await call('POST', `${P}/crate`, { token: me.accessToken, body: { crateName: 'Order' } });
    const path = `${P}/crate/${crate.crateUuid}`;
    const { body: added } = await call('POST', `${path}/songs`, {
      token: me.accessToken,
      body: { songs: [1, 2, 3, 4, 5].map((n) => providerSong(n)) },
    });
    const uuids: string[] = added.songs.map((s: Json) => s.crateSongUuid);
    const order = async () =>
      (await call('GET', `${path}/songs`, { token: me.accessToken })).body.songs.map((s: Json) => [s.position, s.crateSongUuid]);

    const moved = await call('PUT', `${path}/songs/${uuids[4]}/position`, { token: me.accessToken, body: { position: 1 } });
    expect(moved.status).toBe(200);
    expect(await order()).toEqual([
      [0, uuids[0]],
      [1, uuids[4]],
      [2, uuids[1]],
      [3, uuids[2]],
      [4, uuids[3]],
    ]);

    await call('DELETE', `${path}/songs/${uuids[1]}`, { token: me.accessToken });
    expect(await order()).toEqual([
      [0, uuids[0]],
      [1, uuids[4]],
      [2, uuids[2]],
      [3, uuids[3]],
    ]);
    expect((await call('DELETE', `${path}/songs/${uuids[1]}`, { token: me.accessToken })).status).toBe(404);

    const shuffled = await call('POST', `${path}/songs/shuffle`, { token: me.accessToken });
    expect(shuffled.body.songs.map((s: Json) => s.position)).toEqual([0, 1, 2, 3]);
    expect(new Set(shuffled.body.songs.map((s: Json) => s.crateSongUuid))).toEqual(new Set([uuids[0], uuids[4], uuids[2], uuids[3]]));

    const position = await call('PUT', `${path}/current-position`, { token: me.accessToken, body: { currentPosition: 2 } });
    expect(position.body.currentPosition).toBe(2);
    expect((await call('PUT', `${path}/current-position`, { token: me.accessToken, body: { currentPosition: 9 } })).status).toBe(400);

    const cleared = await call('POST', `${path}/songs/clear`, { token: me.accessToken });
    expect(cleared.body).toMatchObject({ crateSongsNumber: 0, currentPosition: 0 });
  });

  it('keeps positions dense under concurrent reorders and adds', async () => {
    const me = await signUp();
    const { body: crate } = await call('POST', `${P}/crate`, { token: me.accessToken, body: { crateName: 'Busy' } });
    const path = `${P}/crate/${crate.crateUuid}`;
    const { body: added } = await call('POST', `${path}/songs`, {
      token: me.accessToken,
      body: { songs: Array.from({ length: 10 }, (_, n) => providerSong(n)) },
    });
    const uuids: string[] = added.songs.map((s: Json) => s.crateSongUuid);
    const results = await Promise.all([
      ...uuids
        .filter((_, i) => i !== 3)
        .map((uuid, i) => call('PUT', `${path}/songs/${uuid}/position`, { token: me.accessToken, body: { position: (i * 7) % 10 } })),
      call('POST', `${path}/songs`, { token: me.accessToken, body: { songs: [providerSong(20)], append: false } }),
      call('POST', `${path}/songs`, { token: me.accessToken, body: { songs: [providerSong(21)] } }),
      call('DELETE', `${path}/songs/${uuids[3]}`, { token: me.accessToken }),
    ]);
    expect(results.map((r) => r.status).filter((s) => s >= 400)).toEqual([]);
    const { body } = await call('GET', `${path}/songs?limit=100`, { token: me.accessToken });
    expect(body.songs.map((s: Json) => s.position)).toEqual(Array.from({ length: 11 }, (_, i) => i));
    expect(new Set(body.songs.map((s: Json) => s.crateSongUuid)).size).toBe(11);
  });

  it("guards other people's crates and the special crates", async () => {
    const owner = await signUp();
    const stranger = await signUp();
    const { body: privateCrate } = await call('POST', `${P}/crate`, { token: owner.accessToken, body: { crateName: 'Mine' } });
    const { body: publicCrate } = await call('POST', `${P}/crate`, {
      token: owner.accessToken,
      body: { crateName: 'Shared', isPublic: true },
    });

    expect(await call('GET', `${P}/crate/${privateCrate.crateUuid}`, { token: stranger.accessToken })).toMatchObject({
      status: 404,
      body: { message: 'Crate not found' },
    });
    expect((await call('GET', `${P}/crate/${publicCrate.crateUuid}`, { token: stranger.accessToken })).status).toBe(200);
    expect(
      await call('POST', `${P}/crate/${publicCrate.crateUuid}/songs`, { token: stranger.accessToken, body: { songs: [providerSong(1)] } }),
    ).toMatchObject({ status: 403, body: { message: 'Only the owner can change this crate' } });
    expect((await call('DELETE', `${P}/crate/${publicCrate.crateUuid}`, { token: stranger.accessToken })).status).toBe(403);
    expect((await call('GET', `${P}/crate/special/queue`)).status).toBe(401);

    const copy = await call('PUT', `${P}/crate/${publicCrate.crateUuid}/copy`, { token: stranger.accessToken });
    expect(copy).toMatchObject({ status: 201, body: { crateName: 'Shared (copy)', userUuid: stranger.userUuid } });

    const queue = await call('GET', `${P}/crate/special/queue`, { token: owner.accessToken });
    expect(await call('DELETE', `${P}/crate/${queue.body.crateUuid}`, { token: owner.accessToken })).toMatchObject({
      status: 403,
      body: { message: 'The queue crate cannot be deleted' },
    });
    const renamed = await call('PATCH', `${P}/crate/${privateCrate.crateUuid}`, {
      token: owner.accessToken,
      body: { crateName: 'Renamed', isPublic: true },
    });
    expect(renamed.body).toMatchObject({ crateName: 'Renamed', isPublic: true });
    expect((await call('DELETE', `${P}/crate/${privateCrate.crateUuid}`, { token: owner.accessToken })).status).toBe(200);
    expect((await call('GET', `${P}/crate/${privateCrate.crateUuid}`, { token: owner.accessToken })).status).toBe(404);
  });
});
