import { StandIn, type StandInReply } from './server.js';

const artwork = (cid: string) => ({
  '150x150': `https://creatornode.audius.co/content/${cid}/150x150.jpg`,
  '480x480': `https://creatornode.audius.co/content/${cid}/480x480.jpg`,
  '1000x1000': `https://creatornode.audius.co/content/${cid}/1000x1000.jpg`,
});

const user = (id: string, handle: string, name: string) => ({
  album_count: 1,
  bio: 'Producer.',
  followee_count: 10,
  follower_count: 1200,
  handle,
  id,
  is_verified: true,
  location: 'Los Angeles',
  name,
  playlist_count: 2,
  profile_picture: artwork(`Qm${id}profile`),
  repost_count: 5,
  track_count: 12,
  is_deactivated: false,
  is_available: true,
});

/** Audius v1 tracks (the swagger Track schema). */
export const AUDIUS_TRACKS = [
  {
    artwork: artwork('QmArtworkSunrise'),
    description: 'Sunrise set closer',
    genre: 'Electronic',
    id: 'D7KyD',
    track_cid: 'QmTrackSunrise',
    preview_cid: null,
    is_original_available: false,
    mood: 'Uplifting',
    release_date: '2021-04-20T00:00:00Z',
    isrc: 'qz-es9-21-00001',
    remix_of: { tracks: [] },
    repost_count: 42,
    favorite_count: 318,
    comment_count: 7,
    tags: 'house,sunrise',
    title: 'Sunrise Over Venice',
    user: user('nlGNe', 'skylinebeats', 'Skyline Beats'),
    duration: 247,
    is_downloadable: false,
    play_count: 15234,
    permalink: '/skylinebeats/sunrise-over-venice',
    is_streamable: true,
    album_backlink: { playlist_id: 77, playlist_name: 'Coastline', permalink: '/skylinebeats/album/coastline' },
  },
  {
    artwork: null,
    description: null,
    genre: 'Hip-Hop/Rap',
    id: 'Ka8Zq',
    track_cid: 'QmTrackCity',
    mood: null,
    release_date: 'Tue Mar 14 2023 00:00:00 GMT+0000',
    isrc: null,
    repost_count: 1,
    favorite_count: 3,
    comment_count: 0,
    tags: null,
    title: 'City Lights',
    user: user('pLmN2', 'mcnova', 'MC Nova'),
    duration: 181.6,
    is_downloadable: false,
    play_count: 88,
    permalink: '/mcnova/city-lights',
    is_streamable: true,
  },
];

/** Audius' API is open: no credentials, an app_name on each call. */
export async function startAudiusStandIn() {
  const notFound: StandInReply = { status: 404, json: { code: 404, error: 'track not found' } };
  const server = await StandIn.start({
    errorBody: (status, message) => ({ status, json: { code: status, error: message } }),
    routes: [
      {
        method: 'GET',
        path: /^\/v1\/tracks\/search$/,
        handle: (request) => {
          const query = (request.query.get('query') ?? '').toLowerCase();
          const limit = Number(request.query.get('limit') ?? 10);
          const offset = Number(request.query.get('offset') ?? 0);
          const found = AUDIUS_TRACKS.filter((t) => `${t.title} ${t.user.name}`.toLowerCase().includes(query));
          return { json: { data: found.slice(offset, offset + limit) } };
        },
      },
      {
        method: 'GET',
        path: /^\/v1\/tracks$/,
        handle: (request) => {
          const isrcs = request.query.getAll('isrc');
          const ids = request.query.getAll('id');
          const data = AUDIUS_TRACKS.filter(
            (t) => ids.includes(t.id) || isrcs.some((isrc) => t.isrc?.replace(/-/g, '').toUpperCase() === isrc),
          );
          return { json: { data } };
        },
      },
      {
        method: 'GET',
        path: /^\/v1\/tracks\/([^/]+)$/,
        handle: (_request, match) => {
          const track = AUDIUS_TRACKS.find((t) => t.id === match[1]);
          return track ? { json: { data: track } } : notFound;
        },
      },
    ],
  });
  return { server, url: server.url, close: () => server.close() };
}
