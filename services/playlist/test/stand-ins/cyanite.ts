import { createHmac } from 'node:crypto';
import { credential, StandIn, type StandInReply } from './server.js';

export const CYANITE = { accessToken: 'cyanite-integration-token', webhookSecret: 'cyanite-webhook-secret-0123456789' };

/** A library track as the GraphQL API answers it (AudioAnalysisV6 finished, pending or failed). */
export interface StandInLibraryTrack {
  id: string;
  externalId: string | null;
  analysis: 'finished' | 'pending' | 'failed';
  genreTags?: string[];
  moodTags?: string[];
  bpm?: number;
}

/** The body Cyanite posts to the webhook (its "new" format) and its Signature header. */
export function cyaniteWebhook(libraryTrackId: string, status: 'finished' | 'failed', secret = CYANITE.webhookSecret) {
  const body = JSON.stringify({
    version: '2',
    resource: { type: 'LibraryTrack', id: libraryTrackId },
    event: { type: 'AudioAnalysisV6', status },
  });
  return { body, signature: createHmac('sha512', secret).update(body).digest('hex') };
}

/**
 * Cyanite's GraphQL endpoint on a local port: Bearer integration token,
 * `libraryTrack(id)` with its AudioAnalysisV6 union and `libraryTrackEnqueue`.
 */
export async function startCyaniteStandIn() {
  const tracks = new Map<string, StandInLibraryTrack>();
  const enqueued: string[] = [];
  const error = (status: number, message: string): StandInReply => ({ status, json: { errors: [{ message }] } });
  const server = await StandIn.start({
    errorBody: (status, message) => error(status, message),
    routes: [
      {
        method: 'POST',
        path: /^\/graphql$/,
        handle: (request) => {
          if (credential(request, 'Bearer') !== CYANITE.accessToken) return error(401, 'Unauthorized');
          const { query, variables } = JSON.parse(request.body || '{}') as {
            query?: string;
            variables?: { libraryTrackId?: string; input?: { libraryTrackId?: string } };
          };
          if (query?.includes('libraryTrackEnqueue(')) {
            const id = variables?.input?.libraryTrackId ?? '';
            if (!tracks.has(id)) {
              return {
                json: {
                  data: {
                    libraryTrackEnqueue: {
                      __typename: 'LibraryTrackEnqueueError',
                      code: 'libraryTrackNotFound',
                      message: 'The library track does not exist.',
                    },
                  },
                },
              };
            }
            enqueued.push(id);
            return { json: { data: { libraryTrackEnqueue: { __typename: 'LibraryTrackEnqueueSuccess', enqueuedLibraryTrack: { id } } } } };
          }
          if (query?.includes('libraryTrack(')) {
            const track = tracks.get(variables?.libraryTrackId ?? '');
            if (!track)
              return { json: { data: { libraryTrack: { __typename: 'LibraryTrackNotFoundError', message: 'LibraryTrack not found.' } } } };
            const analysis =
              track.analysis === 'finished'
                ? {
                    __typename: 'AudioAnalysisV6Finished',
                    result: {
                      genreTags: track.genreTags ?? [],
                      moodTags: track.moodTags ?? [],
                      bpmPrediction: { value: track.bpm ?? 120, confidence: 0.9 },
                    },
                  }
                : { __typename: track.analysis === 'failed' ? 'AudioAnalysisV6Failed' : 'AudioAnalysisV6Processing' };
            return {
              json: {
                data: {
                  libraryTrack: { __typename: 'LibraryTrack', id: track.id, externalId: track.externalId, audioAnalysisV6: analysis },
                },
              },
            };
          }
          return error(400, 'Unknown operation');
        },
      },
    ],
  });
  return { server, url: `${server.url}/graphql`, tracks, enqueued, close: () => server.close() };
}
