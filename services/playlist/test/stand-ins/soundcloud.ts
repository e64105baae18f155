import { basicCredentials, credential, IssuedTokens, StandIn, type StandInReply } from './server.js';

export const SOUNDCLOUD_CLIENT = { id: 'soundcloud-test-client', secret: 'soundcloud-test-secret' };

const user = (id: number, username: string, avatar: string) => ({
  avatar_url: avatar,
  id,
  kind: 'user',
  last_modified: '2020/09/03 14:08:25 +0000',
  permalink: username.toLowerCase(),
  permalink_url: `https://soundcloud.com/${username.toLowerCase()}`,
  uri: `https://api.soundcloud.com/users/${id}`,
  username,
});

/** SoundCloud public API track objects (the documented Track schema). */
export const SOUNDCLOUD_TRACKS = [
  {
    artwork_url: 'https://i1.sndcdn.com/artworks-000123456789-abcdef-large.jpg',
    available_country_codes: null,
    bpm: 124,
    comment_count: 4,
    commentable: true,
    created_at: '2019/01/15 15:40:49 +0000',
    description: 'Night drive.',
    download_count: 0,
    downloadable: false,
    duration: 40_000 + 203_500,
    embeddable_by: 'all',
    favoritings_count: 271,
    genre: 'Electronic',
    id: 1234,
    isrc: 'usrc17607839',
    key_signature: null,
    kind: 'track',
    label_name: 'some label',
    last_modified: '2020/02/05 05:56:22 +0000',
    license: 'all-rights-reserved',
    permalink: 'night-drive',
    permalink_url: 'https://soundcloud.com/kavinsky-official/night-drive',
    playback_count: 8027,
    release_day: 22,
    release_month: 8,
    release_year: 2019,
    reposts_count: 18,
    secret_token: null,
    secret_uri: null,
    sharing: 'public',
    state: 'finished',
    stream_url: 'https://api.soundcloud.com/tracks/1234/stream',
    streamable: true,
    tag_list: 'synthwave',
    title: 'Night Drive',
    track_type: 'original',
    uri: 'https://api.soundcloud.com/tracks/1234',
    user: user(123456, 'Kavinsky', 'https://i1.sndcdn.com/avatars-000001-aaaaaa-large.jpg'),
    user_favorite: false,
    user_id: 123456,
    user_playback_count: 1,
    user_uri: 'https://api.soundcloud.com/users/123456',
    video_url: null,
    waveform_url: 'https://wave.sndcdn.com/someString.png',
  },
  {
    artwork_url: null,
    bpm: null,
    comment_count: 0,
    commentable: true,
    created_at: '2023/05/01 10:00:00 +0000',
    description: null,
    downloadable: false,
    duration: 185_449,
    genre: '',
    id: 5678,
    isrc: null,
    kind: 'track',
    label_name: null,
    license: 'all-rights-reserved',
    permalink: 'demo-night-drive',
    permalink_url: 'https://soundcloud.com/bedroom-dj/demo-night-drive/s-AbCdEf',
    playback_count: 12,
    release_year: null,
    secret_token: 's-AbCdEf',
    secret_uri: 'https://api.soundcloud.com/tracks/5678?secret_token=s-AbCdEf',
    sharing: 'private',
    state: 'finished',
    streamable: true,
    tag_list: '',
    title: 'Night Drive (demo)',
    uri: 'https://api.soundcloud.com/tracks/5678',
    user: user(999, 'bedroom dj', 'https://i1.sndcdn.com/avatars-000999-bbbbbb-large.jpg'),
    user_id: 999,
  },
];

const soundCloudError = (status: number, message: string): StandInReply => ({
  status,
  json: { code: status, message, link: 'https://developers.soundcloud.com/docs/api/explorer/open-api' },
});

/**
 * SoundCloud's token service (secure.soundcloud.com/oauth/token) and public API
 * on one local port: client-credentials and single-use refresh-token grants,
 * "Authorization: OAuth <token>" checks answering SoundCloud's error body with
 * 401 as its API documents it (or 403, as spec 002 saw, when asked to).
 */
export async function startSoundCloudStandIn() {
  const tokens = new IssuedTokens();
  const refreshTokens = new Set<string>();
  const state = { refusalStatus: 401 as 401 | 403, grants: [] as string[] };

  const grant = (body: URLSearchParams, basic: { id: string; secret: string } | undefined): StandInReply => {
    const client = basic ?? { id: body.get('client_id') ?? '', secret: body.get('client_secret') ?? '' };
    if (client.id !== SOUNDCLOUD_CLIENT.id || client.secret !== SOUNDCLOUD_CLIENT.secret) {
      return {
        status: 401,
        json: { code: 401, message: 'invalid_client', link: 'https://developers.soundcloud.com/docs/api/guide#authentication' },
      };
    }
    const type = body.get('grant_type') ?? '';
    state.grants.push(type);
    if (type === 'refresh_token') {
      const refresh = body.get('refresh_token') ?? '';
      if (!refreshTokens.delete(refresh)) {
        return {
          status: 400,
          json: { code: 400, message: 'invalid_grant', link: 'https://developers.soundcloud.com/docs/api/guide#authentication' },
        };
      }
    } else if (type !== 'client_credentials') {
      return {
        status: 400,
        json: { code: 400, message: 'unsupported_grant', link: 'https://developers.soundcloud.com/docs/api/guide#authentication' },
      };
    }
    const refreshToken = `refresh-${Math.random().toString(36).slice(2, 10)}`;
    refreshTokens.add(refreshToken);
    return { json: { access_token: tokens.issue('soundcloud'), expires_in: 3599, scope: '', refresh_token: refreshToken } };
  };

  const authorize = (request: Parameters<typeof credential>[0]): StandInReply | undefined => {
    if (tokens.accept(credential(request, 'OAuth'))) return undefined;
    return soundCloudError(state.refusalStatus, state.refusalStatus === 401 ? 'invalid_token' : 'Forbidden');
  };

  const server = await StandIn.start({
    errorBody: (status, message) => soundCloudError(status, message),
    routes: [
      {
        method: 'POST',
        path: /^\/oauth\/token$/,
        token: true,
        handle: (request) => grant(new URLSearchParams(request.body), basicCredentials(request)),
      },
      {
        method: 'GET',
        path: /^\/tracks$/,
        handle: (request) => {
          const refused = authorize(request);
          if (refused) return refused;
          const q = (request.query.get('q') ?? '').toLowerCase();
          const limit = Number(request.query.get('limit') ?? 50);
          const offset = Number(request.query.get('offset') ?? 0);
          const found = SOUNDCLOUD_TRACKS.filter((t) => `${t.title} ${t.user.username}`.toLowerCase().includes(q));
          const collection = found.slice(offset, offset + limit);
          if (request.query.get('linked_partitioning') !== 'true') return { json: collection };
          const next =
            offset + limit < found.length
              ? `https://api.soundcloud.com/tracks?q=${encodeURIComponent(q)}&offset=${offset + limit}&limit=${limit}&linked_partitioning=true`
              : null;
          return { json: { collection, next_href: next } };
        },
      },
      {
        method: 'GET',
        path: /^\/tracks\/([^/]+)$/,
        handle: (request, match) => {
          const refused = authorize(request);
          if (refused) return refused;
          const id = decodeURIComponent(match[1]!).replace(/^soundcloud:tracks:/, '');
          const track = SOUNDCLOUD_TRACKS.find((t) => String(t.id) === id);
          return track ? { json: track } : soundCloudError(404, '404 - Not Found');
        },
      },
    ],
  });

  return {
    server,
    tokens,
    state,
    url: server.url,
    tokenRequests: () => server.calls('/oauth/token').length,
    /** Refresh tokens handed out so far stop working (revoked, or already used elsewhere). */
    forgetRefreshTokens: () => refreshTokens.clear(),
    close: () => server.close(),
  };
}
