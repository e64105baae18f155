import type { ProviderTrack, SearchOptions } from './provider.js';
import { CatalogueProvider, compact, endpoint, keyed, pickImage, ProviderHttp, type ProviderDeps } from './support.js';

export interface YouTubeConfig {
  apiUrl: string;
  apiKey?: string;
}

type Thumbnails = Record<string, { url?: string; width?: number; height?: number } | undefined>;

/** YouTube Data API v3 video resource (part=snippet,contentDetails; the fields we read). */
interface YouTubeVideo {
  id: string;
  snippet?: { title?: string; channelTitle?: string; thumbnails?: Thumbnails };
  contentDetails?: { duration?: string; contentRating?: { ytRating?: string } };
}

interface YouTubeSearch {
  items?: Array<{ id?: { kind?: string; videoId?: string } }>;
}

interface YouTubeVideos {
  items?: YouTubeVideo[];
}

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
/** search.list returns at most 50 results per page. */
const MAX_RESULTS = 50;
/** The "Music" video category. */
const MUSIC_CATEGORY = '10';

/**
 * YouTube Data API v3 with an API key: /youtube/v3/search?part=snippet&type=video
 * (music category) finds video ids, then /youtube/v3/videos?part=contentDetails,snippet
 * gives their durations (ISO 8601, "PT4M13S"). Search pages by token, not offset, so
 * an offset is served from the first 50 results. No ISRC lookup; an API key is never
 * refreshed, so there is nothing to retry.
 */
export class YouTubeProvider extends CatalogueProvider {
  readonly name = 'youtube' as const;
  readonly label = 'YouTube';
  readonly pageSize = 20;
  protected readonly maxPageSize = MAX_RESULTS;
  readonly enabled: boolean;
  private readonly http: ProviderHttp;

  constructor(
    private readonly config: YouTubeConfig,
    deps: ProviderDeps,
  ) {
    super();
    this.enabled = !!config.apiKey;
    this.http = new ProviderHttp(this.label, deps);
  }

  async search(query: string, options: SearchOptions = {}): Promise<ProviderTrack[]> {
    this.ensureOn();
    if (!query.trim()) return [];
    const { limit, offset } = this.page(options);
    if (offset >= MAX_RESULTS) return [];
    const url = endpoint(this.config.apiUrl, '/youtube/v3/search', {
      part: 'snippet',
      type: 'video',
      videoCategoryId: MUSIC_CATEGORY,
      q: query,
      maxResults: Math.min(MAX_RESULTS, offset + limit),
      regionCode: region(options.country),
      key: this.config.apiKey,
    });
    const found = await this.http.get<YouTubeSearch>(url, { failure: 'YouTube search failed' });
    const ids = (found.items ?? [])
      .map((item) => item.id?.videoId)
      .filter((id): id is string => !!id)
      .slice(offset, offset + limit);
    if (ids.length === 0) return [];
    const videos = await this.videos(ids, 'YouTube search failed');
    const byId = new Map(videos.map((video) => [video.id, video]));
    return ids.flatMap((id) => {
      const video = byId.get(id);
      return video ? [toTrack(video)] : [];
    });
  }

  async track(providerSongId: string): Promise<ProviderTrack | null> {
    this.ensureOn();
    if (!VIDEO_ID.test(providerSongId)) return null;
    // videos.list answers 200 with no items for an unknown id.
    const [video] = await this.videos([providerSongId], 'Get YouTube video by ID failed');
    return video ? toTrack(video) : null;
  }

  private async videos(ids: string[], failure: string): Promise<YouTubeVideo[]> {
    const url = endpoint(this.config.apiUrl, '/youtube/v3/videos', {
      part: 'contentDetails,snippet',
      id: ids.join(','),
      key: this.config.apiKey,
    });
    const answer = await this.http.get<YouTubeVideos>(url, { failure });
    return (answer.items ?? []).filter((video) => !!video?.id);
  }
}

/** ISO 8601 durations as YouTube writes them ("PT4M13S", "PT1H2M", "P1DT2S", "P0D" for live) in seconds. */
export function isoDurationSeconds(value: string | undefined): number {
  const match = value?.match(/^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/);
  if (!match) return 0;
  const [, weeks = '0', days = '0', hours = '0', minutes = '0', secs = '0'] = match;
  return Math.round(((Number(weeks) * 7 + Number(days)) * 24 + Number(hours)) * 3600 + Number(minutes) * 60 + Number(secs));
}

function region(country: string | undefined): string | undefined {
  return country && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : undefined;
}

function toTrack(video: YouTubeVideo): ProviderTrack {
  const snippet = video.snippet ?? {};
  return compact({
    provider: 'youtube',
    providerSongId: video.id,
    trackName: snippet.title ?? '',
    // Auto-generated artist channels are called "<Artist> - Topic".
    artistName: (snippet.channelTitle ?? '').replace(/ - Topic$/, ''),
    duration: isoDurationSeconds(video.contentDetails?.duration),
    explicit: video.contentDetails?.contentRating?.ytRating === 'ytAgeRestricted' ? true : undefined,
    thumbnails: keyed('youtube', pickImage(Object.values(snippet.thumbnails ?? {}).filter((t) => !!t))),
    links: keyed('youtube', `https://www.youtube.com/watch?v=${video.id}`),
  });
}
