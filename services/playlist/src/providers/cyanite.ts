import { AppError } from '@spinroom/platform';
import { ProviderHttp, type ProviderDeps } from './support.js';

export interface CyaniteConfig {
  /** The GraphQL endpoint (https://api.cyanite.ai/graphql). */
  apiUrl: string;
  /** The integration's access token. */
  accessToken?: string;
  /** The integration's webhook secret (signs the webhook's bodies). */
  webhookSecret?: string;
}

/** What an AudioAnalysisV6 found for a library track. */
export interface AudioAnalysis {
  /** Our song's uuid, given to Cyanite as the library track's externalId. */
  externalId: string | null;
  status: 'finished' | 'failed' | 'pending' | 'notFound';
  genreTags: string[];
  moodTags: string[];
  bpm: number | null;
}

interface GraphQlAnswer<T> {
  data?: T;
  errors?: Array<{ message?: string }>;
}

interface LibraryTrackAnswer {
  libraryTrack?: {
    __typename?: string;
    id?: string;
    externalId?: string | null;
    audioAnalysisV6?: {
      __typename?: string;
      result?: { genreTags?: string[]; moodTags?: string[]; bpmPrediction?: { value?: number } | null };
    };
  };
}

interface EnqueueAnswer {
  libraryTrackEnqueue?: { __typename?: string; code?: string; message?: string; enqueuedLibraryTrack?: { id?: string } };
}

const LIBRARY_TRACK_QUERY = `query LibraryTrack($libraryTrackId: ID!) {
  libraryTrack(id: $libraryTrackId) {
    __typename
    ... on LibraryTrack {
      id
      externalId
      audioAnalysisV6 {
        __typename
        ... on AudioAnalysisV6Finished { result { genreTags moodTags bpmPrediction { value confidence } } }
      }
    }
  }
}`;

const ENQUEUE_MUTATION = `mutation LibraryTrackEnqueue($input: LibraryTrackEnqueueInput!) {
  libraryTrackEnqueue(input: $input) {
    __typename
    ... on LibraryTrackEnqueueSuccess { enqueuedLibraryTrack { id } }
    ... on LibraryTrackEnqueueError { code message }
  }
}`;

/**
 * Cyanite, the music-analysis service: GraphQL over HTTPS with the
 * integration's access token as Bearer. Off without the token (503, like the
 * catalogue providers); its webhook needs the webhook secret.
 */
export class CyaniteClient {
  readonly label = 'Cyanite';
  readonly enabled: boolean;
  private readonly http: ProviderHttp;

  constructor(
    private readonly config: CyaniteConfig,
    deps: ProviderDeps,
  ) {
    this.enabled = !!config.accessToken;
    this.http = new ProviderHttp(this.label, deps);
  }

  get webhookSecret(): string | undefined {
    return this.config.webhookSecret;
  }

  /** The library track's AudioAnalysisV6 and externalId. */
  async libraryTrack(libraryTrackId: string): Promise<AudioAnalysis> {
    const data = await this.graphql<LibraryTrackAnswer>(LIBRARY_TRACK_QUERY, { libraryTrackId }, 'Get Cyanite library track failed');
    const track = data.libraryTrack;
    if (track?.__typename !== 'LibraryTrack') return { externalId: null, status: 'notFound', genreTags: [], moodTags: [], bpm: null };
    const analysis = track.audioAnalysisV6;
    const kind = analysis?.__typename ?? '';
    const status = kind === 'AudioAnalysisV6Finished' ? 'finished' : kind === 'AudioAnalysisV6Failed' ? 'failed' : 'pending';
    const result = analysis?.result;
    return {
      externalId: track.externalId ?? null,
      status,
      genreTags: result?.genreTags ?? [],
      moodTags: result?.moodTags ?? [],
      bpm: typeof result?.bpmPrediction?.value === 'number' ? result.bpmPrediction.value : null,
    };
  }

  /** Asks for the library track's analysis (again); spec 002: a track not analysed yet is enqueued. */
  async enqueue(libraryTrackId: string): Promise<{ enqueued: boolean; code?: string }> {
    const data = await this.graphql<EnqueueAnswer>(ENQUEUE_MUTATION, { input: { libraryTrackId } }, 'Cyanite enqueue failed');
    const answer = data.libraryTrackEnqueue;
    if (answer?.__typename === 'LibraryTrackEnqueueSuccess') return { enqueued: true };
    return { enqueued: false, code: answer?.code ?? 'unknown' };
  }

  private async graphql<T>(query: string, variables: Record<string, unknown>, failure: string): Promise<T> {
    if (!this.enabled) throw new AppError(503, `${this.label} is not configured on this server`);
    const answer = await this.http.get<GraphQlAnswer<T>>(new URL(this.config.apiUrl), {
      failure,
      method: 'POST',
      headers: { authorization: `Bearer ${this.config.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    if (!answer.data || (answer.errors?.length ?? 0) > 0)
      throw this.http.failed(failure, { errors: answer.errors?.map((e) => e.message).slice(0, 3) });
    return answer.data;
  }
}
