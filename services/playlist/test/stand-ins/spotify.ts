import { basicCredentials, credential, IssuedTokens, StandIn, type StandInReply, type StandInRequest } from './server.js';

export const SPOTIFY_CLIENT = { id: 'spotify-test-client', secret: 'spotify-test-secret' };

/** Spotify Web API track objects, as /v1/tracks/{id} and /v1/search return them (trimmed of markets). */
export const SPOTIFY_TRACKS = [
  {
    album: {
      album_type: 'album',
      artists: [{ external_urls: { spotify: 'https://open.spotify.com/artist/4tZwfgrHOc3mvqYlEYSvVi' }, href: 'https://api.spotify.com/v1/artists/4tZwfgrHOc3mvqYlEYSvVi', id: '4tZwfgrHOc3mvqYlEYSvVi', name: 'Daft Punk', type: 'artist', uri: 'spotify:artist:4tZwfgrHOc3mvqYlEYSvVi' }],
      external_urls: { spotify: 'https://open.spotify.com/album/2noRn2Aes5aoNVsU6iWThc' },
      href: 'https://api.spotify.com/v1/albums/2noRn2Aes5aoNVsU6iWThc',
      id: '2noRn2Aes5aoNVsU6iWThc',
      images: [
        { height: 640, url: 'https://i.scdn.co/image/ab67616d0000b273b33d46dfa2635a47eebf63b2', width: 640 },
        { height: 300, url: 'https://i.scdn.co/image/ab67616d00001e02b33d46dfa2635a47eebf63b2', width: 300 },
        { height: 64, url: 'https://i.scdn.co/image/ab67616d00004851b33d46dfa2635a47eebf63b2', width: 64 },
      ],
      is_playable: true,
      name: 'Discovery',
      release_date: '2001-03-12',
      release_date_precision: 'day',
      total_tracks: 14,
      type: 'album',
      uri: 'spotify:album:2noRn2Aes5aoNVsU6iWThc',
    },
    artists: [{ external_urls: { spotify: 'https://open.spotify.com/artist/4tZwfgrHOc3mvqYlEYSvVi' }, href: 'https://api.spotify.com/v1/artists/4tZwfgrHOc3mvqYlEYSvVi', id: '4tZwfgrHOc3mvqYlEYSvVi', name: 'Daft Punk', type: 'artist', uri: 'spotify:artist:4tZwfgrHOc3mvqYlEYSvVi' }],
    disc_number: 1,
    duration_ms: 320357,
    explicit: false,
    external_ids: { isrc: 'GBDUW0000053' },
    external_urls: { spotify: 'https://open.spotify.com/track/0DiWol3AO6WpXZgp0goxAV' },
    href: 'https://api.spotify.com/v1/tracks/0DiWol3AO6WpXZgp0goxAV',
    id: '0DiWol3AO6WpXZgp0goxAV',
    is_local: false,
    is_playable: true,
    name: 'One More Time',
    popularity: 74,
    preview_url: 'https://p.scdn.co/mp3-preview/c27897e8eb4c0910e052c9beb6711432f3630879',
    track_number: 1,
    type: 'track',
    uri: 'spotify:track:0DiWol3AO6WpXZgp0goxAV',
  },
  {
    album: {
      album_type: 'single',
      artists: [{ id: '0Y5tJX1MQlPlqiwlOH1tJY', name: 'Travis Scott', type: 'artist' }],
      external_urls: { spotify: 'https://open.spotify.com/album/6Dx7jZ2VbuRF2n8qHoWIcY' },
      id: '6Dx7jZ2VbuRF2n8qHoWIcY',
      images: [{ height: 640, url: 'https://i.scdn.co/image/ab67616d0000b273f54b99bf27cda88f4a7403ce', width: 640 }],
      name: 'SICKO MODE',
      release_date: '2018',
      release_date_precision: 'year',
      type: 'album',
    },
    artists: [
      { id: '0Y5tJX1MQlPlqiwlOH1tJY', name: 'Travis Scott', type: 'artist' },
      { id: '3TVXtAsR1Inumwj472S9r4', name: 'Drake', type: 'artist' },
    ],
    disc_number: 1,
    duration_ms: 312820,
    explicit: true,
    external_ids: { isrc: 'USSM11808176' },
    external_urls: { spotify: 'https://open.spotify.com/track/2xLMifQCjDGFmkHkpNLD9h' },
    href: 'https://api.spotify.com/v1/tracks/2xLMifQCjDGFmkHkpNLD9h',
    id: '2xLMifQCjDGFmkHkpNLD9h',
    is_local: false,
    name: 'SICKO MODE',
    popularity: 82,
    preview_url: null,
    track_number: 3,
    type: 'track',
    uri: 'spotify:track:2xLMifQCjDGFmkHkpNLD9h',
  },
];

const spotifyError = (status: number, message: string): StandInReply => ({ status, json: { error: { status, message } } });

/**
 * Spotify's accounts service and Web API on one local port: client-credentials
 * tokens (an hour), Bearer checks answering Spotify's own 401 bodies, search
 * (with the `isrc:` filter) and track by id.
 */
export async function startSpotifyStandIn() {
  const tokens = new IssuedTokens();

  const authorize = (request: StandInRequest): StandInReply | undefined => {
    const token = credential(request, 'Bearer');
    if (!token) return spotifyError(401, 'No token provided');
    if (!tokens.accept(token)) return spotifyError(401, token.startsWith('spotify-') ? 'The access token expired' : 'Invalid access token');
    return undefined;
  };

  const server = await StandIn.start({
    errorBody: (status, message) => spotifyError(status, message),
    routes: [
      {
        method: 'POST',
        path: /^\/api\/token$/,
        token: true,
        handle: (request) => {
          const client = basicCredentials(request);
          if (new URLSearchParams(request.body).get('grant_type') !== 'client_credentials') {
            return { status: 400, json: { error: 'unsupported_grant_type', error_description: 'grant_type parameter is missing' } };
          }
          if (client?.id !== SPOTIFY_CLIENT.id || client.secret !== SPOTIFY_CLIENT.secret) {
            return { status: 400, json: { error: 'invalid_client', error_description: 'Invalid client' } };
          }
          return { json: { access_token: tokens.issue('spotify'), token_type: 'Bearer', expires_in: 3600 } };
        },
      },
      {
        method: 'GET',
        path: /^\/v1\/search$/,
        handle: (request) => {
          const refused = authorize(request);
          if (refused) return refused;
          const q = request.query.get('q') ?? '';
          if (request.query.get('type') !== 'track') return spotifyError(400, 'Bad search type field');
          const limit = Number(request.query.get('limit') ?? 20);
          const offset = Number(request.query.get('offset') ?? 0);
          const isrc = q.match(/^isrc:(\S+)$/i)?.[1];
          const matches = SPOTIFY_TRACKS.filter((track) =>
            isrc ? track.external_ids.isrc === isrc.toUpperCase() : `${track.name} ${track.artists.map((a) => a.name).join(' ')}`.toLowerCase().includes(q.toLowerCase()) || q === '*',
          );
          const items = matches.slice(offset, offset + limit);
          return {
            json: {
              tracks: {
                href: `https://api.spotify.com/v1/search?query=${encodeURIComponent(q)}&type=track&offset=${offset}&limit=${limit}`,
                items,
                limit,
                next: offset + limit < matches.length ? 'https://api.spotify.com/v1/search?offset=next' : null,
                offset,
                previous: null,
                total: matches.length,
              },
            },
          };
        },
      },
      {
        method: 'GET',
        path: /^\/v1\/tracks\/([^/]+)$/,
        handle: (request, match) => {
          const refused = authorize(request);
          if (refused) return refused;
          const track = SPOTIFY_TRACKS.find((t) => t.id === match[1]);
          return track ? { json: track } : spotifyError(404, 'Resource not found');
        },
      },
    ],
  });

  return {
    server,
    tokens,
    url: server.url,
    tokenRequests: () => server.calls('/api/token').length,
    close: () => server.close(),
  };
}
