import { basicCredentials, credential, IssuedTokens, StandIn, type StandInReply, type StandInRequest } from './server.js';

export const SPOTIFY_CLIENT = { id: 'spotify-test-client', secret: 'spotify-test-secret' };

/** Spotify Web API track objects, as /v1/tracks/{id} and /v1/search return them (trimmed of markets). */
export const SPOTIFY_TRACKS = [
  {
    album: {
      album_type: 'album',
      artists: [
        {
          external_urls: { spotify: 'https://open.spotify.com/artist/4tZwfgrHOc3mvqYlEYSvVi' },
          href: 'https://api.spotify.com/v1/artists/4tZwfgrHOc3mvqYlEYSvVi',
          id: '4tZwfgrHOc3mvqYlEYSvVi',
          name: 'Daft Punk',
          type: 'artist',
          uri: 'spotify:artist:4tZwfgrHOc3mvqYlEYSvVi',
        },
      ],
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
    artists: [
      {
        external_urls: { spotify: 'https://open.spotify.com/artist/4tZwfgrHOc3mvqYlEYSvVi' },
        href: 'https://api.spotify.com/v1/artists/4tZwfgrHOc3mvqYlEYSvVi',
        id: '4tZwfgrHOc3mvqYlEYSvVi',
        name: 'Daft Punk',
        type: 'artist',
        uri: 'spotify:artist:4tZwfgrHOc3mvqYlEYSvVi',
      },
    ],
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

/** A user's own access token (as the authorization-code flow gives it), accepted by /v1/me and the playlist paths. */
export const SPOTIFY_USER = { token: 'spotify-user-access-token', id: 'smedjan' };

/** Playlists the stand-in knows: id -> track ids (a null item is a track Spotify no longer has; an episode is skipped). */
export const SPOTIFY_PLAYLISTS: Record<string, Array<string | null>> = {
  '37i9dQZF1DXcBWIGoYBM5M': ['0DiWol3AO6WpXZgp0goxAV', null, 'episode', '2xLMifQCjDGFmkHkpNLD9h', '0DiWol3AO6WpXZgp0goxAV'],
};

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
    if (token === SPOTIFY_USER.token) return undefined;
    if (!tokens.accept(token)) return spotifyError(401, token.startsWith('spotify-') ? 'The access token expired' : 'Invalid access token');
    return undefined;
  };

  const created: Array<{ id: string; name: string; description: string; public: boolean; uris: string[] }> = [];
  const asUser = (request: StandInRequest): StandInReply | undefined => {
    const token = credential(request, 'Bearer');
    if (!token) return spotifyError(401, 'No token provided');
    return token === SPOTIFY_USER.token ? undefined : spotifyError(401, 'Invalid access token');
  };

  const server = await StandIn.start({
    errorBody: (status, message) => spotifyError(status, message),
    routes: [
      {
        method: 'GET',
        path: /^\/v1\/playlists\/([^/]+)\/tracks$/,
        handle: (request, match) => {
          const refused = authorize(request);
          if (refused) return refused;
          const ids = SPOTIFY_PLAYLISTS[match[1]!];
          if (!ids) return spotifyError(404, 'Resource not found');
          const limit = Number(request.query.get('limit') ?? 100);
          if (limit > 100) return spotifyError(400, 'Invalid limit');
          const offset = Number(request.query.get('offset') ?? 0);
          const origin = `http://${request.headers.host}`;
          const items = ids.slice(offset, offset + limit).map((id) => ({
            added_at: '2024-05-01T10:00:00Z',
            is_local: false,
            track:
              id === null
                ? null
                : id === 'episode'
                  ? { id: '512ojhOuo1ktJprKbVcKyQ', type: 'episode', name: 'A podcast episode', duration_ms: 1_800_000 }
                  : SPOTIFY_TRACKS.find((t) => t.id === id),
          }));
          const next =
            offset + limit < ids.length ? `${origin}/v1/playlists/${match[1]}/tracks?offset=${offset + limit}&limit=${limit}` : null;
          return { json: { href: `${origin}${request.path}`, items, limit, next, offset, previous: null, total: ids.length } };
        },
      },
      {
        method: 'GET',
        path: /^\/v1\/me$/,
        handle: (request) =>
          asUser(request) ?? {
            json: { id: SPOTIFY_USER.id, display_name: 'Smedjan', type: 'user', uri: `spotify:user:${SPOTIFY_USER.id}` },
          },
      },
      {
        method: 'POST',
        path: /^\/v1\/users\/([^/]+)\/playlists$/,
        handle: (request, match) => {
          const refused = asUser(request);
          if (refused) return refused;
          if (match[1] !== SPOTIFY_USER.id) return spotifyError(403, 'You cannot create a playlist for another user');
          const body = JSON.parse(request.body || '{}') as { name?: string; description?: string; public?: boolean };
          if (!body.name) return spotifyError(400, 'Missing required field: name');
          const id = `3cEYpjA9oz9GiPac4AsH${String(created.length).padStart(2, '0')}`;
          created.push({ id, name: body.name, description: body.description ?? '', public: body.public ?? true, uris: [] });
          return {
            status: 201,
            json: {
              collaborative: false,
              description: body.description ?? '',
              external_urls: { spotify: `https://open.spotify.com/playlist/${id}` },
              id,
              name: body.name,
              owner: { id: SPOTIFY_USER.id, type: 'user' },
              public: body.public ?? true,
              snapshot_id: 'MSw1ZmIyYjQ0',
              tracks: { href: `https://api.spotify.com/v1/playlists/${id}/tracks`, total: 0 },
              type: 'playlist',
            },
          };
        },
      },
      {
        method: 'POST',
        path: /^\/v1\/playlists\/([^/]+)\/tracks$/,
        handle: (request, match) => {
          const refused = asUser(request);
          if (refused) return refused;
          const playlist = created.find((p) => p.id === match[1]);
          if (!playlist) return spotifyError(404, 'Resource not found');
          const { uris } = JSON.parse(request.body || '{}') as { uris?: string[] };
          if (!uris || uris.length > 100) return spotifyError(400, 'You can add a maximum of 100 tracks per request.');
          if (uris.some((u) => !/^spotify:track:[A-Za-z0-9]{22}$/.test(u))) return spotifyError(400, 'Invalid track uri');
          playlist.uris.push(...uris);
          return { status: 201, json: { snapshot_id: 'MiwxZmIyYjQ0' } };
        },
      },
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
            isrc
              ? track.external_ids.isrc === isrc.toUpperCase()
              : `${track.name} ${track.artists.map((a) => a.name).join(' ')}`.toLowerCase().includes(q.toLowerCase()) || q === '*',
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
    /** Playlists made through the user's token. */
    created,
    close: () => server.close(),
  };
}
