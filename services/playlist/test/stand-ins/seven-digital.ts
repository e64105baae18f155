import { createHmac } from 'node:crypto';
import { StandIn, type StandInReply, type StandInRequest } from './server.js';

export const SEVEN_DIGITAL_CONSUMER = { key: '7d-test-key', secret: '7d-test-secret' };

const artist = (id: number, name: string, slug: string) => ({
  id,
  name,
  appearsAs: name,
  slug,
  image: `https://artwork-cdn.7static.com/static/img/artistimages/00/000/${id}_350.jpg`,
  isPlaceholderImage: false,
});

/** 7digital 1.2 tracks in their JSON form (Accept: application/json), release artwork at imageSize=350. */
export const SEVEN_DIGITAL_TRACKS = [
  {
    id: 11471325,
    title: 'Brilliance Of The Sun',
    version: '',
    artist: artist(873665, 'A Day For Honey', 'a-day-for-honey'),
    trackNumber: 1,
    duration: 236,
    explicitContent: false,
    isrc: 'USTV19800332',
    type: 'audio',
    release: {
      id: 1044021,
      title: 'A Day For Honey',
      version: '',
      type: 'Album',
      barcode: '884385034184',
      year: 2010,
      explicitContent: false,
      artist: artist(873665, 'A Day For Honey', 'a-day-for-honey'),
      slug: 'a-day-for-honey',
      image: 'https://artwork-cdn.7static.com/static/img/sleeveart/00/010/440/0001044021_350.jpg',
      label: { id: 9613, name: 'Trustkill' },
      licensor: { id: 1, name: 'Sony Music' },
    },
    url: 'https://us.7digital.com/artist/a-day-for-honey/release/a-day-for-honey-1044021?partner=1401',
    discNumber: 1,
    number: 1,
    download: {
      releaseDate: '2010-06-15T00:00:00Z',
      previewDate: '2010-06-15T00:00:00Z',
      packages: [
        {
          id: 2,
          description: 'standard',
          price: { currencyCode: 'USD', sevendigitalPrice: 0.99, recommendedRetailPrice: 0.99 },
          formats: [{ id: 17, description: 'MP3 320' }],
        },
      ],
    },
    subscriptionStreaming: null,
  },
  {
    id: 82910001,
    title: 'Midnight City',
    version: 'Eric Prydz Remix',
    artist: artist(44021, 'M83', 'm83'),
    trackNumber: 2,
    duration: 384,
    explicitContent: true,
    isrc: 'FR6V81141070',
    type: 'audio',
    release: {
      id: 2209001,
      title: 'Midnight City (Remixes)',
      version: '',
      type: 'Single',
      year: '2012',
      image: 'https://artwork-cdn.7static.com/static/img/sleeveart/00/022/090/0002209001_350.jpg',
    },
    url: 'https://us.7digital.com/artist/m83/release/midnight-city-remixes-2209001?partner=1401',
    discNumber: 1,
    number: 2,
  },
];

const sevenDigitalError = (status: number, code: number, errorMessage: string): StandInReply => ({
  status,
  json: { status: 'error', version: '1.2', error: { code, errorMessage } },
});

/** RFC 3986 encoding for the signature check (written apart from the client's, on purpose). */
const enc = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Checks an OAuth 1.0 HMAC-SHA1 signed request made with the consumer key and secret alone. */
function validSignature(request: StandInRequest, origin: string): boolean {
  const signature = request.query.get('oauth_signature');
  if (!signature || request.query.get('oauth_consumer_key') !== SEVEN_DIGITAL_CONSUMER.key) return false;
  const params = [...request.query.entries()]
    .filter(([k]) => k !== 'oauth_signature')
    .map(([k, v]) => `${enc(k)}=${enc(v)}`)
    .sort()
    .join('&');
  const base = `GET&${enc(origin + request.path)}&${enc(params)}`;
  return (
    createHmac('sha1', `${enc(SEVEN_DIGITAL_CONSUMER.secret)}&`)
      .update(base)
      .digest('base64') === signature
  );
}

/**
 * The 7digital API 1.2 (and its preview clip server) on one local port: the
 * consumer key on the query (401 in plain text otherwise), XML unless JSON is
 * asked for, paging by page/pageSize, error 2001 for an unknown track, and
 * clips only for correctly signed urls.
 */
export async function startSevenDigitalStandIn() {
  const check = (request: StandInRequest): StandInReply | undefined => {
    if (request.query.get('oauth_consumer_key') !== SEVEN_DIGITAL_CONSUMER.key) {
      return { status: 401, text: 'OAuth authentication error: Access to resource denied' };
    }
    if (!String(request.headers.accept ?? '').includes('application/json')) {
      return {
        text: '<?xml version="1.0" encoding="utf-8"?><response status="ok" version="1.2"></response>',
        headers: { 'content-type': 'text/xml; charset=utf-8' },
      };
    }
    return undefined;
  };

  let origin = '';
  const server = await StandIn.start({
    errorBody: (status, message) => sevenDigitalError(status, status >= 500 ? 9001 : 1001, message),
    routes: [
      {
        method: 'GET',
        path: /^\/1\.2\/track\/search$/,
        handle: (request) => {
          const refused = check(request);
          if (refused) return refused;
          const q = (request.query.get('q') ?? '').toLowerCase();
          if (!q) return sevenDigitalError(400, 1001, 'Missing parameter q');
          const page = Number(request.query.get('page') ?? 1);
          const pageSize = Number(request.query.get('pageSize') ?? 10);
          const found = SEVEN_DIGITAL_TRACKS.filter((t) => `${t.title} ${t.artist.name} ${t.isrc}`.toLowerCase().includes(q));
          return {
            json: {
              status: 'ok',
              version: '1.2',
              searchResults: {
                page,
                pageSize,
                totalItems: found.length,
                searchResult: found
                  .slice((page - 1) * pageSize, page * pageSize)
                  .map((track, i) => ({ type: 'track', score: 10 - i, track })),
              },
            },
          };
        },
      },
      {
        method: 'GET',
        path: /^\/1\.2\/track\/details$/,
        handle: (request) => {
          const refused = check(request);
          if (refused) return refused;
          const id = request.query.get('trackId') ?? request.query.get('trackid');
          if (!id) return sevenDigitalError(400, 1001, 'Missing parameter trackId');
          const track = SEVEN_DIGITAL_TRACKS.find((t) => String(t.id) === id);
          return track ? { json: { status: 'ok', version: '1.2', track } } : sevenDigitalError(404, 2001, 'Track not found');
        },
      },
      {
        method: 'GET',
        path: /^\/clip\/(\d+)$/,
        token: true,
        handle: (request, match) => {
          if (!validSignature(request, origin)) return { status: 401, text: 'OAuth authentication error: Invalid signature' };
          if (!SEVEN_DIGITAL_TRACKS.some((t) => String(t.id) === match[1])) return { status: 404, text: 'Not found' };
          return { text: 'ID3-fake-mp3-bytes', headers: { 'content-type': 'audio/mpeg' } };
        },
      },
    ],
  });
  origin = server.url;
  return { server, url: server.url, close: () => server.close() };
}
