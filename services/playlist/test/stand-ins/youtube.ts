import { StandIn, type StandInReply, type StandInRequest } from './server.js';

export const YOUTUBE_KEY = 'AIzaSy-youtube-test-key';

const thumbnails = (id: string) => ({
  default: { url: `https://i.ytimg.com/vi/${id}/default.jpg`, width: 120, height: 90 },
  medium: { url: `https://i.ytimg.com/vi/${id}/mqdefault.jpg`, width: 320, height: 180 },
  high: { url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg`, width: 480, height: 360 },
  standard: { url: `https://i.ytimg.com/vi/${id}/sddefault.jpg`, width: 640, height: 480 },
});

const video = (
  id: string,
  title: string,
  channelTitle: string,
  duration: string,
  publishedAt: string,
  contentRating: Record<string, string> = {},
) => ({
  kind: 'youtube#video',
  etag: `etag-${id}`,
  id,
  snippet: {
    publishedAt,
    channelId: `UC-${channelTitle.replace(/\W/g, '')}`,
    title,
    description: `${title} on YouTube`,
    thumbnails: thumbnails(id),
    channelTitle,
    tags: ['m83'],
    categoryId: '10',
    liveBroadcastContent: 'none',
    localized: { title, description: `${title} on YouTube` },
  },
  contentDetails: {
    duration,
    dimension: '2d',
    definition: 'hd',
    caption: 'false',
    licensedContent: true,
    contentRating,
    projection: 'rectangular',
  },
});

/** YouTube Data API v3 video resources (part=snippet,contentDetails). */
export const YOUTUBE_VIDEOS = [
  video('dX3k_QDnzHE', "M83 'Midnight City' Official video", 'M83VEVO', 'PT4M4S', '2011-08-17T00:00:00Z'),
  video('1mUJZgGhvyk', 'Midnight City', 'M83 - Topic', 'PT4M3S', '2014-09-11T09:12:34Z'),
  video('Zx6_kX9nZ1s', 'Midnight City (1 hour loop)', 'Loop Channel', 'PT1H0M12S', '2019-01-01T00:00:00Z', { ytRating: 'ytAgeRestricted' }),
];

/** Google's error envelope. */
const googleError = (code: number, message: string, status: string, reason: string): StandInReply => ({
  status: code,
  json: { error: { code, message, errors: [{ message, domain: 'global', reason }], status } },
});

/**
 * YouTube Data API v3 on a local port: search.list and videos.list with an API
 * key on the query, answering Google's own errors for a missing or wrong key.
 */
export async function startYouTubeStandIn() {
  const checkKey = (request: StandInRequest): StandInReply | undefined => {
    const key = request.query.get('key');
    if (!key) return googleError(403, 'The request is missing a valid API key.', 'PERMISSION_DENIED', 'forbidden');
    if (key !== YOUTUBE_KEY) return googleError(400, 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT', 'badRequest');
    return undefined;
  };

  const server = await StandIn.start({
    errorBody: (status, message) =>
      googleError(
        status,
        message,
        status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION',
        status >= 500 ? 'backendError' : 'failedPrecondition',
      ),
    routes: [
      {
        method: 'GET',
        path: /^\/youtube\/v3\/search$/,
        handle: (request) => {
          const refused = checkKey(request);
          if (refused) return refused;
          const q = (request.query.get('q') ?? '').toLowerCase();
          const maxResults = Number(request.query.get('maxResults') ?? 5);
          if (maxResults > 50) return googleError(400, "Invalid value for parameter 'maxResults'.", 'INVALID_ARGUMENT', 'invalidParameter');
          const found = YOUTUBE_VIDEOS.filter((v) => v.snippet.title.toLowerCase().includes(q));
          return {
            json: {
              kind: 'youtube#searchListResponse',
              etag: 'search-etag',
              ...(found.length > maxResults ? { nextPageToken: 'CAUQAA' } : {}),
              regionCode: request.query.get('regionCode') ?? 'US',
              pageInfo: { totalResults: found.length, resultsPerPage: maxResults },
              items: found.slice(0, maxResults).map((v) => ({
                kind: 'youtube#searchResult',
                etag: `search-${v.id}`,
                id: { kind: 'youtube#video', videoId: v.id },
                snippet: { ...v.snippet, title: v.snippet.title.replace(/'/g, '&#39;'), publishTime: v.snippet.publishedAt },
              })),
            },
          };
        },
      },
      {
        method: 'GET',
        path: /^\/youtube\/v3\/videos$/,
        handle: (request) => {
          const refused = checkKey(request);
          if (refused) return refused;
          const ids = (request.query.get('id') ?? '').split(',');
          const items = YOUTUBE_VIDEOS.filter((v) => ids.includes(v.id));
          return {
            json: {
              kind: 'youtube#videoListResponse',
              etag: 'videos-etag',
              items,
              pageInfo: { totalResults: items.length, resultsPerPage: items.length },
            },
          };
        },
      },
    ],
  });

  return { server, url: server.url, close: () => server.close() };
}
