// Public crates, to play from or copy (issue 15): GET /crate/public browses and
// searches them (paged, validated at the edge, private and empty crates never
// listed), and PUT /crate/{uuid}/copy copies anyone's public crate into a new
// crate or, with ?into=, onto the end of the caller's queue without repeats.
import { describe, expect, it } from 'vitest';
import { freshEmail, usePlatform } from '../support/platform.js';

type Json = any;
const P = '/api/playlist-service';
// Names unique to this run, so searches see only this file's crates.
const RUN = Math.random().toString(36).slice(2, 8);

const providerSong = (n: number) => ({
  musicProvider: 'spotify',
  songId: `pc-${RUN}-${n}-${Math.random().toString(36).slice(2, 8)}`,
  trackName: `Public Track ${n} ${RUN}`,
  artistName: `Public Artist ${RUN}`,
  duration: 100 + n * 20,
});

describe('public crates through the BFF', () => {
  const { call } = usePlatform();
  const signUp = async () =>
    (await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery' } })).body as {
      accessToken: string;
      userUuid: string;
    };
  const crateWith = async (token: string, body: Record<string, unknown>, songs: number[]) => {
    const { body: crate } = await call('POST', `${P}/crate`, { token, body });
    if (songs.length > 0) {
      const added = await call('POST', `${P}/crate/${crate.crateUuid}/songs`, { token, body: { songs: songs.map(providerSong) } });
      expect(added.status).toBe(201);
    }
    return crate;
  };
  const browse = async (token: string, query: string) => {
    const res = await call('GET', `${P}/crate/public?${query}`, { token });
    expect(res.status).toBe(200);
    return res.body as { crates: Json[]; total: number };
  };

  it('lists public crates with songs, searches names and descriptions, pages, and never lists private or empty ones', async () => {
    const owner = await signUp();
    const reader = await signUp();
    const word = `sunset${RUN}`;
    const exact = await crateWith(owner.accessToken, { crateName: word, isPublic: true }, [1]);
    const prefix = await crateWith(owner.accessToken, { crateName: `${word} Grooves`, isPublic: true }, [2, 3, 4]);
    const inside = await crateWith(owner.accessToken, { crateName: `Late ${word.toUpperCase()} drive`, isPublic: true }, [5, 6]);
    const described = await crateWith(
      owner.accessToken,
      { crateName: `Morning ${RUN}`, description: `Not quite a ${word} crate`, isPublic: true },
      [7],
    );
    const empty = await crateWith(owner.accessToken, { crateName: `${word} empty`, isPublic: true }, []);
    const hidden = await crateWith(owner.accessToken, { crateName: `${word} secret` }, [8, 9]);
    await call('POST', `${P}/crate/special/queue/songs`, { token: owner.accessToken, body: { songs: [providerSong(10)] } });

    // Names equal to the words first, then names starting with them, then the rest; any case.
    const found = await browse(reader.accessToken, `q=${encodeURIComponent(word.toUpperCase())}`);
    expect(found.crates.map((c) => c.crateUuid)).toEqual([exact.crateUuid, prefix.crateUuid, inside.crateUuid, described.crateUuid]);
    expect(found.total).toBe(4);
    expect(found.crates[1]).toMatchObject({ crateName: `${word} Grooves`, isPublic: true, crateSongsNumber: 3, userUuid: owner.userUuid });

    // Without words: every public crate with songs, the most songs first.
    const all = await browse(reader.accessToken, 'limit=100');
    const listed = all.crates.map((c) => c.crateUuid);
    expect(listed).toEqual(expect.arrayContaining([exact.crateUuid, prefix.crateUuid, inside.crateUuid, described.crateUuid]));
    expect(listed.indexOf(prefix.crateUuid)).toBeLessThan(listed.indexOf(inside.crateUuid));
    expect(listed.indexOf(inside.crateUuid)).toBeLessThan(listed.indexOf(exact.crateUuid));
    expect(all.total).toBe(all.crates.length);
    // Never: private crates (not even for their owner, nor by their exact name), empty ones, queues.
    for (const token of [reader.accessToken, owner.accessToken]) {
      const again = await browse(token, 'limit=100');
      expect(again.crates.every((c) => c.isPublic && c.special === null && c.crateSongsNumber > 0)).toBe(true);
      expect(again.crates.map((c) => c.crateUuid)).not.toContain(hidden.crateUuid);
      expect(again.crates.map((c) => c.crateUuid)).not.toContain(empty.crateUuid);
    }
    expect((await browse(owner.accessToken, `q=${encodeURIComponent(`${word} secret`)}`)).crates).toEqual([]);

    // Pages of one follow the same order and say the same total.
    const pages = [];
    for (let offset = 0; offset < 5; offset += 1) pages.push(await browse(reader.accessToken, `q=${word}&limit=1&offset=${offset}`));
    expect(pages.map((p) => p.crates[0]?.crateUuid)).toEqual([...found.crates.map((c) => c.crateUuid), undefined]);
    expect(pages.map((p) => p.total)).toEqual([4, 4, 4, 4, 4]);

    // A LIKE wildcard is a letter like any other.
    expect((await browse(reader.accessToken, `q=${encodeURIComponent(`${RUN}%`)}`)).crates).toEqual([]);
  });

  it('answers 401 without a token and 400 for what it cannot read', async () => {
    expect((await call('GET', `${P}/crate/public`)).status).toBe(401);
    const { accessToken } = await signUp();
    for (const query of [`q=${'x'.repeat(201)}`, 'limit=0', 'limit=101', 'offset=-1', 'limit=ten', 'q=a&q=b']) {
      expect((await call('GET', `${P}/crate/public?${query}`, { token: accessToken })).status, query).toBe(400);
    }
    expect((await call('GET', `${P}/crate/public?q=${'x'.repeat(200)}`, { token: accessToken })).body).toEqual({ crates: [], total: 0 });
  });

  it("copies someone's public crate into a new crate or onto the queue, leaving out songs already there", async () => {
    const owner = await signUp();
    const listener = await signUp();
    const shared = await crateWith(owner.accessToken, { crateName: `Shared ${RUN}`, isPublic: true }, [11, 12, 13]);
    const hidden = await crateWith(owner.accessToken, { crateName: `Hidden ${RUN}` }, [14]);
    const { body: sharedSongs } = await call('GET', `${P}/crate/${shared.crateUuid}/songs`, { token: listener.accessToken });
    const ids = sharedSongs.songs.map((s: Json) => s.songId);
    expect(ids).toHaveLength(3);

    // A crate of the listener's, the same songs in the same order.
    const copy = await call('PUT', `${P}/crate/${shared.crateUuid}/copy`, { token: listener.accessToken });
    expect(copy).toMatchObject({
      status: 201,
      body: { crateName: `Shared ${RUN} (copy)`, userUuid: listener.userUuid, isPublic: false, crateSongsNumber: 3, songsAdded: 3 },
    });
    const copied = await call('GET', `${P}/crate/${copy.body.crateUuid}/songs`, { token: listener.accessToken });
    expect(copied.body.songs.map((s: Json) => s.songId)).toEqual(ids);

    // Onto the queue: the listener already has the second song (the same provider id), so two are added, after it.
    const second = sharedSongs.songs[1];
    await call('POST', `${P}/crate/special/queue/songs`, {
      token: listener.accessToken,
      body: { songs: [{ musicProvider: 'spotify', songId: second.musicProviders.spotify, trackName: 'x', artistName: 'y', duration: 1 }] },
    });
    const intoQueue = await call('PUT', `${P}/crate/${shared.crateUuid}/copy?into=queue`, { token: listener.accessToken });
    expect(intoQueue).toMatchObject({
      status: 201,
      body: { special: 'queue', userUuid: listener.userUuid, crateSongsNumber: 3, songsAdded: 2 },
    });
    const queue = await call('GET', `${P}/crate/special/queue/songs`, { token: listener.accessToken });
    expect(queue.body.songs.map((s: Json) => s.songId)).toEqual([ids[1], ids[0], ids[2]]);
    // A second time adds nothing.
    const again = await call('PUT', `${P}/crate/${shared.crateUuid}/copy?into=queue`, { token: listener.accessToken });
    expect(again.body).toMatchObject({ crateSongsNumber: 3, songsAdded: 0 });
    // Into likes and into a crate of one's own by uuid.
    expect((await call('PUT', `${P}/crate/${shared.crateUuid}/copy?into=likes`, { token: listener.accessToken })).body).toMatchObject({
      special: 'likes',
      songsAdded: 3,
    });
    const own = await crateWith(listener.accessToken, { crateName: `Mine ${RUN}` }, []);
    expect(
      (await call('PUT', `${P}/crate/${shared.crateUuid}/copy?into=${own.crateUuid}`, { token: listener.accessToken })).body,
    ).toMatchObject({ crateUuid: own.crateUuid, crateSongsNumber: 3, songsAdded: 3 });

    // A private crate of someone else's cannot be read, so not copied; nor can a copy go into someone else's crate.
    expect(await call('PUT', `${P}/crate/${hidden.crateUuid}/copy`, { token: listener.accessToken })).toMatchObject({
      status: 404,
      body: { message: 'Crate not found' },
    });
    expect(await call('PUT', `${P}/crate/${own.crateUuid}/copy?into=${shared.crateUuid}`, { token: listener.accessToken })).toMatchObject({
      status: 403,
      body: { message: 'Only the owner can change this crate' },
    });
    expect(
      (await call('PUT', `${P}/crate/${shared.crateUuid}/copy?into=${hidden.crateUuid}`, { token: listener.accessToken })).status,
    ).toBe(404);
    expect((await call('PUT', `${P}/crate/${shared.crateUuid}/copy?into=everywhere`, { token: listener.accessToken })).status).toBe(400);
    expect((await call('PUT', `${P}/crate/${shared.crateUuid}/copy?into=queue`)).status).toBe(401);
  });

  it('is in the OpenAPI document with its query and statuses', async () => {
    const { body: doc } = await call('GET', '/api/openapi.json');
    const get = doc.paths[`${P}/crate/public`].get;
    expect(get.parameters.map((p: Json) => p.name).sort()).toEqual(['limit', 'offset', 'q']);
    expect(Object.keys(get.responses).sort()).toEqual(['200', '400', '401', '500']);
    const copy = doc.paths[`${P}/crate/{crateUuid}/copy`].put;
    expect(copy.parameters.map((p: Json) => p.name)).toContain('into');
    expect(Object.keys(copy.responses).sort()).toEqual(['201', '400', '401', '403', '404', '500']);
  });
});
