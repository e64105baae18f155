import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { jwtVerify } from 'jose';
import { credential, StandIn, type StandInReply, type StandInRequest } from './server.js';

export const APPLE_TEAM_ID = 'TEAM123456';
export const APPLE_KEY_ID = 'KEY1234567';

/** Apple Music API song resources, as /v1/catalog/{storefront}/songs/{id} returns them. */
export const APPLE_SONGS = [
  {
    id: '897072750',
    type: 'songs',
    href: '/v1/catalog/us/songs/897072750',
    attributes: {
      previews: [
        {
          url: 'https://audio-ssl.itunes.apple.com/itunes-assets/Music6/v4/d0/fb/ac/d0fbac69-1a09-9e09-99d7-0ce20dca9a31/mzaf_3801033891693354111.plus.aac.p.m4a',
        },
      ],
      artwork: {
        width: 1482,
        height: 1482,
        url: 'https://is5-ssl.mzstatic.com/image/thumb/Music4/v4/d1/5e/bf/d15ebf24-733b-980d-d582-e27f72001ff8/3149027001014.jpg/{w}x{h}bb.jpeg',
        bgColor: '08080a',
        textColor1: 'fafafc',
        textColor2: 'dfdfdf',
        textColor3: 'cacacc',
        textColor4: 'b4b4b5',
      },
      artistName: 'Ahmad Jamal',
      url: 'https://music.apple.com/us/album/invitation-live/897072740?i=897072750',
      discNumber: 1,
      genreNames: ['Jazz', 'Music'],
      durationInMillis: 672280,
      releaseDate: '2014-07-28',
      name: 'Invitation (Live)',
      isrc: 'FR5FH1300035',
      hasLyrics: false,
      albumName: 'Live At the Olympia - June 27, 2012 (Live) [feat. Yusef Lateef]',
      playParams: { id: '897072750', kind: 'song' },
      trackNumber: 4,
      composerName: 'Bronisław Kaper',
    },
    relationships: {
      artists: {
        href: '/v1/catalog/us/songs/897072750/artists',
        data: [{ id: '76328', type: 'artists', href: '/v1/catalog/us/artists/76328' }],
      },
      albums: {
        href: '/v1/catalog/us/songs/897072750/albums',
        data: [{ id: '897072740', type: 'albums', href: '/v1/catalog/us/albums/897072740' }],
      },
    },
  },
  {
    id: '1727813561',
    type: 'songs',
    href: '/v1/catalog/us/songs/1727813561',
    attributes: {
      albumName: 'Gata Only - Single',
      artistName: 'FloyyMenor & Cris Mj',
      artwork: {
        bgColor: '101010',
        hasP3: false,
        height: 3000,
        textColor1: 'ffffff',
        textColor2: 'cfcfcf',
        textColor3: 'cfcfcf',
        textColor4: 'a9a9a9',
        url: 'https://is1-ssl.mzstatic.com/image/thumb/Music116/v4/ca/4e/0f/ca4e0f11-2cbc-7aec-b2e4-53f5fac7cb0e/198309012715-copy-6dfc57c0.png/{w}x{h}bb.jpg',
        width: 3000,
      },
      audioLocale: 'en-US',
      audioTraits: ['lossless', 'lossy-stereo'],
      contentRating: 'explicit',
      discNumber: 1,
      durationInMillis: 222000,
      genreNames: ['Latin', 'Music'],
      hasCredits: false,
      hasLyrics: true,
      isAppleDigitalMaster: false,
      isrc: 'QZL382406049',
      name: 'Gata Only',
      playParams: { id: '1727813561', kind: 'song' },
      previews: [
        {
          url: 'https://audio-ssl.itunes.apple.com/itunes-assets/AudioPreview116/v4/17/21/8c/17218cc9-83de-cd9a-6efc-141cd28492ca/mzaf_14294917035804339986.plus.aac.ep.m4a',
        },
      ],
      releaseDate: '2024-02-02',
      trackNumber: 1,
      url: 'https://music.apple.com/us/album/gata-only/1727813560?i=1727813561',
    },
  },
];

/** A Music User Token (MusicKit's user authorization), accepted by the /v1/me paths. */
export const APPLE_MUSIC_USER_TOKEN = 'apple-music-user-token';

/** Catalog playlists the stand-in knows: id -> song ids. */
export const APPLE_PLAYLISTS: Record<string, string[]> = {
  'pl.f4d106fed2bd41149aaacabb233eb5eb': ['897072750', '1727813561', '897072750'],
};

const appleError = (status: number, title: string, detail: string, code: string): StandInReply => ({
  status,
  json: { errors: [{ id: randomUUID().toUpperCase(), title, detail, status: String(status), code }] },
});

/**
 * Apple Music API on a local port. It knows the public half of a MusicKit key
 * made for the test and accepts only ES256 developer tokens signed with it
 * (kid and iss checked, exp against the test clock); a missing, foreign,
 * expired or revoked token gets Apple's 401 (which carries no body).
 */
export async function startAppleMusicStandIn(now: () => number) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const seen = new Set<string>();
  const revoked = new Set<string>();
  const state = { refuseAll: false };

  const authorize = async (request: StandInRequest): Promise<StandInReply | undefined> => {
    const token = credential(request, 'Bearer');
    const unauthorized: StandInReply = { status: 401, text: '' };
    if (!token || state.refuseAll || revoked.has(token)) return unauthorized;
    try {
      const { payload, protectedHeader } = await jwtVerify(token, publicKey, {
        algorithms: ['ES256'],
        issuer: APPLE_TEAM_ID,
        currentDate: new Date(now()),
      });
      if (protectedHeader.kid !== APPLE_KEY_ID || typeof payload.iat !== 'number' || typeof payload.exp !== 'number') return unauthorized;
      if (payload.exp - payload.iat > 15_777_000) return unauthorized; // longer than the six months Apple allows
    } catch {
      return unauthorized;
    }
    seen.add(token);
    return undefined;
  };

  const created: Array<{ id: string; name: string; trackIds: string[] }> = [];
  const server = await StandIn.start({
    errorBody: (status, message) => appleError(status, status >= 500 ? 'Internal Server Error' : 'Error', message, `${status}00`),
    routes: [
      {
        method: 'GET',
        path: /^\/v1\/catalog\/([a-z]{2})\/playlists\/([^/]+)\/tracks$/,
        handle: async (request, match) => {
          const refused = await authorize(request);
          if (refused) return refused;
          const ids = APPLE_PLAYLISTS[match[2]!];
          if (!ids) return appleError(404, 'Resource Not Found', 'Resource with requested id was not found', '40400');
          const limit = Number(request.query.get('limit') ?? 100);
          if (limit > 100) return appleError(400, 'Invalid Parameter Value', 'Value must be an integer less than or equal to 100', '40005');
          const offset = Number(request.query.get('offset') ?? 0);
          const data = ids.slice(offset, offset + limit).map((id) => APPLE_SONGS.find((s) => s.id === id)!);
          const next =
            offset + limit < ids.length ? `/v1/catalog/${match[1]}/playlists/${match[2]}/tracks?offset=${offset + limit}` : undefined;
          return { json: { ...(next ? { next } : {}), data, meta: { total: ids.length } } };
        },
      },
      {
        method: 'POST',
        path: /^\/v1\/me\/library\/playlists$/,
        handle: async (request) => {
          const refused = await authorize(request);
          if (refused) return refused;
          if (request.headers['music-user-token'] !== APPLE_MUSIC_USER_TOKEN) {
            return appleError(403, 'Forbidden', 'Invalid authentication', '40300');
          }
          const body = JSON.parse(request.body || '{}') as {
            attributes?: { name?: string };
            relationships?: { tracks?: { data?: Array<{ id: string; type: string }> } };
          };
          if (!body.attributes?.name) return appleError(400, 'Parameter Missing', 'attributes.name is required', '40006');
          const id = `p.${randomUUID().replace(/-/g, '').slice(0, 15)}`;
          const trackIds = (body.relationships?.tracks?.data ?? []).map((t) => t.id);
          created.push({ id, name: body.attributes.name, trackIds });
          return {
            status: 201,
            json: {
              data: [
                {
                  id,
                  type: 'library-playlists',
                  href: `/v1/me/library/playlists/${id}`,
                  attributes: {
                    name: body.attributes.name,
                    canEdit: true,
                    isPublic: false,
                    hasCatalog: false,
                    playParams: { id, kind: 'playlist', isLibrary: true },
                  },
                },
              ],
            },
          };
        },
      },
      {
        method: 'GET',
        path: /^\/v1\/catalog\/([a-z]{2})\/search$/,
        handle: async (request, match) => {
          const refused = await authorize(request);
          if (refused) return refused;
          const term = (request.query.get('term') ?? '').toLowerCase();
          const limit = Number(request.query.get('limit') ?? 5);
          if (limit > 25) return appleError(400, 'Invalid Parameter Value', 'Value must be an integer less than or equal to 25', '40005');
          const offset = Number(request.query.get('offset') ?? 0);
          const found = APPLE_SONGS.filter((song) => `${song.attributes.name} ${song.attributes.artistName}`.toLowerCase().includes(term));
          const page = found.slice(offset, offset + limit);
          if (page.length === 0) return { json: { results: {}, meta: { results: { order: [], rawOrder: [] } } } };
          const href = `/v1/catalog/${match[1]}/search?limit=${limit}&term=${encodeURIComponent(term)}&types=songs`;
          return {
            json: {
              results: {
                songs: { href, ...(offset + limit < found.length ? { next: `${href}&offset=${offset + limit}` } : {}), data: page },
              },
              meta: { results: { order: ['songs'], rawOrder: ['songs'] } },
            },
          };
        },
      },
      {
        method: 'GET',
        path: /^\/v1\/catalog\/([a-z]{2})\/songs\/([^/]+)$/,
        handle: async (request, match) => {
          const refused = await authorize(request);
          if (refused) return refused;
          const song = APPLE_SONGS.find((s) => s.id === match[2]);
          return song
            ? { json: { data: [song] } }
            : appleError(404, 'Resource Not Found', 'Resource with requested id was not found', '40400');
        },
      },
      {
        method: 'GET',
        path: /^\/v1\/catalog\/([a-z]{2})\/songs$/,
        handle: async (request) => {
          const refused = await authorize(request);
          if (refused) return refused;
          const isrc = request.query.get('filter[isrc]');
          if (!isrc)
            return appleError(400, 'Parameter Missing', 'One of the following parameters must be provided: ids, filter[isrc]', '40006');
          const songs = APPLE_SONGS.filter((s) => s.attributes.isrc === isrc);
          return {
            json: {
              data: songs,
              meta: { filters: { isrc: { [isrc]: songs.map((s) => ({ id: s.id, type: 'songs', href: s.href })) } } },
            },
          };
        },
      },
    ],
  });

  return {
    server,
    url: server.url,
    privateKeyPem,
    state,
    /** Library playlists made with the user token. */
    created,
    /** Every developer token seen so far stops working. */
    revokeAll: () => {
      for (const token of seen) revoked.add(token);
    },
    /** Distinct developer tokens presented so far (one per signing). */
    tokensSeen: () => new Set(server.requests.map((r) => credential(r, 'Bearer'))).size,
    close: () => server.close(),
  };
}
